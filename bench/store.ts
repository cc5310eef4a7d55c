/**
 * The PostgreSQL store against the SQLite store: simulated choice trials stored per second by the
 * whole run path (design → machine → sim:steep → store, leases and live log included), the two
 * stores taking turns within one run so the ratio holds on a shared, noisy machine. Each round gets
 * a new SQLite file and a new PostgreSQL database (the role must be allowed to create databases).
 *
 *   npx tsx bench/store.ts [--postgres postgres://user:password@127.0.0.1:5432/db] [--rounds 3] [--replicates 2]
 *
 * The server defaults to $BAZAAR_BENCH_POSTGRES, then $BAZAAR_TEST_POSTGRES.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { resolveChoiceAgent } from "../agents/registry.ts";
import { DEFAULT_HOTEL_POOL } from "../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../environments/choice/design.ts";
import { choiceEnvironment } from "../environments/choice/environment.ts";
import { executeRun } from "../environments/runner/execute.ts";
import { planRun } from "../environments/runner/plan.ts";
import { Store } from "../environments/store/index.ts";
import { createDatabase, dropDatabase } from "./postgres.ts";

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

async function rate(location: string, replicates: number): Promise<number> {
  const plan = planRun({
    env: choiceEnvironment,
    settings: { maxReasks: 2 },
    tasks: buildChoiceTasks({}, DEFAULT_HOTEL_POOL),
    agents: [resolveChoiceAgent("sim:steep")],
    replicates,
    design: { bench: "store" },
  });
  const t0 = performance.now();
  const store = Store.open(location, { create: true });
  try {
    const r = await executeRun(plan, store, { concurrency: 8 });
    return r.ranNow / ((performance.now() - t0) / 1000);
  } finally {
    store.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchStore(): Promise<void> {
  const url = option("--postgres") ?? process.env.BAZAAR_BENCH_POSTGRES ?? process.env.BAZAAR_TEST_POSTGRES;
  if (!url) {
    console.log("store bench skipped: no PostgreSQL server (--postgres <url> or $BAZAAR_BENCH_POSTGRES)");
    return;
  }
  const rounds = Number(option("--rounds") ?? 3);
  const replicates = Number(option("--replicates") ?? 2);
  const dir = mkdtempSync(path.join(os.tmpdir(), "bazaar-bench-store-"));
  const sqlite: number[] = [];
  const postgres: number[] = [];
  try {
    for (let i = 0; i < rounds; i++) {
      sqlite.push(await rate(path.join(dir, `r${i}.db`), replicates));
      const db = await createDatabase(url, `bazaar_bench_${process.pid}_${i}`);
      try {
        postgres.push(await rate(db, replicates));
      } finally {
        await dropDatabase(url, db);
      }
      console.log(
        `round ${i + 1}: SQLite ${sqlite[i]!.toFixed(0)} trials/s, PostgreSQL ${postgres[i]!.toFixed(0)} trials/s`,
      );
    }
    const trials = 8700 * replicates;
    console.log(
      `store (${trials.toLocaleString("en-US")} sim:steep choice trials per round, ${rounds} rounds): SQLite best ${Math.max(...sqlite).toFixed(0)} / median ${median(sqlite).toFixed(0)} trials/s; PostgreSQL best ${Math.max(...postgres).toFixed(0)} / median ${median(postgres).toFixed(0)} trials/s`,
    );
    console.log(
      `PostgreSQL / SQLite: ${((100 * Math.max(...postgres)) / Math.max(...sqlite)).toFixed(0)}% (best), ${((100 * median(postgres)) / median(sqlite)).toFixed(0)}% (median); target ≥ 25%`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStore();
