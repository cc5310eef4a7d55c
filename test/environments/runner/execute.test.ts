import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveChoiceAgent } from "../../../agents/registry.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../../../environments/choice/design.ts";
import { choiceEnvironment } from "../../../environments/choice/environment.ts";
import { executeRun } from "../../../environments/runner/execute.ts";
import { planRun } from "../../../environments/runner/plan.ts";
import { trialRecords } from "../../../environments/runner/records.ts";
import { Store } from "../../../environments/store/index.ts";
import { tempDir } from "../../helpers/cli.ts";

const design = { pairs: 30, triples: 12, fives: 4, seed: 9 };

function plan(agents = ["sim:steep", "sim:noisy"], replicates = 2) {
  return planRun({
    env: choiceEnvironment,
    settings: { maxReasks: 1 },
    tasks: buildChoiceTasks(design, DEFAULT_HOTEL_POOL),
    agents: agents.map((a) => resolveChoiceAgent(a)),
    replicates,
    design,
  });
}

function records(store: Store, runId: string) {
  return [...trialRecords(store, runId)];
}

describe("executeRun", () => {
  it("runs design × agents × replicates with stable, unique trial keys", async () => {
    const p = plan();
    const store = Store.open(path.join(tempDir(), "a.db"), { create: true });
    const result = await executeRun(p, store, { concurrency: 4 });
    expect(result).toMatchObject({ stored: p.total, ranNow: p.total, interrupted: false });
    const recs = records(store, p.runId);
    expect(recs).toHaveLength(p.total);
    expect(new Set(recs.map((r) => r.trialKey)).size).toBe(p.total);
    expect(p.total).toBe(buildChoiceTasks(design, DEFAULT_HOTEL_POOL).length * 2 * 2);
    store.close();
  });

  it("gives the same run id and the same trials in another process-independent plan", () => {
    expect(plan().runId).toBe(plan().runId);
    expect(plan(["sim:steep"]).runId).not.toBe(plan().runId);
  });

  it("resumes a partial run to exactly the uninterrupted result, whatever the concurrency", async () => {
    const p = plan();
    const full = Store.open(path.join(tempDir(), "full.db"), { create: true });
    await executeRun(p, full, { concurrency: 1 });
    const partial = Store.open(path.join(tempDir(), "partial.db"), { create: true });
    const first = await executeRun(p, partial, { concurrency: 3, limit: 101 });
    expect(first.stored).toBe(101);
    const second = await executeRun(p, partial, { concurrency: 7 });
    expect(second.ranNow).toBe(p.total - 101);
    expect(records(partial, p.runId)).toEqual(records(full, p.runId));
    const third = await executeRun(p, partial, { concurrency: 2 });
    expect(third.ranNow).toBe(0);
    full.close();
    partial.close();
  });

  it("stops at an abort, keeps what finished, and the rerun completes the run", async () => {
    const p = plan(["sim:steep"], 20);
    const store = Store.open(path.join(tempDir(), "abort.db"), { create: true });
    const controller = new AbortController();
    const result = await executeRun(p, store, {
      concurrency: 4,
      signal: controller.signal,
      batchSize: 50,
      onProgress: (pr) => {
        if (pr.stored >= 200) controller.abort();
      },
    });
    expect(result.interrupted).toBe(true);
    expect(result.stored).toBeGreaterThanOrEqual(200);
    expect(result.stored).toBeLessThan(p.total);
    const rest = await executeRun(p, store, { concurrency: 4 });
    expect(rest.stored).toBe(p.total);
    expect(rest.ranNow).toBe(p.total - result.stored);
    store.close();
  });
});
