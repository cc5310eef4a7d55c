/**
 * Chart builders every audit can reuse: each returns a Vega-Lite spec (plain data) for `renderSvg`.
 */
import { placeLabels } from "./labels.ts";
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
  /** Optional interval drawn as an error bar. */
  low?: number;
  high?: number;
}

/**
 * One line per series (e.g. utility against price decile per agent), each point's interval drawn as
 * an error bar where it has one. `wholeX`: x counts something (a position, a rank, k) and gets whole
 * ticks only; where several series have intervals, their points sit a little apart along x so no
 * bar hides another. The legend sits under the plot and names every series whole.
 */
export function lineChart(args: {
  title: string;
  subtitle?: string | string[];
  points: readonly LinePoint[];
  xTitle: string;
  yTitle: string;
  logX?: boolean;
  wholeX?: boolean;
  /** A Vega expression for the x tick labels (e.g. "6+" for the last rank), over `datum.value`. */
  xLabelExpr?: string;
  width?: number;
  height?: number;
}): VegaLiteSpec {
  const series = [...new Set(args.points.map((p) => p.series))];
  const withIntervals = args.points.some((p) => p.low !== undefined && p.high !== undefined);
  const dodge = args.wholeX && withIntervals && series.length > 1 ? Math.min(0.12, 0.4 / series.length) : 0;
  const values = args.points.map((p) => ({
    ...p,
    px: p.x + dodge * (series.indexOf(p.series) - (series.length - 1) / 2),
  }));
  const xs = args.points.map((p) => p.x);
  const axis = {
    ...(args.wholeX ? { tickMinStep: 1, format: "d" } : {}),
    ...(args.xLabelExpr ? { labelExpr: args.xLabelExpr } : {}),
  };
  const scale = args.logX
    ? { type: "log" }
    : args.wholeX && xs.length > 0
      ? // A third of a step each side keeps the dodged bars and the end points off the axis lines.
        { domain: [Math.min(...xs) - 0.3, Math.max(...xs) + 0.3], nice: false, zero: false }
      : {};
  const x = { field: "px", type: "quantitative", title: args.xTitle, scale, axis };
  const y = { field: "y", type: "quantitative", title: args.yTitle };
  const color = {
    field: "series",
    type: "nominal",
    title: null,
    sort: series,
    legend: { orient: "bottom", direction: "vertical", columns: 1, labelLimit: 0, symbolOpacity: 1 },
  };
  return {
    ...base(args.title, args.width ?? 560, args.height ?? 340),
    ...(args.subtitle
      ? { title: { text: args.title, fontSize: 14, subtitle: args.subtitle, subtitleFontSize: 10 } }
      : {}),
    data: { values },
    layer: [
      ...(withIntervals
        ? [
            {
              transform: [{ filter: "isValid(datum.low) && isValid(datum.high)" }],
              mark: { type: "rule", strokeWidth: 1.5, opacity: 0.6 },
              encoding: { x, y: { ...y, field: "low" }, y2: { field: "high" }, color },
            },
          ]
        : []),
      {
        mark: { type: "line", point: true, strokeWidth: 1.5 },
        encoding: { x, y, color },
      },
    ],
  };
}

export interface LabelledPoint {
  x: number;
  y: number;
  label: string;
  group?: string;
  /** Drawn on top, larger, in the highlight colour, and labelled first (the user's own model). */
  highlight?: boolean;
}

/** A guide line through the origin, y = slope · x, labelled at its end (e.g. iso-WTP rays). */
export interface GuideRay {
  slope: number;
  label: string;
}

const HIGHLIGHT = "#e8590c";
const GROUP_COLORS = ["#1f77b4", "#9e9e9e", "#2ca02c", "#9467bd", "#8c564b"];

function paddedDomain(values: readonly number[], include: readonly number[] = []): [number, number] {
  const all = [...values, ...include].filter(Number.isFinite);
  if (all.length === 0) return [0, 1];
  let lo = Math.min(...all);
  let hi = Math.max(...all);
  if (hi === lo) {
    lo -= 1;
    hi += 1;
  }
  const pad = 0.06 * (hi - lo);
  return [lo - pad, hi + pad];
}

