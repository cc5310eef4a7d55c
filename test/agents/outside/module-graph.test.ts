/**
 * `module:` graphs in process (agents/outside/module-graph.ts): a LangGraph ReAct graph over a
 * scripted `fakeModel()`, handed the shop's tools as LangChain tools, plays whole episodes — each
 * tool call a step of the machine — and its trials are stored like any; a compiled graph exported
 * as it is reads the tools from `configurable.tools`. And the ways a graph goes wrong: it ends before
 * the episode (its own non-answer), it throws (its own error), its provider is down (a failed
 * trial), it sends malformed arguments (an invalid call, judged by the machine as natively).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RULE_PRESETS } from "../../../agents/bargain/presets.ts";
import { type OutsideOptions, outsideResolver } from "../../../agents/outside/registry.ts";
import { planShop } from "../../../cli/run/shop-plan.ts";
import type { Agent } from "../../../environments/kernel/types.ts";
import { executeRun, RunStopped } from "../../../environments/runner/execute.ts";
import type { RunPlan } from "../../../environments/runner/plan.ts";
import { trialRecords } from "../../../environments/runner/records.ts";
import type { ShopTrialRecord } from "../../../environments/shop/index.ts";
import { Store } from "../../../environments/store/index.ts";
import { REPO_ROOT, tempDir } from "../../helpers/cli.ts";

const GRAPHS = "test/fixtures/outside-modules/shop-graph.ts";
const SELLER_GRAPH = "test/fixtures/outside-modules/seller-graph.ts";

function plan(agent: string, tasks = 4, options: Partial<OutsideOptions> = {}): RunPlan {
  return planShop(
    { agent, tasks: String(tasks), replicates: "1" },
    { settings: {}, outside: outsideResolver({ episodeTimeoutMs: 0, cwd: REPO_ROOT, ...options }) },
  );
}

async function run(p: RunPlan) {
  const store = Store.open(path.join(tempDir(), "g.db"), { create: true });
  try {
    const result = await executeRun(p, store, { concurrency: 4 });
    const records = [...trialRecords(store, p.runId)] as unknown as ShopTrialRecord[];
    return { result, records, failed: store.failedTrials(p.runId) };
  } finally {
    store.close();
  }
}

/** The model calls each trial's graph made (the fixture records them). */
const modelCalls = () =>
  (globalThis as { bazaarGraphCalls?: Record<string, string[]> }).bazaarGraphCalls ?? {};

