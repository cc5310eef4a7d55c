/**
 * What the live view and the progress line say of a run with precision targets (`--until`): the
 * design's total is only a bound (the rule stops each agent once its targets hold, and plays only
 * the tasks its targets draw on), the ETA is one too, and each target's half-width at the last look
 * stands against the one asked — read from the look the rule made, never refitted for a frame.
 */
import { Writable } from "node:stream";
import { render } from "ink-testing-library";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { resolveChoiceAgent } from "../../../agents/registry.ts";
import { shownHalfWidth } from "../../../analysis/stats/targets.ts";
import { progressText } from "../../../cli/progress.ts";
import { untilRun } from "../../../cli/run/until-rule.ts";
import { Dashboard } from "../../../cli/tui/components/Dashboard.tsx";
import { startRunView } from "../../../cli/tui/live/run-view.ts";
import { DashboardState } from "../../../cli/tui/state/dashboard.ts";
import { type UntilView, untilLookText } from "../../../cli/tui/until.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../../../environments/choice/design.ts";
import { choiceEnvironment } from "../../../environments/choice/environment.ts";
import type { ChoiceTask } from "../../../environments/choice/types.ts";
import { planRun } from "../../../environments/runner/plan.ts";
import { executeSequential } from "../../../environments/runner/sequential.ts";
import { Store } from "../../../environments/store/index.ts";
import { tempDir } from "../../helpers/cli.ts";
import { lines, widest } from "./fixtures.ts";

describe("a run with --until, as the live views show it", () => {
  it("says when the first look comes: after 10 units, or after all of a smaller design's", async () => {
    const design = { pairs: 1, triples: 0, fives: 0, seed: 3 };
    const plan = planRun({
      env: choiceEnvironment,
      settings: { maxReasks: 1 },
      tasks: buildChoiceTasks(design, DEFAULT_HOTEL_POOL),
      agents: [resolveChoiceAgent("sim:steep")],
      replicates: 1,
      design,
    });
    const store = Store.open(`${tempDir()}/until-small.db`, { create: true });
    const view = (await untilRun(plan, ["beta-lnp±2"]))!.live(store)();
    store.close();
    expect(view.lookCount).toBe(1);
    expect(view.firstLookUnits).toBeLessThan(10);
    expect(untilLookText(view)).toBe(`first look after ${view.firstLookUnits} units (of 1 looks)`);
  });

  it("bounds the totals by the tasks its targets draw on, and shows the last look's half-widths", async () => {
    const design = { pairs: 60, triples: 10, fives: 0, seed: 3 };
    const plan = planRun({
      env: choiceEnvironment,
      settings: { maxReasks: 1 },
      tasks: buildChoiceTasks(design, DEFAULT_HOTEL_POOL),
      agents: ["sim:steep", "sim:locked"].map((a) => resolveChoiceAgent(a)),
      replicates: 1,
      design,
    });
    const binary = plan.tasks.filter((t) => (t as ChoiceTask).kind === "binary").length;
    expect(binary).toBeLessThan(plan.tasks.length);
    const until = (await untilRun(plan, ["beta-lnp±2"]))!;
    const store = Store.open(`${tempDir()}/until-view.db`, { create: true });
    const live = until.live(store);
    // Before any look: every binary task of each agent, the ternary ones never (beta-lnp draws on none).
    expect(live().looks).toBe(0);
    expect(live().agents.map((a) => a.atMost)).toEqual([binary, binary]);

    const log: string[] = [];
    const stdout = Object.assign(new Writable({ write: (_c, _e, cb) => cb() }), { isTTY: false });
    const view = await startRunView({
      plan,
      until: live,
      target: plan.total,
      storedByAgent: new Map(),
      stdout: stdout as unknown as NodeJS.WriteStream,
      log: (l) => log.push(l),
      onStop: () => {},
    });
    const seen: UntilView[] = [];
    const result = await executeSequential(
      plan,
      store,
      {
        concurrency: 4,
        onProgress: (p) => {
          view.onProgress(p);
          if (seen.at(-1) !== live()) seen.push(live());
        },
        onTrial: (r) => view.onTrial(r),
      },
      until.rule(store),
    );
    await view.finish(result);
    store.close();

    // One view a look, kept between looks: a frame reads it, nothing is computed again.
    expect(live()).toBe(live());
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.map((v) => v.looks)).toEqual([...seen.map((v) => v.looks)].sort((a, b) => a - b));
    // The half-widths are the rule's own estimates at its last look.
    const last = live();
    expect(last.looks).toBe(result.looks);
    for (const [i, a] of last.agents.entries()) {
      const v = until.lastValues()[i]![0]!;
      expect(a.targets[0]!.now).toBe(v.interval ? shownHalfWidth(v.interval.halfWidth, "plain") : "n/a");
      expect(a.targets[0]!.asked).toBe("±2");
      const stop = result.agents[i]!;
      expect(a.stoppedAt).toBe(stop.stoppedAt === null ? null : stop.stoppedAt + 1);
      // Once it no longer plays, its bound is what it stored.
      expect(a.playing).toBe(false);
      expect(a.atMost).toBe(stop.trialsStored);
    }
    expect(result.agents.some((a) => a.stoppedAt !== null)).toBe(true);

    expect(log[0]).toBe(
      `watching run ${plan.runId} (choice): at most ${(2 * binary).toLocaleString("en-US")} trials (--until beta-lnp±2: each agent stops once its targets hold) · agents sim:steep, sim:locked`,
    );
    const progress = log.filter((l) => l.startsWith("["));
    // While an agent plays: a share of at least, a bound, an ETA of at most, and where the targets stand.
    expect(progress[0]).toMatch(
      /^\[ *≥[\d.]+%\] [\d,]+\/≤[\d,]+ stored · .* · ETA ≤.* · until (first look after 10 units|look \d+\/\d+)/,
    );
    expect(progress.some((l) => / · until look \d+\/\d+ · .*beta-lnp ±[\d.]+ → ±2/.test(l))).toBe(true);
    // At the end the counts are exact: what was stored of what the rule played.
    const stored = result.agents.reduce((s, a) => s + a.trialsStored, 0);
    expect(progress.at(-1)).toMatch(
      new RegExp(`^\\[100\\.0%\\] ${stored}/${stored} stored · .* · ETA 0s · `),
    );
    expect(log).toContainEqual(expect.stringMatching(/^sim:steep: [\d,]+\/[\d,]+ · /));
  });
});

