/**
 * Two `bazaar run … --until` processes on one run and one store, against serve-sim: through leases
 * they make each model call once (serve-sim counts them), stop at the same look, and store the
 * trials one process alone stores under the same target.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { trialRecords } from "../../environments/runner/records.ts";
import { Store } from "../../environments/store/index.ts";
import { runCli, tempDir } from "../helpers/cli.ts";

function args(url: string, store: string): string[] {
  return [
    "run",
    "choice",
    "--agent",
    "openai:sim-steep",
    "--base-url",
    url,
    "--pairs",
    "150",
    "--triples",
    "0",
    "--fives",
    "0",
    "--until",
    "beta-lnp±1.6",
    "--concurrency",
    "8",
    "--store",
    store,
    "--json",
  ];
}

/** The trial records without what differs between stores (usage: a response-cache hit has none). */
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

interface RunJson {
  stored: number;
  ranNow: number;
  until: { agents: { stoppedAt: number | null; trialsStored: number }[] };
}

describe("several runners on one --until run", () => {
  it("make each call once, stop at the same look and store what one runner alone does", async () => {
    const dir = tempDir();
    // One server for both: the agent's identity holds its URL, and the run's unit order its id.
    const server = await startSimServer({ latencyMs: 30 });
    try {
      const ref = await runCli(args(server.url, path.join(dir, "alone.db")));
      expect(ref.code, ref.stderr).toBe(0);
      const one = JSON.parse(ref.stdout) as RunJson;
      expect(one.until.agents[0]!.stoppedAt).not.toBeNull();
      const aloneRequests = server.stats().requests;
      const store = path.join(dir, "shared.db");
      const two = await Promise.all([runCli(args(server.url, store)), runCli(args(server.url, store))]);
      const results = two.map((r) => {
        expect(r.code, r.stderr).toBe(0);
        return JSON.parse(r.stdout) as RunJson;
      });
      // Each call once between the two (each store has its own response cache).
      expect(server.stats().requests - aloneRequests).toBe(aloneRequests);
      for (const r of results) {
        expect(r.stored).toBe(one.stored);
        expect(r.until.agents[0]!.stoppedAt).toBe(one.until.agents[0]!.stoppedAt);
      }
      // Both did part of the work.
      expect(results.every((r) => r.ranNow > 0)).toBe(true);
      expect(results[0]!.ranNow + results[1]!.ranNow).toBe(one.stored);
      expect(records(store)).toEqual(records(path.join(dir, "alone.db")));
    } finally {
      await server.close();
    }
  });
});
