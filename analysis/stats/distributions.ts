/**
 * Normal and chi-square tail probabilities for test statistics. Upper tails are computed directly
 * (complementary error function, regularized upper incomplete gamma) rather than as 1 − cdf, which
 * would round to 0 beyond z ≈ 8.3 and turn every strong effect into "p = 0".
 *
 * The quantile likewise uses the inverse complementary error function on the nearer tail: stdlib's
 * `normal.quantile` goes through erfinv(2p − 1), which loses ~8 digits at p = 1e-10.
 *
 * `@stdlib/math-base-special-erfc`, `-erfcinv` and `-gammainc` are the routines the declared
 * `@stdlib/stats-base-dists-normal` / `-chisquare` packages are built on (installed as their
 * dependencies).
 */
import erfc from "@stdlib/math-base-special-erfc";
import erfcinv from "@stdlib/math-base-special-erfcinv";
import gammainc from "@stdlib/math-base-special-gammainc";

/** P(Z > z) for a standard normal Z; accurate far into the upper tail (e.g. z = 10 ⇒ 7.62e-24). */
export function normalUpperTail(z: number): number {
  return 0.5 * erfc(z / Math.SQRT2);
}

/** P(|Z| ≥ |z|): the two-sided p-value of a z statistic. */
export function twoSidedNormalP(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  return Math.min(1, erfc(Math.abs(z) / Math.SQRT2));
}

/** The standard normal quantile: normalQuantile(0.975) ≈ 1.959964. */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`normalQuantile needs a probability in [0, 1], got ${p}`);
  if (p === 0.5) return 0;
  // 1 − p is exact for p ≥ 0.5, so both branches keep full relative precision in their tail.
  return p < 0.5 ? -Math.SQRT2 * erfcinv(2 * p) : Math.SQRT2 * erfcinv(2 * (1 - p));
}

/** P(X > x) for X ~ χ²(df): the p-value of a likelihood-ratio or Wald chi-square statistic. */
export function chiSquareUpperTail(x: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`chiSquareUpperTail needs df > 0, got ${df}`);
  if (Number.isNaN(x)) return Number.NaN;
  if (x <= 0) return 1;
  return gammainc(x / 2, df / 2, true, true);
}

/**
 * P(|T| ≤ t) for Student's t with a whole number ν of degrees of freedom, in closed form (Abramowitz
 * & Stegun 26.7.3–4: with θ = atan(t/√ν), a finite series in cos²θ) — exact to rounding, where a
 * numerical integral of the density would need thousands of steps for the same digits.
 */
function tCentralProbability(t: number, df: number): number {
  const theta = Math.atan(t / Math.sqrt(df));
  const s = Math.sin(theta);
  const c2 = Math.cos(theta) ** 2;
  if (df % 2 === 0) {
    let term = 1;
    let sum = 1;
    for (let k = 1; k <= (df - 2) / 2; k++) {
      term *= (c2 * (2 * k - 1)) / (2 * k);
      sum += term;
    }
    return s * sum;
  }
  if (df === 1) return (2 / Math.PI) * theta;
  let term = 1;
  let sum = 1;
  for (let k = 1; k <= (df - 3) / 2; k++) {
    term *= (c2 * 2 * k) / (2 * k + 1);
    sum += term;
  }
  return (2 / Math.PI) * (theta + s * Math.cos(theta) * sum);
}

const T_QUANTILES = new Map<string, number>();

/**
 * The p-quantile (p ≥ ½) of Student's t with a whole number of degrees of freedom: tQuantile(0.975,
 * 14) ≈ 2.144787. By bisection on the closed-form CDF, to within 1e-12 relative; remembered, since
 * the same few (level, G − 1) pairs recur across the cells of a table.
 */
export function tQuantile(p: number, df: number): number {
  if (!(p >= 0.5 && p < 1)) throw new RangeError(`tQuantile needs ½ ≤ p < 1, got ${p}`);
  if (!Number.isInteger(df) || df < 1)
    throw new RangeError(`tQuantile needs a whole number of degrees of freedom, at least 1; got ${df}`);
  if (p === 0.5) return 0;
  const key = `${p}/${df}`;
  const known = T_QUANTILES.get(key);
  if (known !== undefined) return known;
  const target = 2 * p - 1;
  let lo = 0;
  let hi = 1;
  while (tCentralProbability(hi, df) < target) hi *= 2;
  while (hi - lo > 1e-12 * hi) {
    const mid = (lo + hi) / 2;
    if (tCentralProbability(mid, df) < target) lo = mid;
    else hi = mid;
  }
  const q = (lo + hi) / 2;
  T_QUANTILES.set(key, q);
  return q;
}
