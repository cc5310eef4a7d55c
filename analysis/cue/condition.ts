/**
 * Everything the report says about one condition of one agent in one category: the pooled S(g)
 * curve and its model-free PE with censoring, the base rate, the per-order crossings, the per-pair
 * PEs and their median, pair-clustered bootstrap intervals, the logistic cross-check, the
 * first-option rates, and whether order-following leaves the PE unidentified.
 */
import type { Rng } from "../../environments/kernel/rng.ts";
import { type ConditionIntervals, pairClusteredIntervals } from "./bootstrap.ts";
import {
  ALL_STATES,
  balancedCurve,
  buildCellTable,
  type CellTable,
  CUED_FIRST_STATES,
  CUED_SECOND_STATES,
  onlyPair,
  STATE_COUNT,
} from "./cells.ts";
import { medianPriceEquivalent, priceEquivalent } from "./crossing.ts";
import { type LogisticCheck, logisticCrossCheck } from "./logistic.ts";
import type { BoundedValue, CueObservation, CurvePoint, PriceEquivalent } from "./types.ts";

export interface ConditionSettings {
  bootstrap: number;
  level: number;
  /** A first- (or last-) card rate at equal price at or above this pins the curve: not identified. */
  orderFollowingRate: number;
}

export interface ConditionEstimate {
  condition: string;
  family: string;
  intensity: string | null;
  oneSided: boolean;
  block: string;
  instruction: number;
  factors: Record<string, boolean> | null;
  trials: number;
  answered: number;
  nonResponses: number;
  pairs: string[];
  curve: CurvePoint[];
  cuedFirstCurve: CurvePoint[];
  cuedSecondCurve: CurvePoint[];
  /** S(0): the equal-price rate of choosing the cued product. */
  baseRate: number | null;
  /** The price-equivalent to report: the model-free crossing unless it is not identified. */
  pe: PriceEquivalent;
  /** The model-free crossing as computed, kept even when `pe` is not identified. */
  crossing: PriceEquivalent;
  interval: ConditionIntervals | null;
  /** Why there is no interval although the bootstrap ran (e.g. a single pair), else null. */
  intervalNote: string | null;
  cuedFirst: PriceEquivalent;
  cuedSecond: PriceEquivalent;
  /** The mean of the two per-order crossings (what the pooled PE is *not*), when both are points. */
  meanOfOrderCrossings: number | null;
  perPair: { pairId: string; pe: PriceEquivalent }[];
  pairMedian: BoundedValue;
  logistic: LogisticCheck;
  /** Share of answers that took the first card, over all premiums and at equal price. */
  firstOptionRate: number | null;
  equalPriceFirstRate: number | null;
}

function mean(points: readonly CurvePoint[]): number | null {
  let sum = 0;
  let n = 0;
  for (const p of points) {
    if (p.rate === null) continue;
    sum += p.rate * p.n;
    n += p.n;
  }
  return n > 0 ? sum / n : null;
}

/** Pairs with at least one answered trial: the clusters the bootstrap can tell apart. */
function answeredPairs(t: CellTable): number {
  const per = t.premiums.length * STATE_COUNT;
  let count = 0;
  for (let p = 0; p < t.pairs.length; p++) {
    let a = 0;
    for (let i = p * per; i < (p + 1) * per; i++) a += t.answered[i] as number;
    if (a > 0) count++;
  }
  return count;
}

export function estimateCondition(
  observations: readonly CueObservation[],
  settings: ConditionSettings,
  rng: Rng,
): ConditionEstimate {
  const first = observations[0] as CueObservation;
  const t = buildCellTable(observations);
  const curve = balancedCurve(t, ALL_STATES);
  const cuedFirstCurve = balancedCurve(t, CUED_FIRST_STATES);
  const cuedSecondCurve = balancedCurve(t, CUED_SECOND_STATES);
  const gMax = t.premiums.at(-1) ?? 0;
  const crossing = priceEquivalent(curve);
  const firstCurve = balancedCurve(t, ALL_STATES, undefined, "firstChosen");
  const equalPriceFirstRate = firstCurve[0]?.rate ?? null;
  let pe = crossing;
  if (equalPriceFirstRate !== null) {
    const follow = Math.max(equalPriceFirstRate, 1 - equalPriceFirstRate);
    if (follow >= settings.orderFollowingRate) {
      const which = equalPriceFirstRate >= 0.5 ? "first" : "second";
      pe = {
        kind: "not-identified",
        reason: `order-following: the ${which} card is chosen in ${(100 * follow).toFixed(1)}% of equal-price trials, which pins the counterbalanced rate at ½ — not a null`,
      };
    }
  }
  const cuedFirst = priceEquivalent(cuedFirstCurve);
  const cuedSecond = priceEquivalent(cuedSecondCurve);
  const perPair = t.pairs.map((pairId, p) => ({
    pairId,
    pe: priceEquivalent(balancedCurve(t, ALL_STATES, onlyPair(t, p))),
  }));
  const answered = observations.filter((o) => o.choseCued !== null).length;
  // Resampling one answered pair only ever redraws that pair: every draw equals the point, a
  // zero-width "interval" that measures nothing about between-pair spread.
  const intervalNote =
    settings.bootstrap === 0
      ? null
      : answered === 0
        ? "no answered trials"
        : answeredPairs(t) < 2
          ? "1 pair: a pair-clustered interval needs answers on 2 or more pairs"
          : null;
  return {
    condition: first.condition,
    family: first.family,
    intensity: first.intensity,
    oneSided: first.oneSided,
    block: first.block,
    instruction: first.instruction,
    factors: first.factors,
    trials: observations.length,
    answered,
    nonResponses: observations.length - answered,
    pairs: t.pairs,
    curve,
    cuedFirstCurve,
    cuedSecondCurve,
    baseRate: curve[0]?.rate ?? null,
    pe,
    crossing,
    interval:
      settings.bootstrap > 0 && intervalNote === null
        ? pairClusteredIntervals(t, settings.bootstrap, rng, settings.level)
        : null,
    intervalNote,
    cuedFirst,
    cuedSecond,
    meanOfOrderCrossings:
      cuedFirst.kind === "point" && cuedSecond.kind === "point"
        ? (cuedFirst.value + cuedSecond.value) / 2
        : null,
    perPair,
    pairMedian: medianPriceEquivalent(
      perPair.map((p) => p.pe),
      gMax,
    ),
    logistic: logisticCrossCheck(observations, gMax, crossing),
    firstOptionRate: mean(firstCurve),
    equalPriceFirstRate,
  };
}
