/**
 * The negotiation figures of the shop report, as Vega-Lite specs (rendered by analysis/report's
 * `renderSvg`):
 * - price ladders: small multiples, one panel per example negotiation (a few per buyer × seller
 *   pair), the buyer's offers and the seller's counters over the shopper's steps as shares of the
 *   listing's list price, so that panels of listings at different prices share one axis; the cap
 *   and the cost are lines of their own, the deal a marked point;
 * - discount by buyer: the mean discount of the agreed deals and of what bookings paid, against
 *   the list price, with task-clustered intervals.
 * Names are never cut: panel headers wrap (labelLimit 0), axis labels have no limit.
 */
import { formatUsd } from "../../environments/kernel/money.ts";
import { wrapLabel } from "../report/charts.ts";
import type { VegaLiteSpec } from "../report/svg.ts";
import type { NegotiationAnalysis } from "./negotiation.ts";

const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";
const FONT = { font: "Helvetica, Arial, sans-serif", labelFontSize: 11, titleFontSize: 12 };
const KINDS = ["buyer offer", "seller counter", "deal"] as const;
const KIND_COLOURS = ["#1f77b4", "#e07b39", "#2ca02c"];
/** A cap up to this share of the list price widens the axis to show it; a higher one is clipped. */
const CAP_SHOWN = 1.15;
/** Pairs drawn at most (each a row of up to three panels): a report, not a dump. */
const MAX_PAIRS = 8;

interface LadderPoint {
  panel: string;
  kind: (typeof KINDS)[number] | "cap" | "cost" | "list";
  step: number | null;
  share: number;
}

/** The panel's header: who played, which negotiation, its prices and how it ended, in lines. */
function panelLabel(
  buyer: string,
  seller: string,
  e: NegotiationAnalysis["pairs"][number]["examples"][number],
): string {
  const end =
    e.deal === null ? "no deal" : `deal ${formatUsd(e.deal)}${e.booked ? ", booked" : ", not booked"}`;
  return [
    ...wrapLabel(`${buyer} × ${seller}`, 40),
    `${e.taskId} #${e.replicate + 1} · list ${formatUsd(e.listPrice)} · ${end}`,
    `cap ${e.cap === null ? "none" : formatUsd(e.cap)} · cost ${formatUsd(e.cost)}`,
  ].join("|");
}

export function ladderPoints(n: NegotiationAnalysis): { panels: string[]; points: LadderPoint[] } {
  const panels: string[] = [];
  const points: LadderPoint[] = [];
  for (const p of n.pairs.slice(0, MAX_PAIRS))
    for (const e of p.examples) {
      const panel = panelLabel(p.buyer, p.seller, e);
      panels.push(panel);
      const share = (price: number) => price / e.listPrice;
      points.push({ panel, kind: "list", step: null, share: 1 });
      points.push({ panel, kind: "cost", step: null, share: share(e.cost) });
      if (e.cap !== null) points.push({ panel, kind: "cap", step: null, share: share(e.cap) });
      for (const m of e.moves) {
        if (m.price === null) continue;
        if (m.side === "buyer")
          points.push({ panel, kind: "buyer offer", step: m.step, share: share(m.price) });
        else if (m.move === "counter")
          points.push({ panel, kind: "seller counter", step: m.step, share: share(m.price) });
      }
      // The deal where it was made: the seller's accept, or the buyer's offer at the seller's counter.
      const at = e.moves.find((m) => m.move === "accept") ?? e.moves.findLast((m) => m.side === "buyer");
      if (e.deal !== null && at) points.push({ panel, kind: "deal", step: at.step, share: share(e.deal) });
    }
  return { panels, points };
}

