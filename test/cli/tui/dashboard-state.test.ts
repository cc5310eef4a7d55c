import { beforeAll, describe, expect, it } from "vitest";
import { agentIndexOf } from "../../../cli/tui/live/view.ts";
import type { TrialRecord } from "../../../cli/tui/records/index.ts";
import { DashboardState, trialsPerAgent } from "../../../cli/tui/state/dashboard.ts";
import { coordinates } from "../../../environments/runner/plan.ts";
import { fixtureRun, longBargainRecord } from "./fixtures.ts";

let choice: TrialRecord[] = [];

beforeAll(async () => {
  const r = await fixtureRun("choice", 24, { agent: "sim:steep,sim:locked" });
  choice = r.records;
  r.store.close();
});

function state(opts: { target?: number; stepMs?: number; holdMs?: number; feedPerFrame?: number } = {}) {
  return new DashboardState({
    runId: "choice-x",
    env: "choice",
    target: opts.target ?? 24,
    agents: [
      { agent: "sim:steep", total: 12, storedBefore: 0 },
      { agent: "sim:locked", total: 12, storedBefore: 2 },
    ],
    startedAt: 0,
    costOf: (agent, usage) => (agent === "sim:steep" ? usage.inputTokens / 1e6 : null),
    timing: {
      stepMs: opts.stepMs ?? 100,
      holdMs: opts.holdMs ?? 500,
      feedPerFrame: opts.feedPerFrame ?? 3,
      feedMs: 0,
      watchAfterMs: 300,
    },
  });
}

const agentOf = (r: TrialRecord) => (r.agent === "sim:steep" ? 0 : 1);

describe("agentIndexOf", () => {
  it("is the agent of a trial's coordinates", () => {
    const plan = {
      runId: "r",
      env: { name: "choice" },
      agents: [{ label: "a" }, { label: "b" }, { label: "c" }],
      replicates: 4,
      tasks: [],
    };
    for (let seq = 0; seq < 60; seq++)
      expect(agentIndexOf(plan, { seq } as TrialRecord)).toBe(coordinates(plan, seq).agentIndex);
  });
});

describe("trialsPerAgent", () => {
  it("splits a task-major prefix among agents and replicates", () => {
    expect(trialsPerAgent(10, 2, 1)).toEqual([5, 5]);
    expect(trialsPerAgent(7, 2, 2)).toEqual([4, 3]);
    expect(trialsPerAgent(5, 3, 2)).toEqual([2, 2, 1]);
    expect(trialsPerAgent(0, 2, 3)).toEqual([0, 0]);
  });
});

