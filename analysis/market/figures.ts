/**
 * The market report's figures as Vega-Lite specs (rendered by analysis/report's `renderSvg`): each
 * shown market's shares over rounds and price paths (one line per seller, adopters solid, the rest
 * dashed; the legend names every seller in full), and the adoption curve (the adopters' share
 * against k/N, with intervals over markets, beside the equal-split diagonal).
 */
import type { VegaLiteSpec } from "../report/svg.ts";
import type { MarketAnalysis, MarketResult } from "./analyze.ts";

export interface MarketFigure {
  file: string;
  title: string;
  spec: VegaLiteSpec;
}

const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";
/** Twenty distinct hues (category10, then category20b's dark ones): no two sellers in light and dark of one hue. */
const SELLER_COLORS = [
  "#1f77b4",
  "#ff7f0e",
  "#2ca02c",
  "#d62728",
  "#9467bd",
  "#8c564b",
  "#e377c2",
  "#7f7f7f",
  "#bcbd22",
  "#17becf",
  "#393b79",
  "#637939",
  "#8c6d31",
  "#843c39",
  "#7b4173",
  "#5254a3",
  "#8ca252",
  "#bd9e39",
  "#ad494a",
  "#a55194",
];
const FONT = { font: "Helvetica, Arial, sans-serif", labelFontSize: 11, titleFontSize: 12 };

function base(title: string, subtitle: string | undefined, width: number, height: number): VegaLiteSpec {
  return {
    $schema: SCHEMA,
    title: { text: title, fontSize: 14, ...(subtitle ? { subtitle, subtitleFontSize: 11 } : {}) },
    width,
    height,
    background: "white",
    // Legend labels are never cut: a seller is named in full (labelLimit 0).
    config: { axis: FONT, legend: { ...FONT, labelLimit: 0, symbolStrokeWidth: 2 }, view: { stroke: null } },
  };
}

/** "3 · The Lindqvist, Midtown East (adopter)". */
export function sellerLabel(m: MarketResult, seller: number): string {
  const s = m.sellers.find((x) => x.seller === seller);
  if (!s) return `seller ${seller}`;
  return `${seller} · ${s.name}${s.adopter ? " (adopter)" : ""}`;
}

function perSellerChart(
  m: MarketResult,
  title: string,
  subtitle: string,
  yTitle: string,
  value: (r: MarketResult["rounds"][number]["sellers"][number]) => number | null,
  yFormat: string,
  zero: boolean,
): VegaLiteSpec {
  const labels = m.sellers.map((s) => sellerLabel(m, s.seller));
  const values = m.rounds.flatMap((r) =>
    r.sellers.flatMap((s) => {
      const y = value(s);
      if (y === null) return [];
      const info = m.sellers.find((x) => x.seller === s.seller);
      return [
        { round: r.round, y, seller: sellerLabel(m, s.seller), role: info?.adopter ? "adopter" : "static" },
      ];
    }),
  );
  const rounds = m.rounds.map((r) => r.round);
  return {
    ...base(title, subtitle, 560, 320),
    data: { values },
    mark: { type: "line", point: { size: 30 }, strokeWidth: 2 },
    encoding: {
      x: {
        field: "round",
        type: "quantitative",
        title: "round",
        scale: { domain: [Math.min(...rounds), Math.max(...rounds)], nice: false },
        axis: { tickMinStep: 1, format: "d" },
      },
      y: { field: "y", type: "quantitative", title: yTitle, axis: { format: yFormat }, scale: { zero } },
      color: {
        field: "seller",
        type: "nominal",
        title: "seller",
        sort: labels,
        scale: { domain: labels, range: labels.map((_, i) => SELLER_COLORS[i % SELLER_COLORS.length]) },
        legend: { orient: "right", columns: 1, symbolType: "stroke" },
      },
      // Adopters solid, the rest dashed (the legend names the adopters).
      strokeDash: {
        field: "role",
        type: "nominal",
        scale: {
          domain: ["adopter", "static"],
          range: [
            [1, 0],
            [5, 3],
          ],
        },
        legend: null,
      },
    },
  };
}