/** The ladders as small multiples; null without negotiations. */
export function priceLadderChart(n: NegotiationAnalysis): VegaLiteSpec | null {
  const { panels, points } = ladderPoints(n);
  if (panels.length === 0) return null;
  const moves = points.filter((p) => p.step !== null);
  const maxStep = Math.max(1, ...moves.map((p) => p.step!));
  // The axis spans the moves, the list price, the costs and the caps near the list price; a cap far
  // above it (caps run to several times a cheap listing's price) would flatten every ladder, so it
  // is clipped there and its dollar value stays in the panel's header.
  const shares = points.filter((p) => p.kind !== "cap" || p.share <= CAP_SHOWN).map((p) => p.share);
  const lo = Math.min(...shares);
  const hi = Math.max(...shares);
  const pad = 0.08 * (hi - lo || 1);
  const y = {
    field: "share",
    type: "quantitative",
    title: "price ÷ list price",
    scale: { domain: [Math.max(0, lo - pad), hi + pad], nice: false },
    axis: { format: ".0%", labelFontSize: 9, tickCount: 5 },
  };
  const x = {
    field: "step",
    type: "quantitative",
    title: "shopper's step",
    scale: { domain: [0, maxStep + 1], nice: false },
    axis: { tickMinStep: 1, format: "d", labelFontSize: 9 },
  };
  const color = {
    field: "kind",
    type: "nominal",
    title: null,
    scale: { domain: [...KINDS], range: KIND_COLOURS },
    legend: { orient: "bottom", labelLimit: 0 },
  };
  const line = (kind: string) => ({
    transform: [{ filter: `datum.kind === '${kind}'` }],
    mark: { type: "line", point: { size: 26, filled: true }, strokeWidth: 1.6 },
    encoding: { x, y, color },
  });
  const rule = (kind: string, style: Record<string, unknown>) => ({
    transform: [{ filter: `datum.kind === '${kind}'` }],
    mark: { type: "rule", clip: true, ...style },
    encoding: { y },
  });
  const exPerPair = Math.max(...n.pairs.slice(0, MAX_PAIRS).map((p) => p.examples.length));
  const more = n.pairs.length > MAX_PAIRS ? ` (first ${MAX_PAIRS} of ${n.pairs.length} pairs)` : "";
  return {
    $schema: SCHEMA,
    title: {
      text: `Price ladders: example negotiations per buyer × seller${more}`,
      fontSize: 14,
      anchor: "start",
      subtitle: [
        "blue: the buyer's offers; orange: the seller's counters; green diamond: the deal; prices as shares of the listing's list price",
        "grey line: list price (100%); red dashed: the request's price cap; grey dotted: the seller's cost",
      ],
      subtitleFontSize: 10,
    },
    background: "white",
    padding: { left: 10, right: 16, top: 10, bottom: 10 },
    config: { axis: FONT, legend: FONT, view: { stroke: "#dddddd" } },
    data: { values: points },
    columns: Math.max(1, exPerPair),
    facet: {
      field: "panel",
      type: "nominal",
      sort: panels,
      title: null,
      // Lines of the header are joined by "|" (see panelLabel); nothing is cut.
      header: {
        labelLimit: 0,
        labelFontSize: 10,
        labelExpr: "split(datum.value, '|')",
        labelAlign: "left",
        labelAnchor: "start",
      },
    },
    spec: {
      width: 300,
      height: 130,
      layer: [
        rule("list", { color: "#999999", strokeWidth: 1 }),
        rule("cap", { color: "#c0392b", strokeDash: [5, 3], strokeWidth: 1.2 }),
        rule("cost", { color: "#777777", strokeDash: [2, 2], strokeWidth: 1.2 }),
        line("buyer offer"),
        line("seller counter"),
        {
          transform: [{ filter: "datum.kind === 'deal'" }],
          mark: { type: "point", shape: "diamond", size: 110, filled: true, opacity: 1 },
          encoding: { x, y, color },
        },
      ],
    },
    resolve: { scale: { x: "shared", y: "shared" } },
  };
}

export interface DiscountRow {
  buyer: string;
  measure: string;
  /** Null for a buyer with neither deals nor bookings (drawn as a note at zero). */
  estimate: number | null;
  low: number | null;
  high: number | null;
  text: string;
}

const MEASURES = ["agreed deals: (list − deal) ÷ list", "bookings: (list − paid) ÷ list"];

