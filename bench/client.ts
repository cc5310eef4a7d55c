/**
 * Shop episodes with a client against plain shop episodes of the same tasks, through the whole path
 * (design → xstate machine → simulated shopper and client → runner → SQLite), in one run so the
 * ratio means something on a shared, noisy machine. Episodes with a client take more steps (the
 * questions), so the figure that compares like with like is steps stored per second:
 * - plain: sim:careful, no client;
 * - client, silent: sim:careful for sim:terse (the client opens; nobody asks it anything);
 * - client, talking: sim:asks-first for sim:terse (five questions, each read, audited and answered).
 * Bar (issue 31): the talking client's steps/s at least 50% of the plain shop's.
 *
 *   npx tsx bench/client.ts [--tasks N] [--replicates N] [--rounds N]
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { simClient } from "../agents/sim/client/index.ts";
import { SHOP_PRESETS, TALKER_PRESETS } from "../agents/sim/shop/index.ts";
import { DEFAULT_HOTEL_POOL } from "../datasets/hotels/index.ts";
import type { AgentEntry } from "../environments/kernel/types.ts";
import { executeRun } from "../environments/runner/execute.ts";
import { planRun } from "../environments/runner/plan.ts";
import { shopEnvironmentWith } from "../environments/shop/environment.ts";
import { buildShopTasks, shopEnvironment } from "../environments/shop/index.ts";
import { Store } from "../environments/store/index.ts";

const args = process.argv.slice(2);
const value = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};

type Path = "plain" | "silent" | "talking";

interface Timing {
  episodes: number;
  steps: number;
  ms: number;
}

function entry(p: Path): AgentEntry {
  const shopper = p === "talking" ? TALKER_PRESETS["asks-first"]! : SHOP_PRESETS.careful!;
  const name = p === "talking" ? "asks-first" : "careful";
  return {
    label: p === "plain" ? `sim:${name}` : `sim:${name} for sim:terse`,
    identity: { p },
    players:
      p === "plain"
        ? { shopper: shopper.make(`sim:${name}`) as never }
        : { shopper: shopper.make(`sim:${name}`) as never, client: simClient("terse") as never },
  };
}

async function run(p: Path, tasks: number, replicates: number, dir: string): Promise<Timing> {
  const t0 = performance.now();
  const design = { tasks, seed: "bench", families: { open: 3, dominance: 1 }, minAdmissible: 4 };
  const plan = planRun({
    env: p === "plain" ? shopEnvironment : shopEnvironmentWith({ offers: false, client: true }),
    settings: {},
    tasks: buildShopTasks(p === "plain" ? design : { ...design, clients: true }, DEFAULT_HOTEL_POOL),
    agents: [entry(p)],
    replicates,
    design: { bench: p },
  });
  const store = Store.open(path.join(dir, `${p}.db`), { create: true });
  let steps = 0;
  const r = await executeRun(plan, store, {
    concurrency: 8,
    onTrial: (record) => {
      steps += record.steps as number;
    },
  });
  store.close();
  return { episodes: r.ranNow, steps, ms: performance.now() - t0 };
}

export async function benchClient(): Promise<void> {
  const tasks = value("--tasks", 150);
  const replicates = value("--replicates", 8);
  const rounds = value("--rounds", 3);
  const dir = mkdtempSync(path.join(os.tmpdir(), "bazaar-bench-client-"));
  try {
    const paths: Path[] = ["plain", "silent", "talking"];
    const best: Partial<Record<Path, Timing>> = {};
    for (const p of paths) {
      const warm = path.join(dir, `warm-${p}`);
      mkdirSync(warm);
      await run(p, 30, 1, warm);
    }
    // Rounds alternate the paths; each path's best round counts (least disturbed by a busy machine).
    for (let r = 0; r < rounds; r++)
      for (const p of paths) {
        const d = path.join(dir, `round-${r}-${p}`);
        mkdirSync(d);
        const t = await run(p, tasks, replicates, d);
        const b = best[p];
        if (!b || t.ms < b.ms) best[p] = t;
      }
    const n = (x: number) => Math.round(x).toLocaleString("en-US");
    const rate = (t: Timing) => (t.episodes * 1000) / t.ms;
    const stepRate = (t: Timing) => (t.steps * 1000) / t.ms;
    const plain = best.plain!;
    console.log(
      `shop with a client, ${n(plain.episodes)} episodes a path (${replicates} replicates of ${tasks} tasks; best of ${rounds} rounds):`,
    );
    const labels: Record<Path, string> = {
      plain: "plain (sim:careful, no client)",
      silent: "client, silent (sim:careful for sim:terse)",
      talking: "client, talking (sim:asks-first for sim:terse)",
    };
    for (const p of paths) {
      const t = best[p]!;
      console.log(
        `  ${labels[p].padEnd(48)} ${n(rate(t)).padStart(6)} stored episodes/s · ${(t.steps / t.episodes).toFixed(1)} steps each · ${n(stepRate(t)).padStart(7)} steps/s (${((100 * stepRate(t)) / stepRate(plain)).toFixed(1)}% of plain)`,
      );
    }
    console.log(
      `  bar: the talking client's steps/s ≥ 50% of plain: ${((100 * stepRate(best.talking!)) / stepRate(plain)).toFixed(1)}%`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchClient();
