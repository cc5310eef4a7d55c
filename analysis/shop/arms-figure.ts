/**
 * The description arms' price-equivalents as a figure: one row per arm (in the library's order),
 * one dot and 95% interval per agent (delta method, with the task-bootstrap interval as a thinner
 * bar beside it when there is one), a zero line for "priced like a neutral description", and the
 * word "untestable" where an agent's data cannot price the arm. Full names everywhere: labels are
 * never cut (labelLimit 0), and the legend lists each agent whole.
 */
import { dollars } from "../report/format.ts";
import type { VegaLiteSpec } from "../report/svg.ts";
import type { ShopAnalysis } from "./analyze.ts";
import { PRICED_ARMS } from "./arms.ts";

const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";
const FONT = { font: "Helvetica, Arial, sans-serif", labelFontSize: 11, titleFontSize: 12 };

export interface ArmFigureRow {
  arm: string;
  agent: string;
  estimate: number | null;
  low: number | null;
  high: number | null;
  bootLow: number | null;
  bootHigh: number | null;
  /** "untestable" where there is no estimate, else the value ("$37"). */
  text: string;
}

export function armFigureRows(analysis: ShopAnalysis): ArmFigureRow[] {
  const rows: ArmFigureRow[] = [];
  for (const a of analysis.agents) {
    if (a.descriptions.status !== "ok") continue;
    for (const r of a.descriptions.armPriceEquivalents) {
      const pe = r.status === "ok" ? r.pe : null;
      rows.push({
        arm: r.arm,
        agent: a.agent,
        estimate: pe?.dollars ?? null,
        low: pe?.low ?? null,
        high: pe?.high ?? null,
        bootLow: pe?.bootstrap?.low ?? null,
        bootHigh: pe?.bootstrap?.high ?? null,
        text: pe ? dollars(pe.dollars, false) : "untestable",
      });
    }
  }
  return rows;
}

/** The spec, or null when no agent's descriptions varied. */
export function armPriceEquivalentChart(analysis: ShopAnalysis): VegaLiteSpec | null {
  const rows = armFigureRows(analysis);
  if (rows.length === 0) return null;
  const agents = [...new Set(rows.map((r) => r.agent))];
  const several = agents.length > 1;
  const title = `Price-equivalents of the description arms against neutral (at $${analysis.referencePrice} a night)`;
  const subtitle = [
    "dot: estimate; thick bar: cluster-robust delta-method 95% CI; thin bar behind it: task-bootstrap 95% CI",
    "(the premium at which a listing with the arm is booked as often as one with a neutral description)",
  ];
  const y = {
    field: "arm",
    type: "nominal",
    title: null,
    sort: [...PRICED_ARMS],
    scale: { domain: [...PRICED_ARMS] },
    axis: { labelLimit: 0, labelFontSize: 12 },
  };
  const yOffset = several ? { yOffset: { field: "agent", type: "nominal", sort: agents } } : {};
  const color = several
    ? {
        color: {
          field: "agent",
          type: "nominal",
          sort: agents,
          title: "agent",
          legend: { labelLimit: 0, orient: "bottom", columns: 1 },
        },
      }
    : { color: { value: "#1f77b4" } };
  const finite = rows.flatMap((r) =>
    [r.low, r.high, r.bootLow, r.bootHigh, r.estimate].filter((x): x is number => x !== null),
  );
  const lo = Math.min(0, ...finite);
  const hi = Math.max(0, ...finite);
  const pad = 0.08 * (hi - lo || 1);
  // Room on the right for the value labels and on the left for "untestable" at zero.
  const scale = { domain: [lo - pad, hi + 3.5 * pad], nice: false };
  const x = (field: string) => ({
    field,
    type: "quantitative",
    scale,
    title: "dollars a night (vs neutral)",
  });
  const rowHeight = several ? 18 * agents.length + 8 : 26;
  return {
    $schema: SCHEMA,
    title: { text: title, fontSize: 14, subtitle, subtitleFontSize: 10, anchor: "start" },
    width: 620,
    height: rowHeight * PRICED_ARMS.length,
    background: "white",
    padding: { left: 10, right: 24, top: 10, bottom: 10 },
    config: { axis: FONT, legend: FONT, view: { stroke: null } },
    data: { values: rows },
    layer: [
      { mark: { type: "rule", color: "#bbbbbb", strokeDash: [4, 3] }, encoding: { x: { datum: 0, scale } } },
      {
        transform: [{ filter: "isValid(datum.bootLow)" }],
        mark: { type: "rule", strokeWidth: 1.2, opacity: 0.8 },
        encoding: { y, ...yOffset, x: x("bootLow"), x2: { field: "bootHigh" }, ...color },
      },
      {
        transform: [{ filter: "isValid(datum.low)" }],
        mark: { type: "rule", strokeWidth: 3 },
        encoding: { y, ...yOffset, x: x("low"), x2: { field: "high" }, ...color },
      },
      {
        transform: [{ filter: "isValid(datum.estimate)" }],
        mark: { type: "point", filled: true, size: 60, opacity: 1 },
        encoding: { y, ...yOffset, x: x("estimate"), ...color },
      },
      {
        transform: [
          { filter: "isValid(datum.estimate)" },
          {
            calculate: "isValid(datum.bootHigh) ? max(datum.high, datum.bootHigh) : datum.high",
            as: "right",
          },
        ],
        mark: { type: "text", align: "left", dx: 6, fontSize: 10, color: "#444444" },
        encoding: { y, ...yOffset, x: x("right"), text: { field: "text" } },
      },
      {
        transform: [{ filter: "!isValid(datum.estimate)" }],
        // In the agent's colour, so the row says whose arm it is.
        mark: { type: "text", align: "left", dx: 4, fontSize: 10, fontStyle: "italic", color: "#888888" },
        encoding: {
          y,
          ...yOffset,
          x: { datum: 0, scale },
          text: { field: "text" },
          ...(several ? color : {}),
        },
      },
    ],
  };
}