export function discountRows(n: NegotiationAnalysis): DiscountRow[] {
  const rows: DiscountRow[] = [];
  for (const b of n.buyers) {
    const before = rows.length;
    for (const [measure, m, count] of [
      [MEASURES[0]!, b.discount, `${b.deals} deals`],
      [MEASURES[1]!, b.paidDiscount, `${b.bookings} bookings`],
    ] as const) {
      if (m.estimate === null) continue;
      rows.push({
        buyer: b.buyer,
        measure,
        estimate: m.estimate,
        low: m.low,
        high: m.high,
        text: `${(100 * m.estimate).toFixed(1)}% (${count})`,
      });
    }
    if (rows.length === before)
      rows.push({
        buyer: b.buyer,
        measure: MEASURES[0]!,
        estimate: null,
        low: null,
        high: null,
        text: "no deals and no bookings",
      });
  }
  return rows;
}

/** Mean discount by buyer, deals and bookings side by side; null without deals or bookings. */
export function discountChart(n: NegotiationAnalysis): VegaLiteSpec | null {
  const rows = discountRows(n);
  if (rows.every((r) => r.estimate === null)) return null;
  const buyers = n.buyers.map((b) => b.buyer);
  const values = rows.flatMap((r) => [r.estimate, r.low, r.high].filter((x): x is number => x !== null));
  const lo = Math.min(0, ...values);
  const hi = Math.max(0, ...values);
  const span = hi - lo || 0.1;
  // Room on the right for the value labels.
  const scale = { domain: [lo - 0.05 * span, hi + 0.45 * span], nice: false };
  const y = {
    field: "buyer",
    type: "nominal",
    title: null,
    sort: buyers,
    axis: { labelLimit: 0, labelFontSize: 11 },
  };
  const yOffset = { field: "measure", type: "nominal", sort: MEASURES };
  const color = {
    field: "measure",
    type: "nominal",
    title: null,
    scale: { domain: MEASURES, range: ["#2ca02c", "#1f77b4"] },
    legend: { orient: "bottom", labelLimit: 0, columns: 1 },
  };
  const x = (field: string) => ({
    field,
    type: "quantitative",
    scale,
    title: "discount against the list price",
    axis: { format: ".0%" },
  });
  return {
    $schema: SCHEMA,
    title: {
      text: "Discount against the list price, by buyer",
      fontSize: 14,
      anchor: "start",
      subtitle: `dot: mean; bar: task-clustered ${Math.round(100 * n.level)}% interval; a booking without a deal counts 0`,
      subtitleFontSize: 10,
    },
    width: 560,
    height: Math.max(60, 44 * buyers.length),
    background: "white",
    padding: { left: 10, right: 24, top: 10, bottom: 10 },
    config: { axis: FONT, legend: FONT, view: { stroke: null } },
    data: { values: rows },
    layer: [
      { mark: { type: "rule", color: "#bbbbbb", strokeDash: [4, 3] }, encoding: { x: { datum: 0, scale } } },
      {
        transform: [{ filter: "isValid(datum.low)" }],
        mark: { type: "rule", strokeWidth: 2.5 },
        encoding: { y, yOffset, x: x("low"), x2: { field: "high" }, color },
      },
      {
        transform: [{ filter: "isValid(datum.estimate)" }],
        mark: { type: "point", filled: true, size: 60, opacity: 1 },
        encoding: { y, yOffset, x: x("estimate"), color },
      },
      {
        transform: [
          { filter: "isValid(datum.estimate)" },
          { calculate: "isValid(datum.high) ? datum.high : datum.estimate", as: "right" },
        ],
        mark: { type: "text", align: "left", dx: 6, fontSize: 10, color: "#444444" },
        encoding: { y, yOffset, x: x("right"), text: { field: "text" } },
      },
      {
        transform: [{ filter: "!isValid(datum.estimate)" }],
        mark: { type: "text", align: "left", dx: 4, fontSize: 10, fontStyle: "italic", color: "#888888" },
        encoding: { y, x: { datum: 0, scale }, text: { field: "text" } },
      },
    ],
  };
}