/**
 * A scatter with a text label beside each point (e.g. the price–quality map). Labels are placed so
 * that none collides with another or covers a point (`placeLabels`): beside the point where there is
 * room, further out with a leader line where there is not, and as a number with a key under the
 * plot where no room is left. Optional guide rays through the origin.
 */
export function labelledScatter(args: {
  title: string;
  subtitle?: string;
  points: readonly LabelledPoint[];
  xTitle: string;
  yTitle: string;
  guides?: readonly GuideRay[];
  /** Colour order of the groups (default: order of first appearance). */
  groups?: readonly string[];
  width?: number;
  height?: number;
}): VegaLiteSpec {
  const width = args.width ?? 760;
  const height = args.height ?? 520;
  const fontSize = 10;
  const xd = paddedDomain(args.points.map((p) => p.x));
  const yd = paddedDomain(args.points.map((p) => p.y));
  const px = (x: number) => ((x - xd[0]) / (xd[1] - xd[0])) * width;
  const py = (y: number) => height - ((y - yd[0]) / (yd[1] - yd[0])) * height;
  const layout = placeLabels(
    args.points.map((p) => ({
      x: px(p.x),
      y: py(p.y),
      label: p.label,
      priority: p.highlight,
      bold: p.highlight,
      // Marker areas 140 and 55 px²: radii √(area/π).
      radius: p.highlight ? 7 : 4.5,
    })),
    { width, height, fontSize, markerRadius: 5 },
  );
  const values = args.points.map((p, i) => {
    const l = layout.labels[i]!;
    return {
      x: p.x,
      y: p.y,
      px: px(p.x),
      py: py(p.y),
      lx: l.x,
      ly: l.y,
      text: l.text,
      leader: l.leader,
      group: p.highlight ? "yours" : (p.group ?? ""),
      highlight: p.highlight === true,
    };
  });
  // Guide rays: from the origin leftwards (x ≤ 0), clipped to the plot.
  const rays = (args.guides ?? []).flatMap((g) => {
    const seg = clipSegment([0, 0], [xd[0], g.slope * xd[0]], xd, yd);
    if (!seg) return [];
    const [[x1, y1], [x2, y2]] = seg;
    return [{ x1: px(x1), y1: py(y1), x2: px(x2), y2: py(y2), label: g.label }];
  });
  const present = new Set(values.map((v) => v.group).filter((g) => g !== "yours" && g !== ""));
  const groups = [
    ...(args.groups ?? []).filter((g) => present.has(g)),
    ...[...present].filter((g) => !args.groups?.includes(g)),
  ];
  const domain = [...groups, ...(values.some((v) => v.highlight) ? ["yours"] : [])];
  const range = [...groups.map((_, i) => GROUP_COLORS[i % GROUP_COLORS.length]), HIGHLIGHT];
  const pixel = (field: string) => ({ field, type: "quantitative", scale: null, axis: null });
  const key = layout.key;
  const subtitle = [args.subtitle, ...(key.length ? ["Numbered points:", ...chunk(key, 3)] : [])].filter(
    (t): t is string => t !== undefined,
  );
  return {
    ...base(args.title, width, height),
    title: { text: args.title, fontSize: 14, ...(subtitle.length ? { subtitle, subtitleFontSize: 10 } : {}) },
    layer: [
      ...(rays.length
        ? [
            {
              data: { values: rays },
              mark: { type: "rule", strokeDash: [4, 4], color: "#c8c8c8", strokeWidth: 1 },
              encoding: { x: pixel("x1"), y: pixel("y1"), x2: { field: "x2" }, y2: { field: "y2" } },
            },
            {
              data: { values: rays },
              mark: { type: "text", fontSize: 9, color: "#9a9a9a", align: "left", dx: 3, dy: -3 },
              encoding: { x: pixel("x2"), y: pixel("y2"), text: { field: "label" } },
            },
          ]
        : []),
      {
        data: { values: values.filter((v) => v.leader) },
        mark: { type: "rule", color: "#b5b5b5", strokeWidth: 0.7 },
        encoding: { x: pixel("px"), y: pixel("py"), x2: { field: "lx" }, y2: { field: "ly" } },
      },
      {
        data: { values },
        mark: { type: "point", filled: true, opacity: 0.9 },
        encoding: {
          x: {
            field: "x",
            type: "quantitative",
            title: args.xTitle,
            scale: { domain: xd, nice: false, zero: false },
          },
          y: {
            field: "y",
            type: "quantitative",
            title: args.yTitle,
            scale: { domain: yd, nice: false, zero: false },
          },
          color: { field: "group", type: "nominal", title: null, scale: { domain, range } },
          size: { condition: { test: "datum.highlight", value: 140 }, value: 55 },
        },
      },
      ...[false, true].map((mine) => ({
        data: { values: values.filter((v) => v.highlight === mine) },
        mark: {
          type: "text",
          fontSize,
          align: "center",
          baseline: "middle",
          fontWeight: mine ? "bold" : "normal",
          color: mine ? HIGHLIGHT : "#333333",
        },
        encoding: { x: pixel("lx"), y: pixel("ly"), text: { field: "text" } },
      })),
    ],
  };
}

