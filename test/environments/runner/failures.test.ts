/**
 * Failed is not a non-response: an agent that cannot act for a reason outside its answer leaves a
 * failed trial (missing data, kept apart, in no record or estimate), which the same run re-runs; a
 * configuration failure stops the run, keeping what finished.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveChoiceAgent } from "../../../agents/registry.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../../../environments/choice/design.ts";
import { choiceEnvironment } from "../../../environments/choice/environment.ts";
import { SHOPPER } from "../../../environments/choice/machine.ts";
import { BazaarBug, isBazaarBug } from "../../../environments/kernel/errors.ts";
import { AgentFailure } from "../../../environments/kernel/failures.ts";
import type { Acted, Agent, AgentEntry, Observation } from "../../../environments/kernel/types.ts";
import { executeRun, RunStopped } from "../../../environments/runner/execute.ts";
import { planRun } from "../../../environments/runner/plan.ts";
import { trialRecords } from "../../../environments/runner/records.ts";
import { Store } from "../../../environments/store/index.ts";
import { tempDir } from "../../helpers/cli.ts";

const design = { pairs: 40, pairAppearances: 1, triples: 0, fives: 0, seed: 5 };
const tasks = buildChoiceTasks(design, DEFAULT_HOTEL_POOL);

/** The sim:steep shopper, except that the trials `fails` picks throw `failure` instead of answering. */
function flaky(
  fails: (trialKey: string) => boolean,
  failure: () => Error,
  errorsAreBugs = false,
): AgentEntry {
  const steep = resolveChoiceAgent("sim:steep");
  const inner = steep.players[SHOPPER]!;
  const agent: Agent<unknown, unknown> = {
    id: "flaky",
    errorsAreBugs,
    act(o: Observation<unknown>, ctx): Acted<unknown> | Promise<Acted<unknown>> {
      if (fails(ctx.trialKey)) throw failure();
      return inner.act(o, ctx);
    },
  };
  return { label: "sim:steep", identity: steep.identity, players: { [SHOPPER]: agent } };
}

function planWith(entry: AgentEntry) {
  return planRun({
    env: choiceEnvironment,
    settings: { maxReasks: 0 },
    tasks,
    agents: [entry],
    replicates: 1,
    design,
  });
}

function store(): Store {
  return Store.open(path.join(tempDir(), "f.db"), { create: true });
}

describe("infrastructure failures", () => {
  it("are stored as failed, kept out of the records, and run again by the same run", async () => {
    const s = store();
    const down = new Set<string>();
    let pick = 0;
    const p = planWith(
      flaky(
        (k) => {
          if (down.has(k)) return true;
          if (pick++ % 7 === 3) down.add(k); // about one trial in seven fails, the same ones every time
          return down.has(k);
        },
        () => new AgentFailure("infrastructure", "sim: HTTP 500: overloaded (after 6 attempts)"),
      ),
    );
    const first = await executeRun(p, s, { concurrency: 4 });
    expect(first.failedNow).toBeGreaterThan(0);
    expect(first.failed).toBe(first.failedNow);
    expect(first.stored + first.failedNow).toBe(tasks.length);
    expect(first.nonResponsesNow).toBe(0); // a failure is not a non-response
    const records = [...trialRecords(s, p.runId)];
    expect(records).toHaveLength(first.stored);
    expect(s.getRun(p.runId)).toMatchObject({ done: first.stored, failed: first.failedNow, nonResponses: 0 });
    const failed = s.failedTrials(p.runId);
    expect(failed.map((f) => f.failure)).toEqual(
      Array.from({ length: first.failedNow }, () => ({
        kind: "infrastructure",
        message: "sim: HTTP 500: overloaded (after 6 attempts)",
      })),
    );

    // Still down: the same trials fail again, nothing is stored twice.
    const again = await executeRun(p, s, { concurrency: 2 });
    expect(again.ranNow).toBe(0);
    expect(again.failedNow).toBe(first.failedNow);
    expect(again.failed).toBe(first.failedNow);

    // The provider recovers: the same run runs exactly the failed trials, and nothing is failed after.
    down.clear();
    pick = 1; // no new failures
    const healed = planWith(
      flaky(
        () => false,
        () => new Error("unused"),
      ),
    );
    expect(healed.runId).toBe(p.runId);
    const third = await executeRun(healed, s, { concurrency: 3 });
    expect(third.ranNow).toBe(first.failedNow);
    expect(third.failed).toBe(0);
    expect(s.getRun(p.runId)).toMatchObject({ done: tasks.length, failed: 0 });
    expect(new Set(failed.map((f) => f.seq)).size).toBe(failed.length);
    s.close();
  });
});

