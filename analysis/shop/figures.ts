/**
 * The shop report's figures as Vega-Lite specs (rendered by analysis/report's `renderSvg`): the
 * rank-effect curve in dollars, the funnel by rank, the pass^k curve, the tags' price-equivalents,
 * (where descriptions vary) the description arms' price-equivalents, and (with offers) the price
 * ladders and the discount by buyer.
 */
import { type GroupedInterval, groupedIntervalChart, type LinePoint, lineChart } from "../report/charts.ts";
import type { VegaLiteSpec } from "../report/svg.ts";
import type { ShopAnalysis } from "./analyze.ts";
import { armPriceEquivalentChart } from "./arms-figure.ts";
import { discountChart, priceLadderChart } from "./negotiation-figures.ts";

export interface ShopFigure {
  file: string;
  title: string;
  spec: VegaLiteSpec;
}

export function shopFigures(analysis: ShopAnalysis): ShopFigure[] {
  const rankPoints: LinePoint[] = [];
  const funnelPoints: LinePoint[] = [];
  const passPoints: LinePoint[] = [];
  const tagRows: GroupedInterval[] = [];
  const rankOf = (name: string) => (name === "rank6plus" ? 6 : Number(name.slice(4)));
  for (const a of analysis.agents) {
    if (a.logit.status === "ok") {
      rankPoints.push({ series: a.agent, x: 1, y: 0 });
      for (const r of a.logit.rankCurve)
        rankPoints.push({ series: a.agent, x: rankOf(r.name), y: r.dollars, low: r.low, high: r.high });
      for (const p of a.logit.priceEquivalents)
        tagRows.push({ category: p.label, series: a.agent, estimate: p.dollars, low: p.low, high: p.high });
    }
    for (const r of a.funnel.byRank)
      if (r.rate !== null) funnelPoints.push({ series: a.agent, x: r.rank, y: r.rate });
    for (const p of a.passK)
      passPoints.push({
        series: a.agent,
        x: p.k,
        y: p.estimate,
        low: p.low ?? undefined,
        high: p.high ?? undefined,
      });
  }
  const price = `$${analysis.referencePrice}`;
  const level = Math.round(100 * analysis.level);
  const out: ShopFigure[] = [];
  if (rankPoints.length > 0)
    out.push({
      file: "shop-rank-effect.svg",
      title: `Rank effect in dollars (vs rank 1, at ${price} a night)`,
      spec: lineChart({
        title: `Rank effect in dollars (vs rank 1, at ${price} a night)`,
        subtitle: `bars: ${level}% delta-method intervals (SEs clustered by task); rank 1 is the reference`,
        points: rankPoints,
        xTitle: "position on the page",
        yTitle: "dollar equivalent",
        wholeX: true,
        xLabelExpr: "datum.value === 6 ? '6 and below' : datum.label",
      }),
    });
  if (funnelPoints.length > 0)
    out.push({
      file: "shop-funnel.svg",
      title: "P(viewed | shown) by position on the page",
      spec: lineChart({
        title: "P(viewed | shown) by position on the page",
        points: funnelPoints,
        xTitle: "position on the page",
        yTitle: "share opened",
        wholeX: true,
      }),
    });
  if (passPoints.length > 0)
    out.push({
      file: "shop-pass-k.svg",
      title: "pass^k: all k trials of a task succeed",
      spec: lineChart({
        title: "pass^k: all k trials of a task succeed",
        subtitle: "bars: task-bootstrap intervals",
        points: passPoints,
        xTitle: "k",
        yTitle: "pass^k",
        wholeX: true,
      }),
    });
  if (tagRows.length > 0)
    out.push({
      file: "shop-price-equivalents.svg",
      title: `Price-equivalents of tags and position (at ${price})`,
      spec: groupedIntervalChart({
        title: `Price-equivalents of tags and position (at ${price})`,
        subtitle: `dot: what a listing with it may cost more a night and still be booked as often; bar: ${level}% delta-method interval`,
        rows: tagRows,
        xTitle: "dollars a night",
      }),
    });
  const arms = armPriceEquivalentChart(analysis);
  if (arms)
    out.push({
      file: "shop-arm-price-equivalents.svg",
      title: `Price-equivalents of the description arms (at ${price})`,
      spec: arms,
    });
  const n = analysis.negotiation;
  const ladders = n ? priceLadderChart(n) : null;
  if (ladders)
    out.push({
      file: "shop-price-ladders.svg",
      title: "Price ladders: example negotiations per buyer × seller",
      spec: ladders,
    });
  const discount = n ? discountChart(n) : null;
  if (discount)
    out.push({
      file: "shop-discount.svg",
      title: "Discount against the list price, by buyer",
      spec: discount,
    });
  return out;
}
