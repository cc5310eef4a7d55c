/**
 * A run's `--until` made into the runner's stopping rule: the design's units, which tasks are played
 * (those informing a target), and after each block, per agent, the targets' trackers fed the block's
 * stored trials — the agent stops once every target's interval is as tight as asked. The runner
 * knows none of this (it imports no analysis): it gets the rule as callbacks. The live view and the
 * progress line read what the last look found (`live`): the run's trials at most, and each target's
 * half-width against the one asked — made at the look from its estimates, never refitted for a frame.
 */
import { targetHolds } from "../../analysis/stats/sequential.ts";
import {
  type EnvironmentEstimands,
  type EstimandSpec,
  type EstimandTracker,
  type EstimandValue,
  formatHalfWidth,
  type PrecisionTarget,
  shownHalfWidth,
} from "../../analysis/stats/targets.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { coordinates, type RunPlan } from "../../environments/runner/plan.ts";
import { trialRecordsAt } from "../../environments/runner/records.ts";
import type { SequentialResult, StopRule } from "../../environments/runner/sequential.ts";
import type { StoredStopRule } from "../../environments/runner/stop-rules.ts";
import { designUnits, FIRST_LOOK_UNITS, LOOK_GROWTH, lookPoints } from "../../environments/runner/units.ts";
import type { Store } from "../../environments/store/index.ts";
import { targetText, type UntilTargetView, type UntilView } from "../tui/until.ts";
import { estimandsOf, parseTargets } from "./until.ts";

/** A target asks nothing more of the run: its interval is as tight as asked, or it does not apply. */
export function targetDone(value: EstimandValue, halfWidth: number): boolean {
  return value.interval === null ? value.settled === true : targetHolds(value.interval, halfWidth);
}

/** Confidence level of the intervals a target is compared with. */
export const TARGET_LEVEL = 0.95;

export const TARGET_METHOD =
  "fixed-width sequential rule (Anscombe–Chow–Robbins): stop at the first look whose 95% interval is as tight as asked; coverage at the stopping time shown by simulation (README, Precision targets)";

export interface UntilRun {
  targets: PrecisionTarget[];
  specs: EstimandSpec[];
  /** What the run records (stop-rules.ts). */
  stored: StoredStopRule;
  /**
   * The runner's rule over this store: units, what is played, the looks' decisions; `note`, when
   * given, is told one line per look (where each agent looked at stands against its targets).
   */
  rule(store: Store, note?: (line: string) => void): StopRule;
  /** Per agent, per target, its value at the agent's last look (null before any look). */
  lastValues(): (EstimandValue | null)[][];
  /**
   * What the live view and the progress line show of the rule (cli/tui/until.ts): a getter of the
   * view the latest look made (reading it costs nothing). `store` is read once, for the trials of
   * tasks no target draws on that are stored already (they count among the run's stored trials).
   */
  live(store: Store): () => UntilView;
  /** What the run spent against the design, per agent: the run summary's lines. */
  summaryLines(result: SequentialResult): string[];
  /** The same, for `--json`. */
  json(result: SequentialResult): unknown;
}

