import { writeFileSync } from "node:fs";
import path from "node:path";
import {
  type AgentAudit,
  auditAgent,
  collectAgents,
  DEFAULT_CONSISTENCY_OPTIONS,
  type LocalResidual,
} from "../../analysis/consistency/index.ts";
import { parseOption, positiveInt } from "../options.ts";
import { renderTable } from "../table.ts";
import { type Figure, figureSpecs, renderFigures } from "./elicit-report.ts";
import type { AnalyzeInput, AnalyzeOutput, EnvironmentAnalyzer, Headline } from "./types.ts";

const pct = (x: number, digits = 1) => (Number.isFinite(x) ? `${(100 * x).toFixed(digits)}%` : "–");
const usd = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : "–");
const pValue = (p: number) =>
  Number.isNaN(p) ? "–" : p === 0 ? "0" : p < 0.001 ? p.toExponential(1) : p.toFixed(4);
const short = (group: string) => group.split("/").slice(0, 2).join("/");

function interval(r: LocalResidual, relative: boolean): string {
  const w = relative ? r.relative : r.residual;
  const f = relative ? (x: number) => pct(x) : usd;
  return r.testable ? `[${f(w.low)}, ${f(w.high)}]` : "n < 2";
}

function verdictLine(a: AgentAudit): string {
  const v = a.verdict;
  if (v.status === "no-groups" || v.status === "untestable")
    return `${a.agent}: ${v.status === "untestable" ? "untestable: " : ""}${v.reason} → no verdict on joint self-consistency`;
  const counted =
    v.untestable > 0
      ? `${v.rejected} of ${v.testable} testable audit groups rejected (${v.untestable} untestable)`
      : `${v.rejected} of ${v.groups} audit groups rejected`;
  const what =
    v.status === "rejects"
      ? "REJECTS joint self-consistency (no single utility reproduces every group)"
      : v.untestable > 0
        ? "joint self-consistency not rejected by the testable groups"
        : "joint self-consistency not rejected";
  return `${a.agent}: ${counted} at Bonferroni p ≤ ${v.threshold.toFixed(4)} → ${what}`;
}

/** One line per distinct reason: which groups could not be tested and why. */
function untestableLines(a: AgentAudit, indent = ""): string[] {
  const byReason = new Map<string, string[]>();
  for (const g of a.groups)
    if (g.untestableReason !== null)
      byReason.set(g.untestableReason, [...(byReason.get(g.untestableReason) ?? []), short(g.group)]);
  return [...byReason].map(
    ([reason, groups]) => `${indent}${a.agent} untestable: ${groups.join(", ")}: ${reason}`,
  );
}

/**
 * Per agent: how many audit groups the fitted-null bootstrap rejects after Bonferroni, and so
 * whether one utility can explain its dollar judgments at all; the rejected groups named, and the
 * untestable ones with why (they are no part of the verdict).
 */
export function elicitHeadline(audits: readonly AgentAudit[]): Headline {
  const agents = audits.map((a) => ({
    agent: a.agent,
    status: a.verdict.status,
    groups: a.verdict.groups,
    testable: a.verdict.testable,
    rejected: a.verdict.rejected,
    threshold: a.verdict.threshold,
    rejectsJointConsistency: a.verdict.rejectsJointConsistency,
    reason: a.verdict.reason,
    rejectedGroups: a.groups.filter((g) => g.rejected === true).map((g) => g.group),
    untestableGroups: a.groups.flatMap((g) =>
      g.untestableReason === null ? [] : [{ group: g.group, reason: g.untestableReason }],
    ),
    nonFiniteShare: a.nonFinite.share,
  }));
  const lines = [
    "stated preferences, self-consistency (fitted-null bootstrap, Bonferroni across groups):",
    ...audits.map((a) => verdictLine(a)),
    ...agents
      .filter((a) => a.rejectedGroups.length > 0)
      .map((a) => `  ${a.agent} rejected: ${a.rejectedGroups.map(short).join(", ")}`),
    ...audits.flatMap((a) => untestableLines(a, "  ")),
  ];
  return { lines, json: { agents } };
}