/** Liang–Barsky: the part of segment a→b inside the box, or null. */
function clipSegment(
  a: [number, number],
  b: [number, number],
  xd: [number, number],
  yd: [number, number],
): [[number, number], [number, number]] | null {
  let t0 = 0;
  let t1 = 1;
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const edges: [number, number][] = [
    [-dx, a[0] - xd[0]],
    [dx, xd[1] - a[0]],
    [-dy, a[1] - yd[0]],
    [dy, yd[1] - a[1]],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return null;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return null;
  }
  return [
    [a[0] + t0 * dx, a[1] + t0 * dy],
    [a[0] + t1 * dx, a[1] + t1 * dy],
  ];
}

function chunk(items: readonly string[], per: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < items.length; i += per) out.push(items.slice(i, i + per).join("    "));
  return out;
}

export interface IntervalRow {
  label: string;
  estimate: number;
  low?: number;
  high?: number;
  /** Drawn in the highlight colour, its label in bold (the user's own model). */
  highlight?: boolean;
  /** Printed at the right of the row, e.g. "$1,071". */
  valueLabel?: string;
}

/** Estimates with intervals, one row per label, sorted by estimate (a forest / ranking plot). */
export function intervalChart(args: {
  title: string;
  subtitle?: string;
  rows: readonly IntervalRow[];
  xTitle: string;
  logX?: boolean;
  width?: number;
}): VegaLiteSpec {
  const sorted = [...args.rows].sort((a, b) => b.estimate - a.estimate);
  const values = sorted.map((r) => ({ ...r, highlight: r.highlight === true, right: r.high ?? r.estimate }));
  const mine = sorted.filter((r) => r.highlight).map((r) => r.label);
  const y = {
    field: "label",
    type: "nominal",
    title: null,
    sort: sorted.map((r) => r.label),
    axis: {
      labelLimit: 0,
      labelFontSize: 11,
      ...(mine.length
        ? {
            labelFontWeight: {
              condition: { test: `indexof(${JSON.stringify(mine)}, datum.value) >= 0`, value: "bold" },
              value: "normal",
            },
            labelColor: {
              condition: { test: `indexof(${JSON.stringify(mine)}, datum.value) >= 0`, value: HIGHLIGHT },
              value: "#333333",
            },
          }
        : {}),
    },
  };
  const lows = sorted.map((r) => r.low ?? r.estimate);
  const highs = sorted.map((r) => r.high ?? r.estimate);
  // A log axis spans the data (with room on the right for the value labels), not whole decades.
  const logDomain: [number, number] = [Math.min(...lows) / 1.25, Math.max(...highs) * 1.6];
  const logTicks = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000].filter(
    (t) => t >= logDomain[0] && t <= logDomain[1],
  );
  const scale = args.logX ? { type: "log", domain: logDomain, nice: false } : { zero: false };
  const axis = args.logX ? { values: logTicks, format: "$,d" } : {};
  const color = { condition: { test: "datum.highlight", value: HIGHLIGHT }, value: "#1f77b4" };
  const spec: VegaLiteSpec = {
    ...base(args.title, args.width ?? 560, Math.max(120, 22 * sorted.length)),
    title: {
      text: args.title,
      fontSize: 14,
      ...(args.subtitle ? { subtitle: args.subtitle, subtitleFontSize: 10 } : {}),
    },
    data: { values },
    layer: [
      {
        transform: [{ filter: "isValid(datum.low) && isValid(datum.high)" }],
        mark: { type: "rule", strokeWidth: 2 },
        encoding: {
          y,
          x: { field: "low", type: "quantitative", title: args.xTitle, scale, axis },
          x2: { field: "high" },
          color: { condition: { test: "datum.highlight", value: HIGHLIGHT }, value: "#9a9a9a" },
        },
      },
      {
        mark: { type: "point", filled: true, size: 50 },
        encoding: {
          y,
          x: { field: "estimate", type: "quantitative", title: args.xTitle, scale, axis },
          color,
        },
      },
    ],
  };
  if (sorted.some((r) => r.valueLabel))
    (spec.layer as unknown[]).push({
      mark: { type: "text", align: "left", dx: 6, fontSize: 10 },
      encoding: {
        y,
        x: { field: "right", type: "quantitative", scale },
        text: { field: "valueLabel" },
        color: { condition: { test: "datum.highlight", value: HIGHLIGHT }, value: "#555555" },
      },
    });
  return spec;
}