describe("configuration failures", () => {
  it("stop the run: what finished is kept, the same run resumes once it is fixed", async () => {
    const s = store();
    let calls = 0;
    const p = planWith(
      flaky(
        () => ++calls > 25,
        () =>
          new AgentFailure(
            "configuration",
            "http://x/v1 rejected the API key for m (HTTP 401: bad key)",
            "set OPENAI_API_KEY",
          ),
      ),
    );
    let stopped: unknown;
    try {
      // One trial at a time, so exactly the first 25 finish.
      await executeRun(p, s, { concurrency: 1 });
    } catch (err) {
      stopped = err;
    }
    expect(stopped).toBeInstanceOf(RunStopped);
    const e = stopped as RunStopped;
    expect(e.message).toBe("http://x/v1 rejected the API key for m (HTTP 401: bad key)");
    expect(e.hint).toMatch(
      /^set OPENAI_API_KEY; the run stopped with 25 of 80 trials stored — run the same command again/,
    );
    expect(s.getRun(p.runId)).toMatchObject({ done: 25, failed: 0 });

    const fixed = planWith(
      flaky(
        () => false,
        () => new Error("unused"),
      ),
    );
    const resumed = await executeRun(fixed, s, { concurrency: 4 });
    expect(resumed.ranNow).toBe(55);
    expect(resumed.stored).toBe(80);
    s.close();
  });
});

describe("the failed-trials table", () => {
  it("never displaces a finished trial, and counts failed turns' usage in the run's cost", () => {
    const s = store();
    s.ensureRun({ id: "r", env: "choice", config: {}, total: 3 }, [{ taskId: "t" }]);
    const usage = {
      calls: 2,
      cacheHits: 0,
      inputTokens: 10,
      outputTokens: 3,
      reasoningTokens: 0,
      latencyMs: 5,
    };
    const failed = (seq: number) => ({
      runId: "r",
      seq,
      trialKey: `k${seq}`,
      agent: "a",
      taskIndex: 0,
      replicate: 0,
      failure: { kind: "infrastructure" as const, message: "down" },
      turns: 1,
      usage,
    });
    const done = (seq: number) => ({
      runId: "r",
      seq,
      trialKey: `k${seq}`,
      agent: "a",
      taskIndex: 0,
      replicate: 0,
      nonResponse: false,
      agentError: false,
      resultJson: JSON.stringify({ outcome: {}, usage: { ...usage, calls: 1 } }),
    });
    s.writeTrials([done(0)], [failed(1), failed(2)]);
    expect(s.failedCount("r")).toBe(2);
    s.writeTrials([], [failed(0)]); // a late failure report for a finished trial: ignored
    expect(s.failedTrials("r").map((f) => f.seq)).toEqual([1, 2]);
    s.writeTrials([done(1)]);
    expect(s.failedTrials("r").map((f) => f.seq)).toEqual([2]);
    expect(s.getRun("r")).toMatchObject({ done: 2, failed: 1 });
    expect(s.usageByAgent("r")).toEqual([
      {
        agent: "a",
        trials: 2,
        usage: { ...usage, calls: 4, inputTokens: 30, outputTokens: 9, latencyMs: 15 },
      },
    ]);
    s.close();
  });
});

describe("bazaar's own bug", () => {
  it("stops the run with the error, stores the trial neither as answered nor as failed, and the same run plays it once fixed", async () => {
    const s = store();
    let fixed = false;
    let calls = 0;
    // The tenth trial's agent hits a bug of bazaar's own (say, a TypeError in the model call).
    const p = planWith(
      flaky(
        () => !fixed && ++calls === 10,
        () => new BazaarBug("a bug in bazaar, not m's answer: TypeError: x is undefined"),
      ),
    );
    const err = await executeRun(p, s, { concurrency: 1 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isBazaarBug(err)).toBe(true);
    const stored = [...trialRecords(s, p.runId)];
    expect(stored.length).toBe(9); // the trials before it; none after it was started
    expect(s.failedTrials(p.runId)).toEqual([]);
    expect(stored.every((r) => (r as { nonResponse: unknown }).nonResponse === null)).toBe(true);
    fixed = true;
    const again = await executeRun(p, s, { concurrency: 1 });
    expect(again).toMatchObject({
      stored: tasks.length,
      ranNow: tasks.length - 9,
      failed: 0,
      nonResponsesNow: 0,
    });
    s.close();
  });

  it("a simulated policy's error (a TypeError in its code) is bazaar's bug, said so; an outside agent's stays its non-response", async () => {
    // The shipped sims say so of themselves.
    expect(resolveChoiceAgent("sim:steep").players[SHOPPER]!.errorsAreBugs).toBe(true);
    const fourth = () => {
      let n = 0;
      return () => ++n === 4;
    };
    const typeError = () => new TypeError("Cannot read properties of undefined (reading 'price')");
    const sim = planWith(flaky(fourth(), typeError, true));
    const s = store();
    const err = await executeRun(sim, s, { concurrency: 1 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isBazaarBug(err)).toBe(true);
    expect((err as Error).message).toMatch(
      /^a bug in bazaar, not flaky's answer: TypeError: Cannot read properties of undefined \(reading 'price'\)/,
    );
    expect(
      [...trialRecords(s, sim.runId)].every((r) => (r as { nonResponse: unknown }).nonResponse === null),
    ).toBe(true);
    s.close();
    // The same error from an agent that is not bazaar's (exec:, module:, MCP): its answer, a non-response.
    const outside = planWith(flaky(fourth(), typeError, false));
    const s2 = store();
    const r = await executeRun(outside, s2, { concurrency: 1 });
    expect(r.nonResponsesNow).toBe(1);
    s2.close();
  });
});