function groupTable(a: AgentAudit): string {
  const local = (group: string, list: readonly LocalResidual[]) => {
    const mine = list.filter((r) => r.group === group && r.testable);
    return `${mine.filter((r) => r.excludesZero).length}/${mine.length}`;
  };
  return renderTable(
    [
      "group",
      "queries",
      "T ($)",
      "T/price",
      "p",
      "Bonf. p",
      "verdict",
      "P1 excl 0",
      "P2 excl 0",
      "reversals",
    ],
    a.groups.map((g) => [
      short(g.group),
      String(g.queries),
      usd(g.rmse),
      pct(g.relativeRmse),
      pValue(g.pValue),
      pValue(g.adjustedP),
      g.status === "untestable" ? "untestable" : g.rejected ? "rejected" : "–",
      local(g.group, a.p1Residuals),
      local(g.group, a.p2Residuals),
      String(a.p2Residuals.filter((r) => r.group === g.group && r.reversal).length),
    ]),
  );
}

function p2Table(a: AgentAudit): string {
  return renderTable(
    ["group", "comparison", "R2 ($)", "95% CI ($)", "R2/s", "95% CI", "offer pair", "item diff", "reversal"],
    a.p2Residuals.map((r) => [
      short(r.group),
      r.comparison,
      usd(r.residual.estimate),
      interval(r, false),
      pct(r.relative.estimate),
      interval(r, true),
      usd(r.offerPair.estimate),
      usd(r.itemDifference.estimate),
      r.reversal ? "yes" : "–",
    ]),
  );
}

function p1Table(residuals: readonly LocalResidual[]): string {
  return renderTable(
    ["group", "comparison", "path", "k", "R1 ($)", "95% CI ($)", "R1/s", "95% CI"],
    residuals.map((r) => [
      short(r.group),
      r.comparison,
      r.path ?? "",
      String(r.steps ?? ""),
      usd(r.residual.estimate),
      interval(r, false),
      pct(r.relative.estimate),
      interval(r, true),
    ]),
  );
}

function pathLine(a: AgentAudit): string {
  if (a.pathLength.length === 0) return "path length: no stress paths in this run";
  const points = a.pathLength.map(
    (p) =>
      `k=${p.steps} ${pct(p.meanError)}${p.low === null ? "" : ` [${pct(p.low)}, ${pct(p.high ?? Number.NaN)}]`} (noise alone ≈ ${pct(p.noiseBaseline)})`,
  );
  return `path length (mean |R1,k|/s over ${a.pathLength[0]?.paths ?? 0} paths, 95% bootstrap over paths): ${points.join(" · ")}`;
}

function summaryLines(a: AgentAudit): string[] {
  const nf = a.nonFinite;
  const reasons = Object.entries(nf.byReason)
    .sort((x, y) => y[1] - x[1])
    .map(([r, n]) => `${r} ${n}`)
    .join(", ");
  return [
    `P1 (path additivity, k = 2): ${a.p1.testable} residuals, ${a.p1.rejections} intervals exclude 0 (${pct(a.p1.rejectionRate)}), ${a.p1.atLeastQuarter} with |R1| ≥ 25% of the mean listed price`,
    `P2 (offer pair vs item queries): ${a.p2.testable} residuals, ${a.p2.rejections} intervals exclude 0 (${pct(a.p2.rejectionRate)}), supported reversals ${a.p2.reversals} of ${a.p2.count} (${pct(a.p2.reversalRate)}), ${a.p2.atLeastQuarter} with |R2| ≥ 25%`,
    pathLine(a),
    `non-finite outputs: ${nf.nonFinite} of ${nf.completions.toLocaleString("en-US")} (${pct(nf.share, 2)})${reasons ? `: ${reasons}` : ""}`,
  ];
}

