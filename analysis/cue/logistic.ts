/**
 * The logistic cross-check of a model-free price-equivalent: logit P(cued) = a + b·g + c·f + d·g·f,
 * with f = +½ when the cued product is shown first and −½ when second (so a and b describe the
 * order-averaged logit), fitted with pair-clustered robust SEs. Its PE is the premium at which the
 * fitted counterbalanced probability ½[P(f = +½) + P(f = −½)] is ½; d is the price × position
 * interaction check (does the first-slot lean change with the premium?).
 */
import { fitBinaryLogit, type LogitCoefficient, type LogitFitOk } from "../logit/index.ts";
import type { CueObservation, PriceEquivalent } from "./types.ts";

export interface Coefficient {
  estimate: number;
  se: number;
  p: number;
}

export type LogisticCheck =
  | {
      status: "ok";
      pe: PriceEquivalent;
      /** Per unit premium (a 10% premium moves the logit by 0.1 × slope). */
      slope: Coefficient;
      cuedFirst: Coefficient;
      priceByPosition: Coefficient;
      /** Logistic PE − model-free PE, when both are points. */
      difference: number | null;
    }
  | { status: "not-identified"; reason: string };

/**
 * Pair-clustered inference when there are more clusters than coefficients; model-based otherwise
 * (with G clusters the robust covariance has rank at most G − 1, so it is singular for k ≥ G).
 */
export function coefficientOf(fit: LogitFitOk, name: string): Coefficient {
  const c = fit.coefficients.find((x) => x.name === name) as LogitCoefficient;
  const robust = fit.clusterCount !== undefined && fit.clusterCount > fit.k && c.robustSe !== undefined;
  return robust
    ? { estimate: c.estimate, se: c.robustSe as number, p: c.robustP as number }
    : { estimate: c.estimate, se: c.se, p: c.p };
}

function logistic(x: number): number {
  const e = Math.exp(-Math.abs(x));
  return x >= 0 ? 1 / (1 + e) : e / (1 + e);
}

/**
 * Where the fitted counterbalanced probability crosses ½ on [0, gMax]: floor when it is below ½ at
 * equal price, right when still above at gMax, else the first crossing by bisection.
 */
export function fittedCrossing(pooled: (g: number) => number, gMax: number): PriceEquivalent {
  const base = pooled(0);
  if (base < 0.5) return { kind: "floor", baseRate: base };
  if (pooled(gMax) > 0.5) return { kind: "right", bound: gMax };
  // Scan for the first bracket, then bisect inside it (the fitted curve is monotone unless d is wild).
  const steps = 200;
  let lo = 0;
  for (let i = 1; i <= steps; i++) {
    const g = (gMax * i) / steps;
    if (pooled(g) <= 0.5) {
      let hi = g;
      for (let k = 0; k < 60; k++) {
        const mid = (lo + hi) / 2;
        if (pooled(mid) > 0.5) lo = mid;
        else hi = mid;
      }
      return { kind: "point", value: (lo + hi) / 2 };
    }
    lo = g;
  }
  return { kind: "right", bound: gMax };
}

/** The cross-check on a condition's answered trials; `modelFree` is only used for the difference. */
export function logisticCrossCheck(
  observations: readonly CueObservation[],
  gMax: number,
  modelFree: PriceEquivalent,
): LogisticCheck {
  const answered = observations.filter((o) => o.choseCued !== null);
  if (answered.length === 0) return { status: "not-identified", reason: "no answered trials" };
  const X = answered.map((o) => {
    const f = o.cuedFirst ? 0.5 : -0.5;
    return [1, o.premium, f, o.premium * f];
  });
  const fit = fitBinaryLogit({
    X,
    y: answered.map((o) => (o.choseCued ? 1 : 0)),
    names: ["intercept", "premium", "cuedFirst", "premiumXcuedFirst"],
    clusters: answered.map((o) => o.pairId),
  });
  if (fit.status !== "ok") return { status: "not-identified", reason: fit.reason };
  const [a, b, c, d] = fit.coefficients.map((x) => x.estimate) as [number, number, number, number];
  const pooled = (g: number) =>
    0.5 * (logistic(a + b * g + (c + d * g) / 2) + logistic(a + b * g - (c + d * g) / 2));
  const pe = fittedCrossing(pooled, gMax);
  return {
    status: "ok",
    pe,
    slope: coefficientOf(fit, "premium"),
    cuedFirst: coefficientOf(fit, "cuedFirst"),
    priceByPosition: coefficientOf(fit, "premiumXcuedFirst"),
    difference: pe.kind === "point" && modelFree.kind === "point" ? pe.value - modelFree.value : null,
  };
}
