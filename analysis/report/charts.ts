/**
 * Chart builders every audit can reuse: each returns a Vega-Lite spec (plain data) for `renderSvg`.
 */
import type { VegaLiteSpec } from "./svg.ts";

const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";
const FONT = { font: "Helvetica, Arial, sans-serif", labelFontSize: 11, titleFontSize: 12 };

function base(title: string, width: number, height: number): VegaLiteSpec {
  return {
    $schema: SCHEMA,
    title: { text: title, fontSize: 14 },
    width,
    height,
    background: "white",
    config: { axis: FONT, legend: FONT, view: { stroke: null } },
  };
}

export interface LinePoint {
  series: string;
  x: number;
  y: number;
  /** Optional interval drawn as error bars. */
  low?: number;
  high?: number;
}

/** One line per series (e.g. utility against price decile per agent). */
export function lineChart(args: {
  title: string;
  points: readonly LinePoint[];
  xTitle: string;
  yTitle: string;
  logX?: boolean;
  width?: number;
  height?: number;
}): VegaLiteSpec {
  const x = { field: "x", type: "quantitative", title: args.xTitle, scale: args.logX ? { type: "log" } : {} };
  const color = { field: "series", type: "nominal", title: null };
  return {
    ...base(args.title, args.width ?? 560, args.height ?? 340),
    data: { values: args.points },
    layer: [
      {
        mark: { type: "line", point: true, strokeWidth: 1.5 },
        encoding: { x, y: { field: "y", type: "quantitative", title: args.yTitle }, color },
      },
    ],
  };
}

export interface LabelledPoint {
  x: number;
  y: number;
  label: string;
  group?: string;
}

/** A scatter with a text label beside each point (e.g. the price–quality map). */
export function labelledScatter(args: {
  title: string;
  points: readonly LabelledPoint[];
  xTitle: string;
  yTitle: string;
  width?: number;
  height?: number;
}): VegaLiteSpec {
  const enc = {
    x: { field: "x", type: "quantitative", title: args.xTitle, scale: { zero: false } },
    y: { field: "y", type: "quantitative", title: args.yTitle, scale: { zero: false } },
  };
  return {
    ...base(args.title, args.width ?? 560, args.height ?? 400),
    data: { values: args.points },
    layer: [
      {
        mark: { type: "point", filled: true, size: 60 },
        encoding: { ...enc, color: { field: "group", type: "nominal", title: null } },
      },
      {
        mark: { type: "text", align: "left", dx: 6, dy: -4, fontSize: 10 },
        encoding: { ...enc, text: { field: "label" } },
      },
    ],
  };
}

export interface IntervalRow {
  label: string;
  estimate: number;
  low?: number;
  high?: number;
}

/** Estimates with intervals, one row per label, sorted by estimate (a forest / ranking plot). */
export function intervalChart(args: {
  title: string;
  rows: readonly IntervalRow[];
  xTitle: string;
  logX?: boolean;
  width?: number;
}): VegaLiteSpec {
  const sorted = [...args.rows].sort((a, b) => b.estimate - a.estimate);
  const y = { field: "label", type: "nominal", title: null, sort: sorted.map((r) => r.label) };
  const scale = args.logX ? { type: "log" } : { zero: false };
  return {
    ...base(args.title, args.width ?? 520, Math.max(120, 22 * sorted.length)),
    data: { values: sorted },
    layer: [
      {
        transform: [{ filter: "isValid(datum.low) && isValid(datum.high)" }],
        mark: { type: "rule", strokeWidth: 2, color: "#888" },
        encoding: {
          y,
          x: { field: "low", type: "quantitative", title: args.xTitle, scale },
          x2: { field: "high" },
        },
      },
      {
        mark: { type: "point", filled: true, size: 50, color: "#1f77b4" },
        encoding: { y, x: { field: "estimate", type: "quantitative", title: args.xTitle, scale } },
      },
    ],
  };
}
