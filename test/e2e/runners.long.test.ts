/**
 * Several `bazaar run` processes on one run and one store, against serve-sim: together they make
 * each model call once (serve-sim counts them), store the same trials one process alone stores, and
 * each says what it did and what the others did; a runner killed mid-run leaves its trials to the
 * next runner once its leases run out. On a SQLite store, and on a PostgreSQL one when the tests
 * have a server.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { trialRecords } from "../../environments/runner/records.ts";
import { Store } from "../../environments/store/index.ts";
import { BIN, REPO_ROOT, runCli, tempDir } from "../helpers/cli.ts";
import { freshDatabase, hasPostgres, storedTrialsPg } from "../helpers/postgres.ts";
import { storedTrials } from "../helpers/store.ts";

const LIMIT = 600;

function args(url: string, store: string, extra: string[] = []): string[] {
  return [
    "run",
    "choice",
    "--agent",
    "openai:sim-steep",
    "--base-url",
    url,
    "--store",
    store,
    "--limit",
    String(LIMIT),
    "--concurrency",
    "16",
    ...extra,
  ];
}

/**
 * The run's trial records, without what differs from one server to another: usage and timing, and
 * the run id and trial keys (the server's port is in the agent's identity).
 */
function records(file: string): string[] {
  const s = Store.open(file, { create: false, readonly: true });
  try {
    const id = s.listRuns()[0]!.id;
    return [...trialRecords(s, id)]
      .map((r) => JSON.stringify({ ...r, usage: undefined, run: undefined, trialKey: undefined }))
      .sort();
  } finally {
    s.close();
  }
}

interface SharedStore {
  name: string;
  /** A new, empty store's location. */
  fresh(dir: string, name: string): Promise<string>;
  /** Trials stored so far (by other processes). */
  stored(location: string): Promise<number>;
}

const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(drops.map((d) => d()));
});

const STORES: SharedStore[] = [
  {
    name: "SQLite",
    fresh: async (dir, name) => path.join(dir, `${name}.db`),
    stored: async (file) => storedTrials(file),
  },
  ...(hasPostgres()
    ? [
        {
          name: "PostgreSQL",
          fresh: async () => {
            const db = await freshDatabase();
            drops.push(db.drop);
            return db.url;
          },
          stored: storedTrialsPg,
        },
      ]
    : []),
];

describe.each(STORES)("several runners, one run, on a $name store", (kind) => {
  it("four processes on one store make each model call once and store what one process alone does", async () => {
    const dir = tempDir();
    const alone = await startSimServer();
    const shared = await startSimServer({ latencyMs: 200 });
    try {
      const ref = await runCli(args(alone.url, path.join(dir, "alone.db")));
      expect(ref.code).toBe(0);
      const requests = alone.stats().requests;
      expect(requests).toBeGreaterThanOrEqual(LIMIT);

      const store = await kind.fresh(dir, "shared");
      const four = await Promise.all(Array.from({ length: 4 }, () => runCli(args(shared.url, store))));
      for (const r of four) expect(r.code, r.stderr).toBe(0);
      // Each model call once, among all four.
      expect(shared.stats().requests).toBe(requests);
      // Each summary: what this process stored, what the others did, and nothing before.
      const mine = four.map((r) => {
        const m =
          /: 600 of [\d,]+ trials stored \(([\d,]+) this time(?:, ([\d,]+) by (\d+) other runners? of the same run)?, 0 before\)/.exec(
            r.stdout,
          );
        expect(m, r.stdout).not.toBeNull();
        const own = Number(m![1]!.replace(/,/g, ""));
        const others = Number((m![2] ?? "0").replace(/,/g, ""));
        if (own < LIMIT) expect(others).toBe(LIMIT - own);
        return own;
      });
      expect(mine.reduce((a, b) => a + b, 0)).toBe(LIMIT);
      expect(mine.filter((n) => n > 0).length).toBeGreaterThan(1);
      expect(records(store)).toEqual(records(path.join(dir, "alone.db")));
    } finally {
      await alone.close();
      await shared.close();
    }
  });

  it("a runner killed mid-run: its leases run out, and the next runner finishes the run", async () => {
    const dir = tempDir();
    const server = await startSimServer({ latencyMs: 200 });
    try {
      const store = await kind.fresh(dir, "k");
      const lease = ["--lease-ms", "1500"];
      const killed = await new Promise<NodeJS.Signals | null>((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, ...args(server.url, store, lease)], {
          cwd: REPO_ROOT,
          stdio: "ignore",
        });
        child.on("error", reject);
        child.on("close", (_code, signal) => resolve(signal));
        const deadline = Date.now() + 300_000;
        const poll = async () => {
          if ((await kind.stored(store)) >= 64 || Date.now() > deadline) child.kill("SIGKILL");
          else setTimeout(poll, 20);
        };
        void poll();
      });
      expect(killed).toBe("SIGKILL");
      const before = await kind.stored(store);
      expect(before).toBeGreaterThan(0);
      expect(before).toBeLessThan(LIMIT);
      const sentBefore = server.stats().requests;

      const next = await runCli(args(server.url, store, lease));
      expect(next.code, next.stderr).toBe(0);
      expect(next.stdout).toMatch(
        new RegExp(`: 600 of [\\d,]+ trials stored \\(${LIMIT - before} this time, ${before} before\\)`),
      );
      expect(await kind.stored(store)).toBe(LIMIT);
      // Only the trials the kill cut short were asked again (at most the killed runner's 16 in flight).
      expect(server.stats().requests - sentBefore).toBeLessThanOrEqual(LIMIT - before + 16);
    } finally {
      await server.close();
    }
  });
});