export interface GroupedInterval {
  /** The row (e.g. a tag), shared by the series. */
  category: string;
  /** Who (e.g. an agent): a colour, named whole in the legend. */
  series: string;
  estimate: number;
  low?: number;
  high?: number;
}

/**
 * Estimates with intervals, a row per category and within it a dot and bar per series (an agent's
 * colour, named in the legend under the plot): long series names go in the key once, not in every
 * row's label, and the rows stay short enough to read at a glance. A zero line marks "no effect".
 */
export function groupedIntervalChart(args: {
  title: string;
  subtitle?: string | string[];
  rows: readonly GroupedInterval[];
  /** Row order (default: order of first appearance). */
  categories?: readonly string[];
  xTitle: string;
  width?: number;
}): VegaLiteSpec {
  const categories = args.categories ?? [...new Set(args.rows.map((r) => r.category))];
  const series = [...new Set(args.rows.map((r) => r.series))];
  const values = args.rows.map((r) => ({ ...r, low: r.low ?? null, high: r.high ?? null }));
  const finite = args.rows.flatMap((r) =>
    [r.estimate, r.low, r.high].filter((x): x is number => x !== undefined),
  );
  const lo = Math.min(0, ...finite);
  const hi = Math.max(0, ...finite);
  const pad = 0.06 * (hi - lo || 1);
  const scale = { domain: [lo - pad, hi + pad], nice: false };
  const y = {
    field: "category",
    type: "nominal",
    title: null,
    sort: categories,
    scale: { domain: categories },
    axis: { labelLimit: 0, labelFontSize: 11 },
  };
  const several = series.length > 1;
  const yOffset = several ? { yOffset: { field: "series", type: "nominal", sort: series } } : {};
  const color = {
    field: "series",
    type: "nominal",
    sort: series,
    title: null,
    legend: { orient: "bottom", direction: "vertical", columns: 1, labelLimit: 0, symbolOpacity: 1 },
  };
  const x = (field: string) => ({ field, type: "quantitative", scale, title: args.xTitle });
  const rowHeight = several ? 14 * series.length + 10 : 22;
  return {
    ...base(args.title, args.width ?? 560, rowHeight * categories.length),
    title: {
      text: args.title,
      fontSize: 14,
      ...(args.subtitle ? { subtitle: args.subtitle, subtitleFontSize: 10 } : {}),
    },
    data: { values },
    layer: [
      { mark: { type: "rule", color: "#bbbbbb", strokeDash: [4, 3] }, encoding: { x: { datum: 0, scale } } },
      {
        transform: [{ filter: "isValid(datum.low) && isValid(datum.high)" }],
        mark: { type: "rule", strokeWidth: 2, opacity: 0.7 },
        encoding: { y, ...yOffset, x: x("low"), x2: { field: "high" }, color },
      },
      {
        mark: { type: "point", filled: true, size: 50, opacity: 1 },
        encoding: { y, ...yOffset, x: x("estimate"), color },
      },
    ],
  };
}