/** A rule's view mid-run: one agent playing at look 12 of 37, or stopped. */
function ruleView(
  agents: { agent: string; stoppedAt: number | null; now: string; atMost: number }[],
): UntilView {
  return {
    written: ["beta-lnp±1.0"],
    looks: 12,
    lookCount: 37,
    firstLookUnits: 10,
    agents: agents.map((a) => ({
      ...a,
      playing: a.stoppedAt === null,
      targets: [{ estimand: "beta-lnp", now: a.now, asked: "±1", done: a.stoppedAt !== null }],
    })),
  };
}

/** One agent's dashboard, `ran` trials run now (after `before` stored), ten seconds in. */
function dashboardWith(until: () => UntilView, before: number, ran: number, total = 8_700) {
  const s = new DashboardState({
    runId: "choice-16e0e5970a",
    env: "choice",
    target: total,
    agents: [{ agent: "sim:steep", total, storedBefore: before }],
    startedAt: 0,
    until,
  });
  for (let i = 0; i < ran; i++) s.trial(0, { seq: i, agent: "sim:steep" } as never);
  s.progress({ stored: before + ran, elapsedMs: 10_000 });
  return s;
}

describe("the dashboard and the progress line with a stopping rule", () => {
  it("say the total and the ETA are at most, and the target against the half-width now, within the width", () => {
    const u = ruleView([{ agent: "sim:steep", stoppedAt: null, now: "±1.42", atMost: 3_600 }]);
    const v = dashboardWith(() => u, 0, 300).snapshot(10_000);
    expect(v.target).toBe(3_600);
    expect(v.bounded).toBe(true);
    // 3,300 left at 30 a second.
    expect(v.etaSeconds).toBeCloseTo(110, 5);
    for (const width of [99, 139]) {
      const f = render(createElement(Dashboard, { view: v, width, episodeHeight: 0 })).lastFrame();
      expect(widest(f)).toBeLessThanOrEqual(width);
      const text = lines(f).join("\n");
      expect(text).toContain("300/≤3,600 stored · 30 trials/s · ETA ≤1m50s");
      expect(text).toMatch(/sim:steep +█*░+ 300\/≤3,600 · 30\/s · ETA ≤1m50s/);
      expect(text).toContain("until beta-lnp±1.0 · look 12/37 · beta-lnp ±1.42 → ±1 · stops once it holds");
    }
    expect(
      lines(render(createElement(Dashboard, { view: v, width: 139, episodeHeight: 0 })).lastFrame()),
    ).toContainEqual(expect.stringContaining("(≤ 3,600 trials)"));

    // Stopped: the counts are exact, and the view says where it stopped.
    const done = ruleView([{ agent: "sim:steep", stoppedAt: 29, now: "±0.939", atMost: 1_302 }]);
    const w = dashboardWith(() => done, 1_302, 0).snapshot(10_000);
    expect([w.target, w.bounded, w.etaSeconds]).toEqual([1_302, false, 0]);
    const f = lines(render(createElement(Dashboard, { view: w, width: 99, episodeHeight: 0 })).lastFrame());
    expect(f[0]).toContain("1,302/1,302 stored");
    expect(f[1]).toBe("until beta-lnp±1.0 · look 12/37 · beta-lnp ±0.939 → ±1 ✓ · stopped at look 29");

    // Without a rule, nothing changes.
    const plain = new DashboardState({
      runId: "r",
      env: "choice",
      target: 8_700,
      agents: [{ agent: "sim:steep", total: 8_700, storedBefore: 300 }],
      startedAt: 0,
    });
    const p = plain.snapshot(10_000);
    expect([p.target, p.bounded, p.until]).toEqual([8_700, false, null]);
  });

  it("a progress line keeps the targets before what a narrow terminal cuts, and never wraps", () => {
    const u = ruleView([
      { agent: "sim:steep", stoppedAt: null, now: "±1.42", atMost: 3_600 },
      { agent: "sim:locked", stoppedAt: 5, now: "n/a", atMost: 40 },
    ]);
    const p = {
      runId: "r",
      stored: 340,
      target: 17_400,
      ranNow: 340,
      nonResponsesNow: 0,
      cutAtCapNow: 0,
      failedNow: 0,
      elapsedMs: 10_000,
    };
    const wide = progressText(p, u);
    expect(wide).toMatch(
      /^█+░+ 340\/≤3,640 trials · ETA ≤1m37s · look 12\/37 · 1 of 2 agents done · sim:steep beta-lnp ±1.42 → ±1 · 34 trials\/s · 0 non-responses$/,
    );
    for (const columns of [80, 100, 140]) {
      const line = progressText(p, u, columns);
      expect([...line].length).toBeLessThanOrEqual(columns - 1);
      expect(line).toContain("340/≤3,640 trials · ETA ≤1m37s · look 12/37");
    }
    expect(progressText(p, null, 140)).toMatch(
      / 340\/17,400 trials · 34 trials\/s · 0 non-responses · ETA 8m22s$/,
    );
  });
});
