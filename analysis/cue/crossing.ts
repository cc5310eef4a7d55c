/**
 * The model-free price-equivalent: where an S(g) curve first falls to ½, by linear interpolation
 * between the two bracketing grid points, with explicit censoring on both sides.
 */
import type { BoundedValue, CurvePoint, PriceEquivalent } from "./types.ts";

/**
 * - S(0) < ½ ⇒ floor-censored ‡ (PE ≤ 0), with S(0) as the base rate;
 * - otherwise the first grid point k with S(g_k) ≤ ½ brackets the crossing with g_{k−1}: the PE is
 *   g_{k−1} + (g_k − g_{k−1})·(S_{k−1} − ½)/(S_{k−1} − S_k), which is g_k exactly when S(g_k) = ½
 *   (and 0 when S(0) = ½). On a non-monotone curve this is the first downward crossing;
 * - no such point ⇒ right-censored † (PE > g_max).
 * Premiums without answered trials are skipped; with none at the lowest premium there is no base
 * rate and the PE is not identified.
 */
export function priceEquivalent(curve: readonly CurvePoint[]): PriceEquivalent {
  const points = curve.filter((p): p is CurvePoint & { rate: number } => p.rate !== null);
  const first = points[0];
  if (!first || first.premium !== curve[0]?.premium) {
    return { kind: "not-identified", reason: "no answered trials at equal price" };
  }
  if (first.rate < 0.5) return { kind: "floor", baseRate: first.rate };
  if (first.rate === 0.5) return { kind: "point", value: first.premium };
  for (let k = 1; k < points.length; k++) {
    const hi = points[k] as CurvePoint & { rate: number };
    if (hi.rate > 0.5) continue;
    const lo = points[k - 1] as CurvePoint & { rate: number };
    const value = lo.premium + ((hi.premium - lo.premium) * (lo.rate - 0.5)) / (lo.rate - hi.rate);
    return { kind: "point", value };
  }
  return { kind: "right", bound: (curve.at(-1) as CurvePoint).premium };
}

/** A price-equivalent on the extended line: floor ⇒ −∞, right ⇒ +∞ (NaN when not identified). */
export function extendedValue(pe: PriceEquivalent): number {
  if (pe.kind === "point") return pe.value;
  if (pe.kind === "floor") return Number.NEGATIVE_INFINITY;
  if (pe.kind === "right") return Number.POSITIVE_INFINITY;
  return Number.NaN;
}

/**
 * The type-7 quantile of values on the extended line: an infinite neighbour with any weight makes
 * the quantile infinite (a censored draw can only be bounded, not averaged).
 */
export function extendedQuantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new RangeError("extendedQuantile needs at least one value");
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  const w = h - lo;
  if (w === 0 || a === b) return a;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return Number.isFinite(a) ? b : a;
  return a + w * (b - a);
}

/**
 * The median of price-equivalents where censored values are bounds: floor ones are ≤ 0, right ones
 * exceed g_max. With an even count and a censored middle value the median is itself a bound (for
 * (≤ 0, b) it is at most b/2; for (a, > g_max) above (a + g_max)/2). Not-identified values are left out.
 */
export function medianPriceEquivalent(pes: readonly PriceEquivalent[], gMax: number): BoundedValue {
  const values = pes.map(extendedValue).filter((v) => !Number.isNaN(v));
  if (values.length === 0) return { kind: "unknown" };
  values.sort((x, y) => x - y);
  const n = values.length;
  const bound = (v: number): BoundedValue =>
    v === Number.NEGATIVE_INFINITY
      ? { kind: "at-most", value: 0 }
      : v === Number.POSITIVE_INFINITY
        ? { kind: "above", value: gMax }
        : { kind: "point", value: v };
  if (n % 2 === 1) return bound(values[(n - 1) / 2] as number);
  const a = values[n / 2 - 1] as number;
  const b = values[n / 2] as number;
  if (Number.isFinite(a) && Number.isFinite(b)) return { kind: "point", value: (a + b) / 2 };
  if (a === Number.NEGATIVE_INFINITY && b === Number.POSITIVE_INFINITY) return { kind: "unknown" };
  if (a === Number.NEGATIVE_INFINITY)
    return Number.isFinite(b) ? { kind: "at-most", value: b / 2 } : bound(b);
  return Number.isFinite(a) ? { kind: "above", value: (a + gMax) / 2 } : bound(a);
}

/** Linear interpolation of a curve at premium g (null outside the grid or without data). */
export function rateAt(curve: readonly CurvePoint[], g: number): number | null {
  const points = curve.filter((p): p is CurvePoint & { rate: number } => p.rate !== null);
  for (let k = 0; k < points.length; k++) {
    const p = points[k] as CurvePoint & { rate: number };
    if (p.premium === g) return p.rate;
    if (p.premium > g) {
      if (k === 0) return null;
      const lo = points[k - 1] as CurvePoint & { rate: number };
      return lo.rate + ((p.rate - lo.rate) * (g - lo.premium)) / (p.premium - lo.premium);
    }
  }
  return null;
}