/** The targets of `--until` for a planned run, or null without any; UserError for what cannot be. */
export async function untilRun(plan: RunPlan, values: readonly string[]): Promise<UntilRun | null> {
  if (values.length === 0) return null;
  const catalogue: EnvironmentEstimands = await estimandsOf(plan.env.name);
  const targets = parseTargets(values, catalogue); // never empty: it refuses `--until ''`
  const specs = targets.map((t) => catalogue.estimands.find((e) => e.name === t.estimand)!);
  for (const spec of specs) {
    if (!plan.tasks.some((task) => spec.informs(task)))
      throw new UserError(
        `--until ${spec.name}: no task of this design informs it`,
        spec.requires ?? `${spec.name} is ${spec.description}`,
      );
  }
  const latest: (EstimandValue | null)[][] = plan.agents.map(() => specs.map(() => null));
  const units = designUnits(plan.tasks, catalogue.unitOf);
  const plays = plan.tasks.map((task) => specs.some((s) => s.informs(task)));
  // Where the live views stand (`live`): what the looks so far decided, per agent.
  const points = lookPoints(units.filter((u) => u.some((t) => plays[t])).length);
  const lookCount = points.length;
  const playedTrials = plays.filter(Boolean).length * plan.replicates;
  const outside = plan.agents.map(() => 0);
  const at = {
    looks: 0,
    stored: plan.agents.map(() => 0),
    stoppedAt: plan.agents.map((): number | null => null),
    playing: plan.agents.map(() => true),
  };
  const viewNow = (): UntilView => ({
    written: targets.map((t) => t.written),
    looks: at.looks,
    lookCount,
    // The first look comes after 10 units, or after all of them in a smaller design.
    firstLookUnits: points[0] ?? 0,
    agents: plan.agents.map((agent, i) => ({
      agent: agent.label,
      atMost: outside[i]! + (at.playing[i] ? playedTrials : at.stored[i]!),
      stoppedAt: at.stoppedAt[i]!,
      playing: at.playing[i]!,
      targets: specs.map((spec, j) => targetView(spec, targets[j]!, latest[i]![j]!)),
    })),
  });
  let view = viewNow();
  return {
    targets,
    specs,
    stored: {
      targets: targets.map((t) => ({ estimand: t.estimand, halfWidth: t.halfWidth, written: t.written })),
      level: TARGET_LEVEL,
      method: TARGET_METHOD,
      firstLook: FIRST_LOOK_UNITS,
      lookGrowth: LOOK_GROWTH,
    },
    lastValues: () => latest,
    live(store: Store) {
      const done = store.doneSeqs(plan.runId, plan.total);
      outside.fill(0);
      for (let seq = 0; seq < plan.total; seq++) {
        if (!done[seq]) continue;
        const c = coordinates(plan, seq);
        if (!plays[c.taskIndex]) outside[c.agentIndex]!++;
      }
      view = viewNow();
      return () => view;
    },
    summaryLines: (result) => summaryLinesOf(plan, targets, result),
    json: (result) => ({
      targets: targets.map((t) => t.written),
      looks: result.looks,
      lookCount: result.lookCount,
      agents: plan.agents.map((agent, i) => ({ agent: agent.label, ...result.agents[i]! })),
    }),
    rule(store: Store, note?: (line: string) => void): StopRule {
      const trackers: EstimandTracker[][] = plan.agents.map(() =>
        specs.map((s) => s.tracker(TARGET_LEVEL, plan.tasks.length * plan.replicates, plan.tasks)),
      );
      const lookedAt: number[] = [];
      at.looks = 0;
      at.stored.fill(0);
      at.stoppedAt.fill(null);
      at.playing.fill(true);
      return {
        units,
        orderSeed: plan.runId,
        plays: (t) => plays[t] === true,
        look(agent, seqs, look) {
          const records = seqs.length > 0 ? trialRecordsAt(store, plan.runId, seqs) : [];
          lookedAt.push(agent);
          at.stored[agent]! += records.length;
          let all = true;
          specs.forEach((_, j) => {
            const tracker = trackers[agent]![j]!;
            tracker.add(records);
            const value = tracker.value();
            latest[agent]![j] = value;
            if (!targetDone(value, targets[j]!.halfWidth)) all = false;
          });
          if (all) at.stoppedAt[agent] = look + 1;
          return all;
        },
        onLook(look, of, playing) {
          at.looks = look + 1;
          playing.forEach((p, i) => {
            at.playing[i] = p;
          });
          view = viewNow();
          if (note) note(lookLine(view, lookedAt, look, of));
          lookedAt.length = 0;
        },
      };
    },
  };
}

/** The run summary's lines: what each agent spent against the design, and why it stopped. */
function summaryLinesOf(
  plan: RunPlan,
  targets: readonly PrecisionTarget[],
  result: SequentialResult,
): string[] {
  const n = (x: number) => x.toLocaleString("en-US");
  const pct = (a: number, b: number) => (b > 0 ? ` (${((100 * a) / b).toFixed(1)}%)` : "");
  const width = Math.max(...plan.agents.map((a) => a.label.length));
  const spent = result.agents.reduce((s, a) => s + a.trialsStored, 0);
  const design = result.agents.reduce((s, a) => s + a.designTrials, 0);
  return [
    `stopping rule: ${targets.map((t) => t.written).join(", ")} — ${result.looks} of ${result.lookCount} looks (units in a seeded order, ${FIRST_LOOK_UNITS} before the first look, ${Math.round((LOOK_GROWTH - 1) * 100)}% more at each)`,
    ...plan.agents.map((agent, i) => {
      const a = result.agents[i]!;
      const how =
        a.stoppedAt !== null
          ? `stopped at look ${a.stoppedAt + 1}, its targets met`
          : a.unitsPlayed >= a.units
            ? "played its units out, targets not met"
            : "stopped before its targets held";
      return `  ${agent.label.padEnd(width)}  ${how}: ${n(a.trialsStored)} of its ${n(a.designTrials)} trials in the design${pct(a.trialsStored, a.designTrials)}`;
    }),
    `spent: ${n(spent)} of the design's ${n(design)} trials${pct(spent, design)}`,
  ];
}

/** A target at an agent's last look, as the look line and the live views show it. */
function targetView(spec: EstimandSpec, target: PrecisionTarget, v: EstimandValue | null): UntilTargetView {
  return {
    estimand: spec.name,
    now: v?.interval ? shownHalfWidth(v.interval.halfWidth, spec.unit) : v?.settled ? "n/a" : "–",
    asked: formatHalfWidth(target.halfWidth, spec.unit),
    done: v !== null && targetDone(v, target.halfWidth),
  };
}

/**
 * One look, as a line: each agent looked at, each target's half-width now against the one asked
 * (`beta-lnp ±1.42 → ±1`), and those that stopped — so a long run shows how near its targets are.
 */
function lookLine(view: UntilView, lookedAt: readonly number[], look: number, of: number): string {
  const agents = lookedAt.map((i) => {
    const a = view.agents[i]!;
    const parts = a.targets.map(targetText);
    return `${a.agent}: ${parts.join(", ")}${a.playing ? "" : " (stops here)"}`;
  });
  return `look ${look + 1}/${of}: ${agents.join(" · ")}`;
}
