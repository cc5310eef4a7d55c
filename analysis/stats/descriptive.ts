function requireValues(xs: readonly number[], what: string, min = 1): void {
  if (xs.length < min) throw new RangeError(`${what} needs at least ${min} value(s), got ${xs.length}`);
}

/** Arithmetic mean (compensated summation, so long samples of similar values lose no digits). */
export function mean(xs: readonly number[]): number {
  requireValues(xs, "mean");
  let sum = 0;
  let c = 0;
  for (const x of xs) {
    const y = x - c;
    const t = sum + y;
    c = t - sum - y;
    sum = t;
  }
  return sum / xs.length;
}

/** Sample variance with the n − 1 denominator (two-pass, for accuracy). */
export function variance(xs: readonly number[]): number {
  requireValues(xs, "variance", 2);
  const m = mean(xs);
  let ss = 0;
  let s = 0;
  for (const x of xs) {
    ss += (x - m) * (x - m);
    s += x - m;
  }
  return (ss - (s * s) / xs.length) / (xs.length - 1);
}

export function standardDeviation(xs: readonly number[]): number {
  return Math.sqrt(variance(xs));
}

/**
 * The p-quantile by linear interpolation between order statistics: Hyndman–Fan type 7, the default
 * of R's `quantile` and numpy's `percentile`.
 */
export function quantile(xs: readonly number[], p: number): number {
  requireValues(xs, "quantile");
  if (!(p >= 0 && p <= 1)) throw new RangeError(`quantile needs p in [0, 1], got ${p}`);
  const sorted = Float64Array.from(xs).sort();
  if (Number.isNaN(sorted[sorted.length - 1] as number))
    throw new RangeError("quantile: the sample contains NaN");
  return sortedQuantile(sorted, p);
}

/** Type-7 quantile of an already ascending-sorted sample. */
export function sortedQuantile(sorted: ArrayLike<number>, p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  const a = sorted[lo] as number;
  return a + (h - lo) * ((sorted[hi] as number) - a);
}
