/**
 * How an option becomes covariates: the attribute coding of the PriceBench reference (bed rank,
 * review count per 100, 0/1 flags), the three price forms, and chain and neighborhood dummies.
 */
import { CHAIN_FAMILIES } from "../../datasets/hotels/schema.ts";
import { bedRank } from "../../environments/choice/attributes.ts";
import type { ChoiceOption, TaskKind } from "../../environments/choice/types.ts";
import { sortedQuantile } from "../stats/index.ts";
import type { ChoiceTrial, PriceForm } from "./types.ts";

/** The non-price attributes in every specification, in the reference's order. */
export const ATTRIBUTE_NAMES = [
  "stars",
  "bed",
  "cancellation",
  "breakfast",
  "review",
  "reviewCount100",
] as const;
export type AttributeName = (typeof ATTRIBUTE_NAMES)[number];

/** Index of the review-score coefficient among the attributes (the numerator of WTP). */
export const REVIEW_INDEX = ATTRIBUTE_NAMES.indexOf("review");

export function attributeValues(o: ChoiceOption): number[] {
  return [
    o.stars,
    bedRank(o.roomType),
    o.freeCancellation ? 1 : 0,
    o.breakfast ? 1 : 0,
    o.reviewScore,
    o.reviewCount / 100,
  ];
}

export const DECILES = 10;

export function priceTermNames(form: PriceForm): string[] {
  if (form === "linear") return ["price"];
  if (form === "log") return ["lnPrice"];
  return Array.from({ length: DECILES - 1 }, (_, i) => `priceD${i + 2}`);
}

/**
 * Decile cut points of a price sample, as the reference computes them: percentiles 0, 10, …, 100
 * (linear interpolation, numpy's default) with the bottom edge lowered by 0.5 so that the cheapest
 * price falls inside D1; bins are closed on the right.
 */
export function priceDecileEdges(prices: readonly number[]): number[] {
  if (prices.length === 0) throw new RangeError("priceDecileEdges needs at least one price");
  const sorted = Float64Array.from(prices).sort();
  const edges = Array.from({ length: DECILES + 1 }, (_, i) => sortedQuantile(sorted, i / DECILES));
  edges[0] = (edges[0] as number) - 0.5;
  return edges;
}

/**
 * The 1-based decile of a price: the bin (edges[d−1], edges[d]]. A price outside the cut points
 * (possible only when edges are reused on other tasks) is put in the nearest end decile.
 */
export function priceDecile(price: number, edges: readonly number[]): number {
  for (let d = 1; d < edges.length; d++) if (price <= (edges[d] as number)) return d;
  return edges.length - 1;
}

/** Median price within each decile (NaN for an empty bin): the x position of a decile curve. */
export function decileMedians(prices: readonly number[], edges: readonly number[]): number[] {
  const bins: number[][] = Array.from({ length: edges.length - 1 }, () => []);
  for (const p of prices) bins[priceDecile(p, edges) - 1]?.push(p);
  return bins.map((b) => (b.length === 0 ? Number.NaN : sortedQuantile(Float64Array.from(b).sort(), 0.5)));
}

export function priceTerms(o: ChoiceOption, form: PriceForm, edges?: readonly number[]): number[] {
  if (form === "linear") return [o.price];
  if (form === "log") return [Math.log(o.price)];
  if (!edges) throw new RangeError("the decile price form needs decile edges");
  const d = priceDecile(o.price, edges);
  return Array.from({ length: DECILES - 1 }, (_, i) => (d === i + 2 ? 1 : 0));
}

export const CHAIN_NAMES = CHAIN_FAMILIES.map((c) => `chain${c}`);

export function chainDummies(o: ChoiceOption): number[] {
  return CHAIN_FAMILIES.map((c) => (o.chain === c ? 1 : 0));
}

export function neighborhoodDummies(o: ChoiceOption, levels: readonly string[]): number[] {
  return levels.map((n) => (o.neighborhood === n ? 1 : 0));
}

/**
 * Every option price of the tasks once — one price per option of each (set, appearance), however
 * many display orders and agents saw it: the reference's 9,000 pooled prices for PriceBench.
 */
export function pooledOptionPrices(
  trials: Iterable<ChoiceTrial>,
  kinds: readonly TaskKind[] = ["binary", "ternary"],
): number[] {
  const seen = new Set<string>();
  const prices: number[] = [];
  for (const t of trials) {
    if (!kinds.includes(t.kind)) continue;
    const key = `${t.kind}|${t.cluster}|${t.appearance}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // Canonical order, so the same appearance gives the same list whatever order it was shown in.
    const canonical = new Array<number>(t.options.length);
    t.order.forEach((c, slot) => {
      canonical[c] = (t.options[slot] as ChoiceOption).price;
    });
    prices.push(...canonical);
  }
  return prices;
}
