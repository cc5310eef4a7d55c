/**
 * Endpoint pools from the CLI: `--base-url a,b,c` against three serve-sim replicas of one model
 * (the same seed: the same answers, as replicas of one snapshot).
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import type { SimServer, SimServerOptions } from "../../agents/serve-sim/types.ts";
import { Store } from "../../environments/store/index.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";

const servers: SimServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close().catch(() => {})));
});

async function replicas(options: SimServerOptions[]): Promise<SimServer[]> {
  const started = await Promise.all(options.map((o) => startSimServer(o)));
  servers.push(...started);
  return started;
}

const dir = tempDir("bazaar-pool-e2e-");
let storeNo = 0;
function run(baseUrl: string, extra: string[] = []) {
  const store = path.join(dir, `s${++storeNo}.db`);
  const args = ["run", "choice", "--agent", "openai:sim-steep", "--base-url", baseUrl, "--store", store];
  return { store, done: runInProcess([...args, "--limit", "300", "--concurrency", "16", ...extra]) };
}

interface RunJson {
  runId: string;
  stored: number;
  ranNow: number;
  failedNow: number;
  failed: number;
}

/** The stored trials, without the run id in them: which trial, what was chosen, what was said. */
function trials(store: string, runId: string): string[] {
  const db = Store.open(store, { create: false, readonly: true });
  try {
    return [...db.trialRows(runId)]
      .map((r) => {
        // Everything the trial stored but its timings.
        const { usage: _, ...rest } = r.result as { usage: unknown };
        return JSON.stringify([r.seq, r.task, rest]);
      })
      .sort();
  } finally {
    db.close();
  }
}

async function until(cond: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("bazaar run --base-url a,b,c: an endpoint pool", () => {
  it("spreads the requests over every replica and stores the trials one server would", async () => {
    const [one] = await replicas([{ latencyMs: 0 }]);
    const single = run(one!.url, ["--json"]);
    const s = await single.done;
    expect(s.code, s.err).toBe(0);
    const singleRun = JSON.parse(s.out) as RunJson;
    const alone = trials(single.store, singleRun.runId);
    for (const workers of ["0", "2"]) {
      const pool = await replicas([{ latencyMs: 20 }, { latencyMs: 20 }, { latencyMs: 20 }]);
      const pooled = run(pool.map((s) => s.url).join(","), ["--json", "--workers", workers]);
      const r = await pooled.done;
      expect(r.code, r.err).toBe(0);
      const result = JSON.parse(r.out) as RunJson;
      expect(result).toMatchObject({ stored: 300, ranNow: 300, failed: 0 });
      const counts = pool.map((s) => s.stats().requests);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(300);
      // Fewest in flight first: each replica takes a fair share (a third is 100).
      for (const c of counts)
        expect(c, `requests per replica ${counts} (workers ${workers})`).toBeGreaterThan(50);
      const stored = trials(pooled.store, result.runId);
      expect(stored).toHaveLength(300);
      expect(stored).toEqual(alone);
    }
  });

  it("takes out a replica that answers 500 to everything: the run completes with no failed trial", async () => {
    const pool = await replicas([{}, {}, { faults: { rate500: 1 } }]);
    const r = await run(pool.map((s) => s.url).join(",")).done;
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/: 300 of [\d,]+ trials stored \(300 this time/);
    expect(r.out).not.toMatch(/^failed:/m);
    const bad = pool[2]!;
    // Its breaker opened once (8 failures in a row) and kept it out for the 30 s cooldown.
    expect(bad.stats().byOutcome["500"]).toBeGreaterThanOrEqual(8);
    expect(r.out).toContain(
      `replica ${bad.url} (sim-steep): ${bad.stats().requests} requests, ${bad.stats().requests} failed, taken out 1 time (out now)`,
    );
    for (const good of pool.slice(0, 2))
      expect(r.out).toMatch(
        new RegExp(`replica ${good.url} \\(sim-steep\\): [\\d,]+ requests, 0 failed, taken out 0 times\\n`),
      );
    expect(pool[0]!.stats().byOutcome.ok + pool[1]!.stats().byOutcome.ok).toBe(300);
  });

  it("a replica stopped mid-run: the others finish it, no trial fails", async () => {
    const pool = await replicas([{ latencyMs: 20 }, { latencyMs: 20 }, { latencyMs: 20 }]);
    const going = run(pool.map((s) => s.url).join(","), ["--json"]);
    const victim = pool[1]!;
    await until(() => victim.stats().requests >= 20);
    await victim.close();
    const r = await going.done;
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out) as RunJson).toMatchObject({ stored: 300, ranNow: 300, failed: 0, failedNow: 0 });
    expect(victim.stats().requests).toBeLessThan(300);
  });

  it("preflight names a replica that does not answer; --batch with a pool is refused", async () => {
    const pool = await replicas([{}, {}]);
    const gone = pool[1]!;
    await gone.close();
    const r = await run(pool.map((s) => s.url).join(",")).done;
    expect(r.code).toBe(2);
    expect(r.err).toContain(`the endpoint ${gone.url} does not answer`);
    expect(pool[0]!.stats().requests).toBe(0);
    const b = await run(`${pool[0]!.url},${gone.url}`, ["--batch"]).done;
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/--batch sends to one endpoint; give one --base-url/);
  });
});