function textReport(audits: readonly AgentAudit[]): string {
  const parts: string[] = [];
  for (const a of audits) {
    const untestable = untestableLines(a);
    parts.push(verdictLine(a), "", groupTable(a), ...(untestable.length ? ["", ...untestable] : []));
    parts.push("", ...summaryLines(a), "");
    if (a.p2Residuals.length > 0)
      parts.push("P2 residuals (R2 = Δ(a→b) − [(Y(y) − q) − (Y(x) − p)]):", p2Table(a), "");
    const rejectedP1 = a.p1Residuals.filter((r) => r.excludesZero);
    if (rejectedP1.length > 0) parts.push("P1 residuals whose interval excludes 0:", p1Table(rejectedP1), "");
  }
  return parts.join("\n").trimEnd();
}

function markdown(
  run: string,
  audits: readonly AgentAudit[],
  figures: readonly Figure[],
  draws: number,
  corrected: boolean,
): string {
  const lines = [
    `# Stated-preference self-consistency: run ${run}`,
    "",
    `Least-squares unrestricted-utility fit per audit group; T = RMSE of the query-mean residuals; p from the fitted-null within-query bootstrap (B = ${draws}${corrected ? ", centred completions scaled by √(n/(n − 1))" : ", literal protocol"}); Bonferroni across each agent's audit groups. Local residuals with 95% Wald intervals, divided by the endpoints' mean listed price s_ab.`,
    "",
  ];
  for (const a of audits) {
    lines.push(`## ${a.agent}`, "", `**${verdictLine(a)}**`, "", "```", groupTable(a), "```", "");
    for (const l of untestableLines(a)) lines.push(`- ${l}`);
    for (const l of summaryLines(a)) lines.push(`- ${l}`);
    lines.push("");
    if (a.p2Residuals.length > 0) lines.push("### P2 residuals", "", "```", p2Table(a), "```", "");
    if (a.p1Residuals.length > 0)
      lines.push("### P1 residuals (k = 2)", "", "```", p1Table(a.p1Residuals), "```", "");
    if (a.stressResiduals.length > 0)
      lines.push("### Stress-path P1 residuals", "", "```", p1Table(a.stressResiduals), "```", "");
  }
  for (const f of figures) lines.push(`![${f.title}](${f.file})`, "");
  return `${lines.join("\n").trimEnd()}\n`;
}

/** `bazaar analyze <run>` for elicit runs: the self-consistency audit of every agent of the run. */
export const elicitAnalyzer: EnvironmentAnalyzer = {
  env: "elicit",
  async analyze(input: AnalyzeInput): Promise<AnalyzeOutput> {
    const o = input.options;
    const draws =
      o.consistencyDraws === undefined
        ? DEFAULT_CONSISTENCY_OPTIONS.draws
        : parseOption("consistency-draws", positiveInt, o.consistencyDraws);
    const seed = typeof o.consistencySeed === "string" ? o.consistencySeed : DEFAULT_CONSISTENCY_OPTIONS.seed;
    const smallSampleCorrection = o.consistencyUncorrected !== true;
    const audits = collectAgents(input.records()).map((agent) =>
      auditAgent(agent, { draws, seed, smallSampleCorrection }),
    );
    const figures = o.report ? await renderFigures(audits) : [];
    return {
      headline: elicitHeadline(audits),
      json: {
        run: input.run.id,
        env: "elicit",
        options: { ...DEFAULT_CONSISTENCY_OPTIONS, draws, seed, smallSampleCorrection },
        agents: audits,
      },
      text: textReport(audits),
      figures: () => figureSpecs(audits),
      writeReport(dir: string): string[] {
        const files = ["report.md", ...figures.map((f) => f.file)];
        writeFileSync(
          path.join(dir, "report.md"),
          markdown(input.run.id, audits, figures, draws, smallSampleCorrection),
        );
        for (const f of figures) writeFileSync(path.join(dir, f.file), f.svg);
        return files;
      },
    };
  },
};
