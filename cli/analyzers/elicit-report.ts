/**
 * The elicit audit's report: a markdown page and Vega-Lite figures rendered to SVG by Vega's headless
 * renderer (no canvas). Vega is loaded only when a report is asked for.
 */
import type { AgentAudit, LocalResidual } from "../../analysis/consistency/index.ts";
import { renderSvg } from "../../analysis/report/svg.ts";

export interface Figure {
  file: string;
  title: string;
  svg: string;
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "agent"
  );
}

/** Legend and axis labels are never cut: agent specs run long ("openai:sim-elicit-consistent-varied"). */
const WHOLE_LABELS = { legend: { labelLimit: 0 }, axis: { labelLimit: 0 } };

function residualRows(residuals: readonly LocalResidual[]) {
  return residuals
    .filter((r) => r.testable)
    .map((r) => ({
      label: `${r.group.split("/").slice(0, 2).join("/")} ${r.comparison}${r.path ? ` ${r.path}` : ""}`,
      domain: r.group.split("/")[0],
      estimate: r.relative.estimate,
      low: r.relative.low,
      high: r.relative.high,
      excludes: r.excludesZero ? "interval excludes 0" : "covers 0",
    }));
}

/** Price-normalised residuals with their 95% Wald intervals, one row per comparison. */
export function residualSpec(title: string, residuals: readonly LocalResidual[]): Record<string, unknown> {
  const values = residualRows(residuals);
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title,
    width: 420,
    height: { step: 12 },
    config: WHOLE_LABELS,
    data: { values },
    layer: [
      { mark: { type: "rule", color: "#888", strokeDash: [4, 3] }, encoding: { x: { datum: 0 } } },
      {
        mark: { type: "rule", strokeWidth: 1.5 },
        encoding: {
          y: { field: "label", type: "nominal", sort: null, title: null },
          x: {
            field: "low",
            type: "quantitative",
            title: "residual / mean endpoint price (95% Wald interval)",
          },
          x2: { field: "high" },
          color: { field: "domain", type: "nominal" },
        },
      },
      {
        mark: { type: "point", filled: true },
        encoding: {
          y: { field: "label", type: "nominal", sort: null },
          x: { field: "estimate", type: "quantitative" },
          color: { field: "domain", type: "nominal" },
          shape: { field: "excludes", type: "nominal", title: null },
        },
      },
    ],
  };
}

/**
 * Mean |R1,k| / s_ab against k, with bootstrap intervals over paths, one line per agent. The path
 * lengths are evenly spaced categories (2, 8, 16: whole ticks only), and each agent's points sit a
 * little apart at each k so that no interval hides another.
 */
export function pathLengthSpec(audits: readonly AgentAudit[]): Record<string, unknown> {
  const steps = [...new Set(audits.flatMap((a) => a.pathLength.map((p) => p.steps)))].sort((x, y) => x - y);
  const agents = audits.map((a) => a.agent);
  const dodge = agents.length > 1 ? Math.min(0.15, 0.5 / agents.length) : 0;
  const values = audits.flatMap((a, i) =>
    a.pathLength.map((p) => ({
      agent: a.agent,
      steps: p.steps,
      at: steps.indexOf(p.steps) + dodge * (i - (agents.length - 1) / 2),
      error: p.meanError,
      low: p.low ?? p.meanError,
      high: p.high ?? p.meanError,
    })),
  );
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: "Path-length stress: mean P1 error by number of steps",
    width: 360,
    height: 220,
    config: WHOLE_LABELS,
    data: { values },
    encoding: {
      x: {
        field: "at",
        type: "quantitative",
        title: "steps k along the path",
        scale: { domain: [-0.5, steps.length - 0.5], nice: false, zero: false },
        axis: {
          values: steps.map((_, i) => i),
          labelExpr: `${JSON.stringify(steps.map(String))}[datum.value]`,
          grid: false,
        },
      },
      color: {
        field: "agent",
        type: "nominal",
        sort: agents,
        legend: { orient: "bottom", direction: "vertical", columns: 1 },
      },
    },
    layer: [
      {
        mark: { type: "line", point: true },
        encoding: { y: { field: "error", type: "quantitative", title: "mean |R1,k| / s_ab" } },
      },
      {
        mark: { type: "rule" },
        encoding: { y: { field: "low", type: "quantitative" }, y2: { field: "high" } },
      },
    ],
  };
}

/** T relative to the mean endpoint price per audit group, coloured by the Bonferroni verdict (or untestable). */
export function groupSpec(audit: AgentAudit): Record<string, unknown> {
  const values = audit.groups.map((g) => ({
    group: `${g.domain}/${g.utterance}`,
    relative: g.relativeRmse,
    verdict: g.status === "untestable" ? "untestable" : g.rejected ? "rejected (Bonferroni)" : "not rejected",
  }));
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: `${audit.agent}: global misfit T by audit group`,
    width: 360,
    height: { step: 16 },
    config: WHOLE_LABELS,
    data: { values },
    mark: "bar",
    encoding: {
      y: { field: "group", type: "nominal", sort: null, title: null },
      x: {
        field: "relative",
        type: "quantitative",
        title: "T / mean endpoint listed price",
        axis: { format: "%" },
      },
      color: {
        field: "verdict",
        type: "nominal",
        scale: {
          domain: ["rejected (Bonferroni)", "not rejected", "untestable"],
          range: ["#c0392b", "#7f8c8d", "#d5d8dc"],
        },
      },
    },
  };
}

/** Every figure of the report, as Vega-Lite specs (the viewer draws them; `renderFigures` renders them). */
export function figureSpecs(
  audits: readonly AgentAudit[],
): { file: string; title: string; spec: Record<string, unknown> }[] {
  const figures: { file: string; title: string; spec: Record<string, unknown> }[] = [];
  for (const a of audits) {
    const s = slug(a.agent);
    if (a.groups.length > 0)
      figures.push({ file: `groups-${s}.svg`, title: `${a.agent}: T by audit group`, spec: groupSpec(a) });
    if (a.p2Residuals.some((r) => r.testable))
      figures.push({
        file: `p2-residuals-${s}.svg`,
        title: `${a.agent}: P2 residuals (offer pair vs item queries)`,
        spec: residualSpec(`${a.agent}: P2 residuals R2 / s_ab`, a.p2Residuals),
      });
    if (a.p1Residuals.some((r) => r.testable))
      figures.push({
        file: `p1-residuals-${s}.svg`,
        title: `${a.agent}: P1 residuals (path additivity, k = 2)`,
        spec: residualSpec(`${a.agent}: P1 residuals R1 / s_ab`, a.p1Residuals),
      });
  }
  if (audits.some((a) => a.pathLength.length > 0))
    figures.push({ file: "path-length.svg", title: "Path-length stress", spec: pathLengthSpec(audits) });
  return figures;
}

/** Every figure of the report, rendered. */
export async function renderFigures(audits: readonly AgentAudit[]): Promise<Figure[]> {
  return Promise.all(
    figureSpecs(audits).map(async (f) => ({ file: f.file, title: f.title, svg: await renderSvg(f.spec) })),
  );
}