export interface PanelPoint {
  /** The panel (one per series), e.g. an agent's display name. */
  panel: string;
  x: number;
  y: number;
  /** "own" for the panel's curve, "reference" for a curve repeated in every panel for comparison. */
  role: "own" | "reference";
  highlight?: boolean;
}

/**
 * Small multiples: one panel per series, titled with its full name (wrapped, never cut), on shared
 * axes; a reference curve (the user's own model) can be drawn dashed in every panel.
 */
export function panelChart(args: {
  title: string;
  subtitle?: string | string[];
  points: readonly PanelPoint[];
  /** Panel order. */
  panels: readonly string[];
  xTitle: string;
  yTitle: string;
  logX?: boolean;
  xTicks?: readonly number[];
  columns?: number;
}): VegaLiteSpec {
  const columns = args.columns ?? 6;
  const x = {
    field: "x",
    type: "quantitative",
    title: args.xTitle,
    scale: args.logX ? { type: "log" } : {},
    axis: args.xTicks ? { values: args.xTicks, format: "$,d", labelFontSize: 9 } : { labelFontSize: 9 },
  };
  const y = { field: "y", type: "quantitative", title: args.yTitle, axis: { labelFontSize: 9 } };
  return {
    $schema: SCHEMA,
    title: {
      text: args.title,
      fontSize: 14,
      ...(args.subtitle ? { subtitle: args.subtitle, subtitleFontSize: 10 } : {}),
    },
    background: "white",
    config: { axis: FONT, legend: FONT, view: { stroke: "#dddddd" } },
    data: { values: args.points.map((p) => ({ ...p, highlight: p.highlight === true })) },
    columns,
    facet: {
      field: "panel",
      type: "nominal",
      sort: [...args.panels],
      title: null,
      // Panel names are given wrapped, lines joined by "|" (see `wrapLabel`); nothing is cut.
      header: { labelLimit: 0, labelFontSize: 11, labelExpr: "split(datum.value, '|')" },
    },
    spec: {
      width: 118,
      height: 96,
      layer: [
        { mark: { type: "rule", color: "#dddddd" }, encoding: { y: { datum: 0 } } },
        {
          transform: [{ filter: "datum.role === 'reference'" }],
          mark: { type: "line", strokeDash: [3, 3], strokeWidth: 1.2, color: HIGHLIGHT, opacity: 0.8 },
          encoding: { x, y },
        },
        {
          transform: [{ filter: "datum.role === 'own'" }],
          mark: { type: "line", point: { size: 14 }, strokeWidth: 1.6 },
          encoding: {
            x,
            y,
            color: { condition: { test: "datum.highlight", value: HIGHLIGHT }, value: "#1f77b4" },
          },
        },
      ],
    },
    resolve: { scale: { x: "shared", y: "shared" } },
  };
}

/**
 * A label broken into lines of at most `n` characters: at spaces, and a word longer than a line (an
 * agent spec: "openai:meta-llama/Llama-3.3-70B-Instruct-Turbo") after its last ':', '/', '-', '_'
 * or '.' that fits, else at `n` — so a long name takes a few lines of a panel's width instead of
 * stretching its column, and every character of it is still shown.
 */
export function wrapLabel(text: string, n: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length <= n) {
      line += ` ${word}`;
      continue;
    }
    if (line !== "") lines.push(line);
    const pieces = splitWord(word, n);
    lines.push(...pieces.slice(0, -1));
    line = pieces.at(-1)!;
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** A word cut into pieces of at most `n` characters, after a separator where one falls in the piece. */
function splitWord(word: string, n: number): string[] {
  const pieces: string[] = [];
  let rest = word;
  while (rest.length > n) {
    let cut = -1;
    for (let i = n - 1; i >= Math.floor(n / 3); i--)
      if (":/-_.".includes(rest[i]!)) {
        cut = i + 1;
        break;
      }
    if (cut < 0) cut = n;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  pieces.push(rest);
  return pieces;
}
