/**
 * A run's `--until` made into the runner's stopping rule: the design's units, which tasks are played
 * (those informing a target), and after each block, per agent, the targets' trackers fed the block's
 * stored trials — the agent stops once every target's interval is as tight as asked. The runner
 * knows none of this (it imports no analysis): it gets the rule as callbacks.
 */
import { targetHolds } from "../../analysis/stats/sequential.ts";
import {
  type EnvironmentEstimands,
  type EstimandSpec,
  type EstimandTracker,
  type EstimandValue,
  formatHalfWidth,
  type PrecisionTarget,
} from "../../analysis/stats/targets.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import type { RunPlan } from "../../environments/runner/plan.ts";
import { trialRecordsAt } from "../../environments/runner/records.ts";
import type { SequentialResult, StopRule } from "../../environments/runner/sequential.ts";
import type { StoredStopRule } from "../../environments/runner/stop-rules.ts";
import { designUnits, FIRST_LOOK_UNITS, LOOK_GROWTH } from "../../environments/runner/units.ts";
import type { Store } from "../../environments/store/index.ts";
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
  /** What the run spent against the design, per agent: the run summary's lines. */
  summaryLines(result: SequentialResult): string[];
  /** The same, for `--json`. */
  json(result: SequentialResult): unknown;
}

/** The targets of `--until` for a planned run, or null without any; UserError for what cannot be. */
export async function untilRun(plan: RunPlan, values: readonly string[]): Promise<UntilRun | null> {
  if (values.length === 0) return null;
  const catalogue: EnvironmentEstimands = await estimandsOf(plan.env.name);
  const targets = parseTargets(values, catalogue);
  if (targets.length === 0) return null;
  const specs = targets.map((t) => catalogue.estimands.find((e) => e.name === t.estimand)!);
  for (const spec of specs) {
    if (!plan.tasks.some((task) => spec.informs(task)))
      throw new UserError(
        `--until ${spec.name}: no task of this design informs it`,
        spec.requires ?? `${spec.name} is ${spec.description}`,
      );
  }
  const latest: (EstimandValue | null)[][] = plan.agents.map(() => specs.map(() => null));
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
      const plays = plan.tasks.map((task) => specs.some((s) => s.informs(task)));
      const lookedAt: number[] = [];
      return {
        units: designUnits(plan.tasks, catalogue.unitOf),
        orderSeed: plan.runId,
        plays: (t) => plays[t] === true,
        look(agent, seqs) {
          const records = seqs.length > 0 ? trialRecordsAt(store, plan.runId, seqs) : [];
          lookedAt.push(agent);
          let all = true;
          specs.forEach((_, j) => {
            const tracker = trackers[agent]![j]!;
            tracker.add(records);
            const value = tracker.value();
            latest[agent]![j] = value;
            if (!targetDone(value, targets[j]!.halfWidth)) all = false;
          });
          return all;
        },
        onLook(look, of, playing) {
          if (note) note(lookLine(plan, specs, targets, latest, lookedAt, playing, look, of));
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

/** A half-width as a look line shows it: 3 figures (±1.42, ±4.4pts, ±$12.30). */
function shownHalfWidth(x: number, unit: EstimandSpec["unit"]): string {
  if (unit === "pts") return `±${(100 * x).toFixed(1)}pts`;
  if (unit === "usd") return `±$${x.toFixed(2)}`;
  return `±${Number(x.toPrecision(3))}`;
}

/**
 * One look, as a line: each agent looked at, each target's half-width now against the one asked
 * (`beta-lnp ±1.42 → ±1`), and those that stopped — so a long run shows how near its targets are.
 */
function lookLine(
  plan: RunPlan,
  specs: readonly EstimandSpec[],
  targets: readonly PrecisionTarget[],
  latest: readonly (readonly (EstimandValue | null)[])[],
  lookedAt: readonly number[],
  playing: readonly boolean[],
  look: number,
  of: number,
): string {
  const agents = lookedAt.map((i) => {
    const parts = specs.map((spec, j) => {
      const v = latest[i]![j];
      const now = v?.interval ? shownHalfWidth(v.interval.halfWidth, spec.unit) : v?.settled ? "n/a" : "–";
      return `${spec.name} ${now} → ${formatHalfWidth(targets[j]!.halfWidth, spec.unit)}`;
    });
    return `${plan.agents[i]!.label}: ${parts.join(", ")}${playing[i] ? "" : " (stops here)"}`;
  });
  return `look ${look + 1}/${of}: ${agents.join(" · ")}`;
}
