/**
 * The cue report: markdown tables and SVG figures of the S(g) curves — one small panel per
 * condition with the pooled curve, the two per-order curves, the 0.5 line and the crossing marked
 * (censored curves carry their ‡ or † label instead).
 */
import type { CategoryCueAnalysis, ConditionEstimate, CueAnalysis } from "../../analysis/cue/index.ts";
import { markdownDocument, markdownTable } from "../../analysis/report/markdown.ts";
import type { VegaLiteSpec } from "../../analysis/report/svg.ts";
import {
  additivityTables,
  agentLines,
  categoryLines,
  ceilingSentence,
  ceilingTable,
  conditionTable,
  paraphraseTable,
  perPairTable,
  type Table,
} from "./cue-tables.ts";

const SERIES = ["pooled", "cued first", "cued second"];

function curveRows(c: ConditionEstimate): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  const add = (series: string, curve: ConditionEstimate["curve"]) => {
    for (const p of curve) {
      if (p.rate !== null)
        rows.push({ condition: c.condition, kind: "curve", series, premium: 100 * p.premium, rate: p.rate });
    }
  };
  add("pooled", c.curve);
  add("cued first", c.cuedFirstCurve);
  add("cued second", c.cuedSecondCurve);
  const gMax = 100 * (c.curve.at(-1)?.premium ?? 0);
  if (c.pe.kind === "point")
    rows.push({ condition: c.condition, kind: "crossing", premium: 100 * c.pe.value, rate: 0.5 });
  const label =
    c.pe.kind === "floor"
      ? { premium: 0, rate: 0.1, text: "‡ PE ≤ 0" }
      : c.pe.kind === "right"
        ? { premium: gMax, rate: 0.9, text: `† PE > ${gMax.toFixed(0)}%` }
        : c.pe.kind === "not-identified"
          ? { premium: gMax / 2, rate: 0.9, text: "not identified" }
          : null;
  if (label) rows.push({ condition: c.condition, kind: "label", ...label });
  return rows;
}

/** Small multiples of S(g), one panel per condition, in the given order. */
export function curvesSpec(title: string, conditions: readonly ConditionEstimate[]): VegaLiteSpec {
  const kind = (k: string) => [{ filter: `datum.kind === '${k}'` }];
  const x = { field: "premium", type: "quantitative", title: "premium on the cued product (%)" };
  const y = { field: "rate", type: "quantitative", title: "P(choose cued)", scale: { domain: [0, 1] } };
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: { text: title, fontSize: 14 },
    background: "white",
    data: { values: conditions.flatMap(curveRows) },
    facet: { field: "condition", type: "nominal", title: null, sort: conditions.map((c) => c.condition) },
    columns: 4,
    spec: {
      width: 170,
      height: 110,
      layer: [
        {
          transform: kind("curve"),
          mark: { type: "line", point: { size: 14 }, strokeWidth: 1.5 },
          encoding: {
            x,
            y,
            color: {
              field: "series",
              type: "nominal",
              title: null,
              scale: { domain: SERIES, range: ["#1f4e79", "#74a9cf", "#f4a261"] },
            },
          },
        },
        { mark: { type: "rule", strokeDash: [4, 3], color: "#777" }, encoding: { y: { datum: 0.5 } } },
        {
          transform: kind("crossing"),
          mark: { type: "point", shape: "diamond", size: 90, filled: true, color: "#c0392b" },
          encoding: { x, y },
        },
        {
          transform: kind("label"),
          mark: { type: "text", fontSize: 11, color: "#c0392b" },
          encoding: { x, y, text: { field: "text", type: "nominal" } },
        },
      ],
    },
    config: { view: { stroke: "#ddd" }, axis: { labelFontSize: 10, titleFontSize: 10 } },
  };
}

/** A filesystem-safe piece of a file name. */
export function slugOf(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "x";
}

export interface CueFigure {
  file: string;
  title: string;
  spec: VegaLiteSpec;
}

export function cueFigures(analysis: CueAnalysis): CueFigure[] {
  const figures: CueFigure[] = [];
  for (const a of analysis.agents) {
    for (const cat of a.categories) {
      const base = `${slugOf(a.agent)}-${slugOf(cat.category)}`;
      const title = `S(g) by condition — ${a.agent}, ${cat.category}`;
      const ordered = [...cat.conditions].sort((x, y) => {
        const v = (c: ConditionEstimate) =>
          c.pe.kind === "point" ? c.pe.value : c.pe.kind === "right" ? 9 : -9;
        return v(y) - v(x);
      });
      figures.push({ file: `curves-${base}.svg`, title, spec: curvesSpec(title, ordered) });
      if (cat.additivity) {
        const t = `S(g) of the additivity cells — ${a.agent}, ${cat.category}`;
        figures.push({ file: `additivity-${base}.svg`, title: t, spec: curvesSpec(t, cat.additivity.cells) });
      }
    }
  }
  return figures;
}

const md = (t: Table) => markdownTable(t.header, t.rows);

function categorySection(
  agent: string,
  cat: CategoryCueAnalysis,
  figures: readonly CueFigure[],
): {
  heading: string;
  body: string[];
} {
  const body = [
    categoryLines(cat).join("\n\n"),
    "Conditions sorted by price-equivalent; ‡ = already dispreferred at equal price (PE ≤ 0), † = no crossing within the sweep, n.i. = not identified. Censored cells are bounds and are kept out of the ranking.",
    md(conditionTable(cat)),
    "### Equal-price rate vs price-equivalent",
    ceilingSentence(cat),
    md(ceilingTable(cat)),
    "### Per-pair price-equivalents",
    md(perPairTable(cat)),
  ];
  for (const f of figures) body.push(`![${f.title}](${f.file})`);
  const add = additivityTables(cat);
  if (add) body.push("### Additivity (2³ factorial)", md(add.cells), md(add.tests), add.verdict);
  const para = paraphraseTable(cat);
  if (para) body.push("### Instruction paraphrases", md(para.table), para.notes.join("\n\n"));
  return { heading: `${agent} — ${cat.category}`, body };
}

export function cueMarkdown(runId: string, analysis: CueAnalysis, figures: readonly CueFigure[]): string {
  const sections = analysis.agents.flatMap((a) => [
    { heading: a.agent, body: [agentLines(a).join("\n\n")] },
    ...a.categories.map((cat) => {
      const prefix = `${slugOf(a.agent)}-${slugOf(cat.category)}`;
      return categorySection(
        a.agent,
        cat,
        figures.filter((f) => f.file.endsWith(`-${prefix}.svg`)),
      );
    }),
  ]);
  return markdownDocument(`Cue price-equivalents — run ${runId}`, sections);
}
