/**
 * The agent's price sensitivity, read from the cue-free price-only control (two identical products,
 * one dearer by g). Under a single-index model PE = cue pull / price sensitivity, so every raw PE is
 * read beside these numbers, never alone as cue strength.
 */
import { fitBinaryLogit } from "../logit/index.ts";
import type { ConditionEstimate } from "./condition.ts";
import { rateAt } from "./crossing.ts";
import { type Coefficient, coefficientOf } from "./logistic.ts";
import type { CueObservation, PriceEquivalent } from "./types.ts";

export interface PriceSensitivity {
  /** S(0) of the control: ½ for an unbiased design and an order-balanced agent. */
  equalPriceRate: number | null;
  /** P(keep the dearer identical product) at +10%, interpolated on the pooled curve. */
  keepDearerAt10: number | null;
  /** The same at the top of the grid. */
  keepDearerAtTop: number | null;
  topPremium: number;
  /** Logit slope per unit premium (logit P(dearer) = a + slope·g + c·cuedFirst), pair-clustered SE. */
  slope: Coefficient | null;
  slopeNote: string | null;
  /**
   * The price of the first slot: where the dearer product *shown first* falls to ½ — how much premium
   * position alone absorbs.
   */
  positionPrice: PriceEquivalent;
  /** True when even the top premium keeps at least `insensitiveRate` of choices on the dearer item. */
  priceInsensitive: boolean;
}

export function priceSensitivity(
  control: ConditionEstimate,
  observations: readonly CueObservation[],
  insensitiveRate: number,
): PriceSensitivity {
  const topPremium = control.curve.at(-1)?.premium ?? 0;
  const keepDearerAtTop = control.curve.at(-1)?.rate ?? null;
  const answered = observations.filter((o) => o.choseCued !== null);
  let slope: Coefficient | null = null;
  let slopeNote: string | null = null;
  if (answered.length > 0) {
    const fit = fitBinaryLogit({
      X: answered.map((o) => [1, o.premium, o.cuedFirst ? 0.5 : -0.5]),
      y: answered.map((o) => (o.choseCued ? 1 : 0)),
      names: ["intercept", "premium", "cuedFirst"],
      clusters: answered.map((o) => o.pairId),
    });
    if (fit.status === "ok") slope = coefficientOf(fit, "premium");
    else slopeNote = fit.reason;
  } else slopeNote = "no answered trials";
  return {
    equalPriceRate: control.baseRate,
    keepDearerAt10: rateAt(control.curve, 0.1),
    keepDearerAtTop,
    topPremium,
    slope,
    slopeNote,
    positionPrice: control.cuedFirst,
    priceInsensitive: keepDearerAtTop !== null && keepDearerAtTop >= insensitiveRate,
  };
}
