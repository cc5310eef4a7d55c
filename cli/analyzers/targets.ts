/**
 * The precision targets of a run that stopped itself (`bazaar run … --until`), as its headline and
 * `bazaar analyze` report them: per agent and target, the estimate with the interval the stopping
 * rule compared with the target, whether it holds, and the trials spent against the design. The
 * rule is read from the store (environments/runner/stop-rules.ts), and the intervals come from the
 * same trackers the run's looks used, fed every stored trial of the agent: what the run decided on.
 */
import { dollars, percent, sig } from "../../analysis/report/format.ts";
import { targetHolds } from "../../analysis/stats/sequential.ts";
import { type EstimandValue, type HalfWidthUnit, shownHalfWidth } from "../../analysis/stats/targets.ts";
import { type StoredStopRule, stopRuleOf } from "../../environments/runner/stop-rules.ts";
import { estimandsOf } from "../run/until.ts";
import { renderTable } from "../table.ts";
import type { AnalyzeInput, AnalyzeOutput, EnvironmentAnalyzer, Headline } from "./types.ts";

export interface TargetRow {
  agent: string;
  target: string;
  estimand: string;
  estimate: number | null;
  low: number | null;
  high: number | null;
  halfWidth: number | null;
  /**
   * `met`; `moot` (the estimand does not apply to the agent: a position-locked agent's price
   * coefficient); `open` (not yet, trials of its units remain); `exhausted` (all played, not met).
   */
  status: "met" | "moot" | "open" | "exhausted";
  /** Why there is no interval, or why it cannot end the run yet; where the interval comes from. */
  note: string | null;
}

export interface AgentSpend {
  agent: string;
  /** Its stored trials, of its trials in the whole design (tasks × replicates). */
  trials: number;
  designTrials: number;
}

export interface TargetsReport {
  rule: StoredStopRule;
  rows: TargetRow[];
  agents: AgentSpend[];
}

function shown(x: number | null, unit: HalfWidthUnit): string {
  if (x === null) return "–";
  return unit === "pts" ? percent(x) : unit === "usd" ? dollars(x) : sig(x);
}

/** The targets of a run played under `--until`, evaluated on its stored trials; null for any other run. */
export async function targetsReport(
  input: Pick<AnalyzeInput, "run" | "store" | "records">,
): Promise<TargetsReport | null> {
  const rule = stopRuleOf(input.store, input.run.id);
  if (!rule) return null;
  const catalogue = await estimandsOf(input.run.env);
  const specs = rule.targets.map((t) => catalogue.estimands.find((e) => e.name === t.estimand));
  const agents = input.run.agents;
  const replicates = Number((input.run.config as { replicates?: unknown }).replicates ?? 1);
  const tasks = input.store.runTasks(input.run.id);
  const plays = tasks.map((task) => specs.some((s) => s?.informs(task)));
  const playable = plays.filter(Boolean).length * replicates;
  const byAgent = new Map<string, Record<string, unknown>[]>(agents.map((a) => [a, []]));
  for (const r of input.records()) byAgent.get(String(r.agent))?.push(r);
  const rows: TargetRow[] = [];
  const spend: AgentSpend[] = [];
  for (const agent of agents) {
    const records = byAgent.get(agent) ?? [];
    // Every trial its targets draw on is stored: the design has nothing more to give it.
    const stride = agents.length * replicates;
    const played = records.filter((r) => plays[Math.floor(Number(r.seq) / stride)] === true).length;
    spend.push({ agent, trials: records.length, designTrials: tasks.length * replicates });
    rule.targets.forEach((t, j) => {
      const spec = specs[j];
      if (!spec) {
        rows.push({ ...blank(agent, t), status: "open", note: `this bazaar has no estimand ${t.estimand}` });
        return;
      }
      const tracker = spec.tracker(rule.level, tasks.length * replicates, tasks);
      tracker.add(records);
      const value: EstimandValue = tracker.value();
      const iv = value.interval;
      const status = targetHolds(iv, t.halfWidth)
        ? "met"
        : value.interval === null && value.settled
          ? "moot"
          : played >= playable
            ? "exhausted"
            : "open";
      rows.push({
        agent,
        target: t.written,
        estimand: t.estimand,
        estimate: iv?.estimate ?? null,
        low: iv?.low ?? null,
        high: iv?.high ?? null,
        halfWidth: iv?.halfWidth ?? null,
        status,
        note: iv === null ? value.why : (iv.provisional ?? value.detail ?? null),
      });
    });
  }
  return { rule, rows, agents: spend };
}