describe("DashboardState", () => {
  it("counts per agent: done of total, rate, ETA, tokens and cost", () => {
    const s = state();
    for (const r of choice.slice(0, 10))
      s.trial(agentOf(r), { ...r, usage: { ...(r.usage as object), inputTokens: 1000 } });
    s.progress({ stored: 12, elapsedMs: 2000 });
    const v = s.snapshot(2000);
    const steep = v.agents[0]!;
    const locked = v.agents[1]!;
    expect(steep.done + locked.done).toBe(12);
    expect(locked.done).toBe(2 + locked.ranNow);
    expect(steep.trialsPerSecond).toBeCloseTo(steep.ranNow / 2, 9);
    expect(steep.etaSeconds).toBeCloseTo((12 - steep.done) / steep.trialsPerSecond, 9);
    expect(steep.usage.inputTokens).toBe(1000 * steep.ranNow);
    expect(steep.costUsd).toBeCloseTo((1000 * steep.ranNow) / 1e6, 12);
    expect(locked.costUsd).toBeNull();
    expect(v.stored).toBe(12);
    expect(v.trialsPerSecond).toBe(5);
  });

  it("feeds the last few finished episodes per frame and counts the rest in one line", () => {
    const s = state({ feedPerFrame: 3 });
    for (const r of choice.slice(0, 10)) s.trial(agentOf(r), r);
    const v1 = s.snapshot(100);
    expect(v1.feed.map((f) => f.kind)).toEqual(["more", "episode", "episode", "episode"]);
    expect(v1.feed[0]).toMatchObject({ kind: "more", count: 7 });
    expect(v1.feed.slice(1).map((f) => (f.kind === "episode" ? f.summary.seq : -1))).toEqual(
      choice.slice(7, 10).map((r) => r.seq),
    );
    s.trial(agentOf(choice[10]!), choice[10]!);
    const v2 = s.snapshot(200);
    expect(v2.feed).toHaveLength(5);
    expect(v2.feed).not.toBe(v1.feed);
    expect(s.snapshot(300).feed).toHaveLength(5);
  });

  it("keeps only the latest feed lines, with increasing ids, however long the run", () => {
    const s = state({ feedPerFrame: 1, target: 10_000 });
    for (let i = 0; i < 200; i++) {
      s.trial(0, choice[i % choice.length]!);
      s.snapshot(i);
    }
    const feed = s.snapshot(200).feed;
    expect(feed.length).toBeLessThanOrEqual(64);
    expect(feed.at(-1)?.id).toBe(199);
    expect(feed.every((f, i) => i === 0 || f.id === feed[i - 1]!.id + 1)).toBe(true);
  });

  it("plays the featured episode turn by turn, holds it, then shows the latest", () => {
    const s = new DashboardState({
      runId: "b",
      env: "bargain",
      target: 2,
      agents: [{ agent: "og-narrator vs rule:boulware", total: 2, storedBefore: 0 }],
      startedAt: 0,
      timing: { stepMs: 100, holdMs: 500, feedPerFrame: 4, feedMs: 0, watchAfterMs: 300 },
    });
    const long = longBargainRecord(5, 0);
    s.trial(0, long);
    expect(s.snapshot(0).featured).toMatchObject({ step: 0, paused: false });
    expect(s.snapshot(250).featured!.step).toBe(3);
    const steps = s.snapshot(0).featured!.model.steps;
    expect(s.snapshot(5000).featured!.step).toBe(steps);
    s.trial(0, longBargainRecord(3, 1));
    expect(s.snapshot(5100).featured!.model.seq).toBe(0); // still holding
    expect(s.snapshot(5600).featured!.model.seq).toBe(1);
  });

  it("pauses, steps and jumps to the latest on command", () => {
    const s = new DashboardState({
      runId: "b",
      env: "bargain",
      target: 2,
      agents: [{ agent: "og-narrator vs rule:boulware", total: 2, storedBefore: 0 }],
      startedAt: 0,
      timing: { stepMs: 100, holdMs: 500, feedPerFrame: 4, feedMs: 0, watchAfterMs: 300 },
    });
    s.trial(0, longBargainRecord(5, 0));
    s.snapshot(0);
    s.togglePause();
    expect(s.snapshot(10_000).featured).toMatchObject({ step: 0, paused: true });
    s.stepFeatured(3);
    expect(s.snapshot(10_000).featured!.step).toBe(3);
    s.stepFeatured(-10);
    expect(s.snapshot(10_000).featured!.step).toBe(0);
    s.trial(0, longBargainRecord(3, 1));
    s.jumpToLatest(10_000);
    expect(s.snapshot(10_000).featured!.model.seq).toBe(1);
  });

  it("keeps errors visible: agent errors, retries by model, and a failed run", () => {
    const s = state();
    const failed = {
      ...choice[0]!,
      chosenSlot: null,
      nonResponse: { reason: "agent error: 503 Service Unavailable", raw: "" },
    };
    s.trial(0, failed);
    s.retry("steep");
    s.retry("sim:locked");
    s.error("model gpt-x paused for 30 s: rate limited");
    s.finish({ stored: 1, elapsedMs: 10, interrupted: false }, "run failed: disk full");
    const v = s.snapshot(20);
    expect(v.agents[0]).toMatchObject({ errors: 1, nonResponses: 1, retries: 1 });
    expect(v.agents[1]!.retries).toBe(1);
    expect(v.errorCount).toBe(3);
    expect(v.errors.at(-1)).toBe("run failed: disk full");
    expect(v.errors[0]).toContain("503");
    expect(v.finished).toEqual({ interrupted: false, failure: "run failed: disk full" });
  });

  it("shows the featured agent's running statistics", () => {
    const s = state();
    for (const r of choice) s.trial(agentOf(r), r);
    const v = s.snapshot(0);
    expect(v.stats?.title).toBe("running choice shares");
    expect(v.stats?.lines.map((l) => l.label)).toContain("first-slot rate");
  });
});

describe("DashboardState feed pacing", () => {
  it("updates the feed at most once per feedMs, and always at the end", () => {
    const s = new DashboardState({
      runId: "c",
      env: "choice",
      target: 24,
      agents: [{ agent: "sim:steep", total: 24, storedBefore: 0 }],
      startedAt: 0,
      timing: { stepMs: 100, holdMs: 500, feedPerFrame: 2, feedMs: 1000, watchAfterMs: 300 },
    });
    s.trial(0, choice[0]!);
    expect(s.snapshot(0).feed).toHaveLength(0);
    s.trial(0, choice[1]!);
    expect(s.snapshot(999).feed).toHaveLength(0);
    expect(s.snapshot(1000).feed).toHaveLength(2);
    s.trial(0, choice[2]!);
    expect(s.snapshot(1500).feed).toHaveLength(2);
    s.finish({ stored: 3, elapsedMs: 1600, interrupted: false });
    expect(s.snapshot(1600).feed).toHaveLength(3);
  });
});