/** Polls `cond` until it holds, failing after `ms`. */
async function until(cond: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The trials (by key) whose graph recorded `what`, among those not seen in `before`. */
function recorded(what: string, before: ReadonlySet<string>): string[] {
  return Object.entries(modelCalls())
    .filter(([k, calls]) => !before.has(k) && calls.includes(what))
    .map(([k]) => k);
}

describe("a LangGraph graph module plays whole episodes through the tools", () => {
  it("searches, views two results at once and books the first; stopped when the episode ends", async () => {
    const { result, records } = await run(plan(`module:${GRAPHS}`, 6));
    expect(result.stored).toBe(6);
    for (const r of records) {
      expect(r.endReason, r.taskId).toBe("booked");
      expect(r.nonResponse).toBeNull();
      expect(r.invalidCalls).toBe(0);
      expect(r.trajectory.map((t) => t.tool)).toEqual(["search", "view", "view", "book"]);
      expect(r.booked!.id).toBe(r.shown[0]!.id);
      expect(r.shown.filter((s) => s.viewed).map((s) => s.id)).toEqual(r.shown.slice(0, 2).map((s) => s.id));
      // The model's three calls, counted with the steps they led to.
      expect(r.usage).toMatchObject({ calls: 3, inputTokens: 300, outputTokens: 30 });
      // The run was aborted with the episode: the model was not asked again after the booking.
      expect(modelCalls()[r.trialKey]).toEqual(["search", "view", "book"]);
    }
  });

  it("an async factory is given the task", async () => {
    const { records } = await run(plan(`module:${GRAPHS}#fromTask`, 2));
    for (const r of records) {
      expect(r.endReason).toBe("booked");
      expect(modelCalls()[r.trialKey]![0]).toBe("task:I need a hotel room in New York for one night.");
    }
  });

  it("a compiled graph exported as it is gets the tools in configurable.tools", async () => {
    const { records } = await run(plan("module:test/fixtures/outside-modules/shop-graph-compiled.ts", 3));
    expect(records).toHaveLength(3);
    for (const r of records) {
      expect(r.endReason).toBe("booked");
      expect(r.trajectory.map((t) => t.tool)).toEqual(["search", "book"]);
    }
  });
});

describe("a graph that goes wrong", () => {
  it("ends before the episode: its own non-answer, quoting its last message", async () => {
    const { records, failed } = await run(plan(`module:${GRAPHS}#quits`, 2));
    expect(failed).toEqual([]);
    for (const r of records) {
      expect(r.endReason).toBe("agent-error");
      expect(r.nonResponse!.reason).toBe(
        'agent error: the graph ended before the episode was over: "I would rather not book anything today."',
      );
    }
  });

  it("throws: its own error, a non-response", async () => {
    const { records, failed } = await run(plan(`module:${GRAPHS}#throws`, 2));
    expect(failed).toEqual([]);
    for (const r of records) {
      expect(r.endReason).toBe("agent-error");
      expect(r.steps).toBe(1);
      expect(r.nonResponse!.reason).toBe("agent error: the graph failed: Error: the planner lost its plan");
    }
  });

  it("its provider is down: a failed trial (infrastructure), not an answer", async () => {
    const { result, records, failed } = await run(plan(`module:${GRAPHS}#overloaded`, 2));
    expect(records).toEqual([]);
    expect(result.failedNow).toBe(2);
    for (const f of failed)
      expect(f.failure).toEqual({
        kind: "infrastructure",
        message: "the graph failed: HTTP 503: 503 Service Unavailable",
      });
  });

  it("sends malformed arguments: the machine refuses them and counts an invalid call, as natively", async () => {
    const { records } = await run(plan(`module:${GRAPHS}#malformed`, 2));
    for (const r of records) {
      expect(r.endReason).toBe("booked");
      expect(r.invalidCalls).toBe(1);
      expect(r.trajectory.map((t) => [t.tool, t.ok])).toEqual([
        ["search", true],
        ["view", false],
        ["book", true],
      ]);
    }
  });
});

describe("a graph factory that returns no graph", () => {
  it("stops the run and says so", async () => {
    const store = Store.open(path.join(tempDir(), "g.db"), { create: true });
    const err = await executeRun(plan(`module:${GRAPHS}#noGraph`, 2), store, { concurrency: 2 }).catch(
      (e: unknown) => e,
    );
    store.close();
    expect(err).toBeInstanceOf(RunStopped);
    expect((err as RunStopped).message).toBe(
      `module ${GRAPHS}: its graph factory returned no graph (an object with invoke, such as a compiled StateGraph)`,
    );
  });
});

describe("a graph's run ends with its episode", () => {
  it("when the run is stopped (Ctrl-C): every graph aborted, nothing stored", async () => {
    const before = new Set(Object.keys(modelCalls()));
    const p = plan(`module:${GRAPHS}#hangs`, 3, { agentVersion: "stopped" });
    const store = Store.open(path.join(tempDir(), "g.db"), { create: true });
    const controller = new AbortController();
    const running = executeRun(p, store, { concurrency: 3, signal: controller.signal });
    await until(() => recorded("waiting", before).length === 3);
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ interrupted: true, stored: 0, failedNow: 0 });
    await until(() => recorded("aborted", before).length === 3);
    store.close();
  });

  it("when the graph is idle past --episode-timeout: a failed trial, and the graph aborted", async () => {
    const before = new Set(Object.keys(modelCalls()));
    const p = plan(`module:${GRAPHS}#hangs`, 2, { agentVersion: "idle", episodeTimeoutMs: 300 });
    const { result, failed } = await run(p);
    expect(result.failedNow).toBe(2);
    for (const f of failed)
      expect(f.failure).toEqual({
        kind: "infrastructure",
        message: "outside agent: no tool call for 0.3 s (--episode-timeout)",
        label: "idle past --episode-timeout (0.3 s)",
      });
    await until(() => recorded("aborted", before).length === 2);
  });
});

describe("a graph module as a shop's seller negotiator", () => {
  it("runs once a negotiation, on its own thread, and answers as rule:boulware natively, task by task", async () => {
    const spec = `module:${SELLER_GRAPH}`;
    const args = {
      agent: "sim:seller-playing-haggler",
      negotiable: "0.6",
      sellerNegotiator: spec,
      tasks: "6",
      replicates: "1",
    };
    const real = outsideResolver({ episodeTimeoutMs: 0, cwd: REPO_ROOT });
    const boulware = RULE_PRESETS.boulware!.make("rule:boulware") as Agent<unknown, unknown>;
    const graph = planShop(args, { settings: {}, outside: real });
    const native = planShop(args, {
      settings: {},
      // The same run with the seller played natively: same identity, same seeds.
      outside: (s, env, role) => {
        const p = real(s, env, role);
        return p && s === spec ? { ...p, agent: boulware } : p;
      },
    });
    const shape = (r: ShopTrialRecord) => ({ task: r.taskId, paid: r.paid, negotiations: r.negotiations });
    const played = await run(graph);
    const natively = await run(native);
    expect(played.records.map(shape)).toEqual(natively.records.map(shape));
    const negotiations = played.records.flatMap((r) =>
      (r.negotiations ?? []).map((n) => ({ key: r.trialKey, id: n.id, deal: n.deal })),
    );
    expect(played.records.some((r) => (r.negotiations ?? []).length >= 2)).toBe(true);
    const runs = () =>
      (globalThis as { bazaarSellerRuns?: { thread: string; codename: string; last: string }[] })
        .bazaarSellerRuns ?? [];
    await until(() => runs().length === negotiations.length);
    // Each negotiation its own run on its own thread (the trial's key and the conversation's).
    expect(new Set(runs().map((r) => r.thread)).size).toBe(negotiations.length);
    for (const n of negotiations) {
      const r = runs().find((x) => x.thread.startsWith(`${n.key}#`) && x.codename === n.id)!;
      expect(r, n.id).toBeDefined();
      expect(r.last).toMatch(
        new RegExp(
          `^The negotiation is over: ${n.deal === null ? "no deal" : `a deal at ${n.deal} US dollars`}`,
        ),
      );
    }
  });
});
