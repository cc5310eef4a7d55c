/** Willingness to pay for one review-score point, with a delta-method standard error. */
import type { LogitCoefficient, LogitFit, LogitFitOk } from "../logit/index.ts";
import { normalQuantile } from "../stats/index.ts";
import { DEFAULT_REFERENCE_PRICE } from "./reference-price.ts";

export { DEFAULT_REFERENCE_PRICE };

export function coefficient(fit: LogitFit, name: string): LogitCoefficient | undefined {
  return fit.status === "ok" ? fit.coefficients.find((c) => c.name === name) : undefined;
}

export interface Wtp {
  /**
   * `linear`: −β_review / β_price, dollars per review point at any price. `log`: −β_review / β_ln p
   * × P_ref, dollars per review point at the reference price P_ref (the paper's headline form).
   */
  form: "linear" | "log";
  referencePrice: number | null;
  estimate: number;
  /** Delta-method SE from the model-based covariance (covariance of the two coefficients included). */
  se: number;
  ciLow: number;
  ciHigh: number;
  /** Delta-method SE from the cluster-robust covariance, when the fit has one. */
  robustSe?: number;
  /** False when β_price ≥ 0: the ratio is then no willingness to pay and should not be read as one. */
  priceDecreasesUtility: boolean;
}

/** −scale·b_r/b_p and its gradient with respect to (b_r, b_p). */
function ratio(br: number, bp: number, scale: number): { value: number; grad: [number, number] } {
  return { value: (-scale * br) / bp, grad: [-scale / bp, (scale * br) / (bp * bp)] };
}

function deltaSe(vcov: number[][], i: number, j: number, g: [number, number]): number {
  const vii = vcov[i]?.[i] as number;
  const vjj = vcov[j]?.[j] as number;
  const vij = vcov[i]?.[j] as number;
  return Math.sqrt(g[0] * g[0] * vii + 2 * g[0] * g[1] * vij + g[1] * g[1] * vjj);
}

/**
 * WTP for one review point from a fit holding `review` and the price term (`price` for the linear
 * form, `lnPrice` for the log form). Null when the fit is not identified or lacks either term.
 */
export function reviewWtp(
  fit: LogitFit,
  form: "linear" | "log",
  referencePrice = DEFAULT_REFERENCE_PRICE,
): Wtp | null {
  if (fit.status !== "ok") return null;
  const ok: LogitFitOk = fit;
  const i = ok.names.indexOf("review");
  const j = ok.names.indexOf(form === "linear" ? "price" : "lnPrice");
  if (i < 0 || j < 0) return null;
  const br = ok.coefficients[i]!.estimate;
  const bp = ok.coefficients[j]!.estimate;
  const scale = form === "linear" ? 1 : referencePrice;
  const { value, grad } = ratio(br, bp, scale);
  const se = deltaSe(ok.vcov, i, j, grad);
  const z = normalQuantile(1 - (1 - ok.level) / 2);
  const wtp: Wtp = {
    form,
    referencePrice: form === "log" ? referencePrice : null,
    estimate: value,
    se,
    ciLow: value - z * se,
    ciHigh: value + z * se,
    priceDecreasesUtility: bp < 0,
  };
  if (ok.robustVcov) wtp.robustSe = deltaSe(ok.robustVcov, i, j, grad);
  return wtp;
}

/** The WTP of given coefficient values (no SE): for bootstrap draws. */
export function wtpValue(
  betaReview: number,
  betaPrice: number,
  form: "linear" | "log",
  referencePrice: number,
) {
  return ratio(betaReview, betaPrice, form === "linear" ? 1 : referencePrice).value;
}