/** The markets whose sellers get figures: the first base market of each adoption level, at most `max`. */
export function figureMarkets(a: MarketAnalysis, max = 4): MarketResult[] {
  const out: MarketResult[] = [];
  for (const m of a.markets) if (!out.some((x) => x.k === m.k) && out.length < max) out.push(m);
  return out;
}

export function marketFigures(a: MarketAnalysis, marketId: string): MarketFigure[] {
  const out: MarketFigure[] = [];
  for (const m of figureMarkets(a)) {
    const sub = `${marketId}, market ${m.key}: ${m.k} of ${m.sellers.length} sellers adopt (solid lines; the static sellers dashed)`;
    out.push({
      file: `market-${m.key}-shares.svg`,
      title: `Shares over rounds (market ${m.key})`,
      spec: perSellerChart(
        m,
        "Share of bookings over rounds",
        sub,
        "share of the round's bookings",
        (s) => s.share,
        "%",
        true,
      ),
    });
    out.push({
      file: `market-${m.key}-prices.svg`,
      title: `Price paths (market ${m.key})`,
      spec: perSellerChart(
        m,
        "Nightly price over rounds",
        sub,
        "price buyers saw ($)",
        (s) => s.price,
        "$,d",
        false,
      ),
    });
  }
  const rows = a.adoption.filter((r) => r.adoptersShare !== null);
  if (rows.length > 0) {
    // Shares live in [0, 1]: an interval over few markets can reach past either end.
    const clamp = (x: number | null | undefined) =>
      x === null || x === undefined ? null : Math.min(1, Math.max(0, x));
    const points = rows.flatMap((r) => [
      {
        x: r.equalShare,
        y: r.adoptersShare!.mean,
        low: clamp(r.adoptersShare!.low),
        high: clamp(r.adoptersShare!.high),
        series: "adopters' share after round 1",
        label: `k = ${r.k}`,
        offset: false,
      },
      {
        x: r.equalShare,
        y: r.round1Share?.mean ?? null,
        low: clamp(r.round1Share?.low),
        high: clamp(r.round1Share?.high),
        series: "the same sellers in round 1",
        label: "",
        // Beside the adopters' point, not on it: both intervals stay visible.
        offset: true,
      },
    ]);
    const top = Math.min(1, Math.max(...points.map((p) => Math.max(p.x, p.high ?? p.y ?? 0))) * 1.1 + 0.02);
    const shift = top / 80;
    for (const p of points) p.x += p.offset ? shift : 0;
    const series = ["adopters' share after round 1", "the same sellers in round 1"];
    const color = {
      field: "series",
      type: "nominal",
      title: null,
      scale: { domain: series, range: ["#1f77b4", "#9e9e9e"] },
    };
    const x = {
      field: "x",
      type: "quantitative",
      title: "k / N (adopters' share of the sellers)",
      scale: { domain: [0, top], nice: false },
      axis: { format: "%" },
    };
    const y = {
      field: "y",
      type: "quantitative",
      title: "share of bookings",
      scale: { domain: [0, top], nice: false },
      axis: { format: "%" },
    };
    out.push({
      file: "market-adoption.svg",
      title: "Adoption curve",
      spec: {
        ...base(
          "Adopters' share of bookings against k/N",
          `${marketId}: mean over markets, 95% t intervals; the diagonal is an equal split`,
          460,
          380,
        ),
        layer: [
          {
            data: {
              values: [
                { x: 0, y: 0 },
                { x: top, y: top },
              ],
            },
            mark: { type: "line", color: "#c8c8c8", strokeDash: [4, 4] },
            encoding: { x, y },
          },
          {
            data: { values: points },
            transform: [{ filter: "isValid(datum.low) && isValid(datum.high)" }],
            mark: { type: "rule", strokeWidth: 1.5 },
            encoding: { x, y: { ...y, field: "low" }, y2: { field: "high" }, color },
          },
          {
            data: { values: points },
            transform: [{ filter: "isValid(datum.y)" }],
            mark: { type: "point", filled: true, size: 70 },
            encoding: { x, y, color: { ...color, legend: { orient: "bottom", direction: "vertical" } } },
          },
          {
            data: { values: points.filter((p) => p.label !== "") },
            mark: { type: "text", align: "left", dx: 8, dy: -8, fontSize: 11 },
            encoding: { x, y, text: { field: "label" } },
          },
        ],
      },
    });
  }
  return out;
}