function blank(agent: string, t: StoredStopRule["targets"][number]) {
  return {
    agent,
    target: t.written,
    estimand: t.estimand,
    estimate: null,
    low: null,
    high: null,
    halfWidth: null,
  };
}

/** The report as lines (a table and what was spent) and JSON. */
export async function targetsHeadline(report: TargetsReport, env: string): Promise<Headline> {
  const catalogue = await estimandsOf(env);
  const unitOf = (name: string): HalfWidthUnit =>
    catalogue.estimands.find((e) => e.name === name)?.unit ?? "plain";
  const level = Math.round(report.rule.level * 100);
  const statusText = (r: TargetRow) =>
    r.status === "met"
      ? "met"
      : r.status === "moot"
        ? "does not apply"
        : r.status === "exhausted"
          ? "not met: design played out"
          : "not met yet";
  const table = renderTable(
    ["agent", "target", "estimate", `${level}% interval`, "half-width", "status", "note"],
    report.rows.map((r) => {
      const unit = unitOf(r.estimand);
      return [
        r.agent,
        r.target,
        shown(r.estimate, unit),
        r.low === null ? "–" : `[${shown(r.low, unit)}, ${shown(r.high, unit)}]`,
        r.halfWidth === null ? "–" : shownHalfWidth(r.halfWidth, unit),
        statusText(r),
        r.note ?? "",
      ];
    }),
  ).split("\n");
  const n = (x: number) => x.toLocaleString("en-US");
  const spent = report.agents.reduce((s, a) => s + a.trials, 0);
  const design = report.agents.reduce((s, a) => s + a.designTrials, 0);
  const share = (a: number, b: number) => (b > 0 ? ` (${((100 * a) / b).toFixed(1)}%)` : "");
  return {
    lines: [
      `precision targets (${report.rule.targets.map((t) => t.written).join(", ")}; ${level}% intervals at the stopping time, fixed-width sequential rule):`,
      ...table,
      `spent: ${n(spent)} of the design's ${n(design)} trials${share(spent, design)}${report.agents.length > 1 ? ` — ${report.agents.map((a) => `${a.agent} ${n(a.trials)}${share(a.trials, a.designTrials)}`).join(", ")}` : ""}`,
    ],
    json: { rule: report.rule, targets: report.rows, spent: report.agents },
  };
}

/** An analyzer whose output leads with the run's precision targets when it has any. */
export function withTargets(analyzer: EnvironmentAnalyzer): EnvironmentAnalyzer {
  return {
    env: analyzer.env,
    async analyze(input: AnalyzeInput): Promise<AnalyzeOutput> {
      const output = await analyzer.analyze(input);
      const report = await targetsReport(input);
      if (!report) return output;
      const head = await targetsHeadline(report, input.run.env);
      const merge = (json: unknown) =>
        json !== null && typeof json === "object" && !Array.isArray(json)
          ? { ...json, targets: head.json }
          : { result: json, targets: head.json };
      return {
        ...output,
        headline: { lines: [...head.lines, "", ...output.headline.lines], json: merge(output.headline.json) },
        json: merge(output.json),
        text: `${head.lines.join("\n")}\n\n${output.text}`,
      };
    },
  };
}
