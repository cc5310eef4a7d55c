/**
 * The pair-clustered percentile bootstrap of price-equivalents: resample whole product pairs with
 * replacement (the pair is the unit the estimand generalises over), rebuild the cell-balanced curves
 * from the resampled pairs and read their crossings again. Censored draws enter as ±∞, so an
 * interval end that reaches them is itself a bound ("floor": PE ≤ 0; "right": PE > g_max). The
 * reported interval is the percentile interval with the small-cluster stretch of small-sample.ts.
 */
import type { Rng } from "../../environments/kernel/rng.ts";
import { resampleIndices } from "../stats/index.ts";
import { ALL_STATES, balancedCurve, type CellTable, CUED_FIRST_STATES, CUED_SECOND_STATES } from "./cells.ts";
import { extendedQuantile, extendedValue, priceEquivalent } from "./crossing.ts";
import { smallClusterFactor } from "./small-sample.ts";
import type { IntervalEnd, PeInterval } from "./types.ts";

export interface ConditionIntervals {
  pooled: PeInterval;
  cuedFirst: PeInterval;
  cuedSecond: PeInterval;
}

const extended = (e: IntervalEnd) =>
  e === "floor" ? Number.NEGATIVE_INFINITY : e === "right" ? Number.POSITIVE_INFINITY : e;

function toEnd(q: number, gMax: number): IntervalEnd {
  if (q < 0) return "floor";
  if (q > gMax) return "right";
  return q;
}

function interval(draws: number[], point: number, clusters: number, gMax: number, level: number): PeInterval {
  const sorted = draws.filter((d) => !Number.isNaN(d)).sort((a, b) => a - b);
  const floorDraws = sorted.filter((d) => d === Number.NEGATIVE_INFINITY).length;
  const rightDraws = sorted.filter((d) => d === Number.POSITIVE_INFINITY).length;
  const stretch = smallClusterFactor(clusters, level);
  if (sorted.length === 0) {
    const none = { low: "floor", high: "right" } as const;
    return { level, ...none, percentile: none, clusters, stretch, floorDraws, rightDraws, draws: 0 };
  }
  const lo = extendedQuantile(sorted, (1 - level) / 2);
  const hi = extendedQuantile(sorted, (1 + level) / 2);
  const percentile = { low: toEnd(lo, gMax), high: toEnd(hi, gMax) };
  // Stretch each side away from a point estimate; a censored end or estimate stays as it is.
  const finite = Number.isFinite(point);
  return {
    level,
    low: finite && Number.isFinite(lo) ? toEnd(point - stretch * (point - lo), gMax) : percentile.low,
    high: finite && Number.isFinite(hi) ? toEnd(point + stretch * (hi - point), gMax) : percentile.high,
    percentile,
    clusters,
    stretch,
    floorDraws,
    rightDraws,
    draws: sorted.length,
  };
}

/** B resamples of pairs; for each, the pooled and the two per-order crossings. */
export function pairClusteredIntervals(
  t: CellTable,
  resamples: number,
  rng: Rng,
  level = 0.95,
): ConditionIntervals {
  const g = t.pairs.length;
  const pooled: number[] = new Array(resamples);
  const first: number[] = new Array(resamples);
  const second: number[] = new Array(resamples);
  const weights = new Float64Array(g);
  for (let b = 0; b < resamples; b++) {
    weights.fill(0);
    for (const i of resampleIndices(rng, g)) weights[i] = (weights[i] as number) + 1;
    pooled[b] = extendedValue(priceEquivalent(balancedCurve(t, ALL_STATES, weights)));
    first[b] = extendedValue(priceEquivalent(balancedCurve(t, CUED_FIRST_STATES, weights)));
    second[b] = extendedValue(priceEquivalent(balancedCurve(t, CUED_SECOND_STATES, weights)));
  }
  const gMax = t.premiums.at(-1) ?? 0;
  const point = (states: readonly number[]) => extendedValue(priceEquivalent(balancedCurve(t, states)));
  return {
    pooled: interval(pooled, point(ALL_STATES), g, gMax, level),
    cuedFirst: interval(first, point(CUED_FIRST_STATES), g, gMax, level),
    cuedSecond: interval(second, point(CUED_SECOND_STATES), g, gMax, level),
  };
}

/** Whether an interval covers a value on the extended line (for recovery studies). */
export function intervalCovers(iv: PeInterval, value: number): boolean {
  return extended(iv.low) <= value && value <= extended(iv.high);
}
