/**
 * Intervals for runs that stop themselves (`bazaar run … --until <estimand>±<half-width>`): after
 * each block of units the run asks whether an agent's interval is as narrow as asked, and stops the
 * agent once it is. Such a run looks at its data many times and stops on what it sees, so an
 * interval that holds its level at a fixed sample size may not hold it at the stopping time.
 *
 * The rule here is the fixed-width sequential procedure of Anscombe (1953) and Chow & Robbins
 * (1965), extended to maximum-likelihood estimates by Khan (1969): stop at the first look where the
 * interval's half-width is at most the target, and report that interval. Its stopping time depends
 * on the data through the estimated variance, which settles as the sample grows, so it is close to
 * the fixed sample size the target needs and the interval keeps its level asymptotically (Anscombe's
 * theorem). What breaks that in practice is an interval whose width collapses with the estimate — a
 * Wald interval for a share at 0 or 1 has width 0 — and a variance read off too few units; so each
 * family has an interval that stays honest there (a Wilson score interval for shares, Fieller's
 * interval for ratios, a minimum of units for means). `sequential-coverage.validate.test.ts` shows
 * the coverage at the stopping time by simulation, beside a naive rule (stop when the ordinary Wald
 * interval is narrow enough) and beside an asymptotic confidence sequence (Waudby-Smith et al. 2024,
 * `asymptoticCsHalfWidth`), which holds at any stopping time but is about 1.5 times as wide, so it
 * spends about 2.3 times the calls for the same target and covers nearly always.
 */
import { normalQuantile, tQuantile } from "./distributions.ts";

/** How an estimand's interval is formed: the families of the coverage study. */
export type EstimandFamily = "proportion" | "mean" | "coefficient" | "ratio";

export interface TargetInterval {
  estimate: number;
  low: number;
  high: number;
  /** (high − low) / 2: what a target's half-width is compared with. */
  halfWidth: number;
  /** Independent units the estimate rests on (clusters: a design unit, a task, a scenario). */
  units: number;
  /**
   * Set while the interval cannot end a run whatever its width (too few units to trust the
   * variance): the reason, for the summary.
   */
  provisional?: string;
}

function z(level: number): number {
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  return normalQuantile(1 - (1 - level) / 2);
}

/** The Wilson score interval for a share `p` observed on `n` (possibly fractional) answers. */
export function wilsonInterval(p: number, n: number, level = 0.95): { low: number; high: number } {
  if (!(n > 0)) throw new RangeError(`wilsonInterval needs n > 0, got ${n}`);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`wilsonInterval needs 0 ≤ p ≤ 1, got ${p}`);
  const q = z(level);
  const q2 = q * q;
  const centre = (p + q2 / (2 * n)) / (1 + q2 / n);
  const half = (q / (1 + q2 / n)) * Math.sqrt((p * (1 - p)) / n + q2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * The lowest design effect a clustered share is given. A counterbalanced unit can pin a share down
 * better than as many independent answers (a shopper who books the cheaper hotel in both orders is
 * first-shown exactly once), so the effect may be below 1; but a handful of units that happened to
 * agree must not shrink the interval to nothing.
 */
export const MIN_DESIGN_EFFECT = 0.5;

/**
 * A share over units of answers (`hits` of `n` each): the ratio of sums, and the Wilson score
 * interval on the effective number of answers n / deff, where the design effect deff is the
 * unit-clustered variance (sandwich, G/(G − 1)) over the binomial one. Wilson's width does not
 * collapse at a share of 0 or 1, where the Wald interval's does — which is how a naive rule stops a
 * position-locked agent after its first block with an interval that misses. At 0 or 1 the data show
 * no variance to read a design effect from, and answers to one task may be one answer repeated (a
 * model that fails a task fails all its replicates): the effective sample is then the number of
 * distinct tasks answered (`tasks`, each unit's; its answers when not given). Null without answers
 * in at least two units.
 */
export function clusteredShareInterval(
  units: readonly { hits: number; n: number; tasks?: number }[],
  level = 0.95,
): TargetInterval | null {
  let hits = 0;
  let n = 0;
  let g = 0;
  let tasks = 0;
  for (const u of units) {
    if (u.n <= 0) continue;
    if (u.hits < 0 || u.hits > u.n) throw new RangeError(`a unit has ${u.hits} hits of ${u.n} answers`);
    hits += u.hits;
    n += u.n;
    tasks += Math.min(u.n, u.tasks ?? u.n);
    g++;
  }
  if (g < 2) return null;
  const p = hits / n;
  let deff = n / tasks;
  if (p > 0 && p < 1) {
    let ss = 0;
    for (const u of units) if (u.n > 0) ss += (u.hits - p * u.n) ** 2;
    const clustered = ((g / (g - 1)) * ss) / (n * n);
    deff = Math.max(MIN_DESIGN_EFFECT, clustered / ((p * (1 - p)) / n));
  }
  const { low, high } = wilsonInterval(p, n / deff, level);
  return { estimate: p, low, high, halfWidth: (high - low) / 2, units: g };
}

/** Units a mean needs before its interval may end a run: its variance is read off them. */
export const MIN_MEAN_UNITS = 30;
/** Units away from the most common value a mean needs (a run of zero regrets has no variance yet). */
export const MIN_MEAN_SPREAD_UNITS = 5;

/**
 * A mean over units (`sum` of `n` observations each): the ratio of sums with a unit-clustered SE
 * (residual Σ(sum − m·n) per unit, G/(G − 1)) and Student's t with G − 1 degrees of freedom, as
 * the shop's clustered means. Provisional below `MIN_MEAN_UNITS` units, or while fewer than
 * `MIN_MEAN_SPREAD_UNITS` units differ from the most common unit mean: an outcome that is usually
 * zero (regret) shows no variance until its first few non-zero units, and an interval of width 0
 * would end the run. Null without observations in at least two units.
 */
export function clusteredMeanInterval(
  units: readonly { sum: number; n: number }[],
  level = 0.95,
): TargetInterval | null {
  let sum = 0;
  let n = 0;
  let g = 0;
  const means = new Map<number, number>();
  for (const u of units) {
    if (u.n <= 0) continue;
    if (!Number.isFinite(u.sum)) throw new RangeError(`a unit's sum is ${u.sum}`);
    sum += u.sum;
    n += u.n;
    g++;
    const m = u.sum / u.n;
    means.set(m, (means.get(m) ?? 0) + 1);
  }
  if (g < 2) return null;
  const m = sum / n;
  let ss = 0;
  for (const u of units) if (u.n > 0) ss += (u.sum - m * u.n) ** 2;
  const se = Math.sqrt((g / (g - 1)) * ss) / n;
  const half = tQuantile(1 - (1 - level) / 2, g - 1) * se;
  const modal = Math.max(...means.values());
  const provisional =
    g < MIN_MEAN_UNITS
      ? `${g} of the ${MIN_MEAN_UNITS} units a mean needs`
      : g - modal < MIN_MEAN_SPREAD_UNITS
        ? `${g - modal} of the ${MIN_MEAN_SPREAD_UNITS} units away from the most common value a mean needs`
        : undefined;
  return {
    estimate: m,
    low: m - half,
    high: m + half,
    halfWidth: half,
    units: g,
    ...(provisional ? { provisional } : {}),
  };
}

/** estimate ± z·se: a coefficient's Wald interval (the logit's model-based one). */
export function waldInterval(estimate: number, se: number, units: number, level = 0.95): TargetInterval {
  if (!(se >= 0)) throw new RangeError(`waldInterval needs se ≥ 0, got ${se}`);
  const half = z(level) * se;
  return { estimate, low: estimate - half, high: estimate + half, halfWidth: half, units };
}

/**
 * Fieller's interval for a ratio θ = a / b of two asymptotically normal estimates with variances
 * vaa, vbb and covariance vab: every θ with (a − θb)² ≤ z²·(vaa − 2θ·vab + θ²·vbb). Bounded only
 * when b is itself distinguishable from 0 (b² > z²·vbb); otherwise the set is unbounded and null is
 * returned — a price-equivalent whose price coefficient may be 0 has no finite interval. Unlike the
 * delta method it follows the ratio's skew: the side towards a small denominator is the longer one.
 */
export function fiellerInterval(
  a: number,
  b: number,
  vaa: number,
  vbb: number,
  vab: number,
  units: number,
  level = 0.95,
): TargetInterval | null {
  const q2 = z(level) ** 2;
  const qa = b * b - q2 * vbb;
  const qb = a * b - q2 * vab;
  const qc = a * a - q2 * vaa;
  if (!(qa > 0)) return null;
  const disc = qb * qb - qa * qc;
  // disc < 0 cannot happen with a positive semi-definite covariance once qa > 0; rounding aside.
  const root = Math.sqrt(Math.max(0, disc));
  const low = (qb - root) / qa;
  const high = (qb + root) / qa;
  return { estimate: a / b, low, high, halfWidth: (high - low) / 2, units };
}

/**
 * The half-width of a two-sided asymptotic confidence sequence (Waudby-Smith, Arbour, Sinha,
 * Kennedy & Ramdas 2024, "Time-uniform central limit theory and asymptotic confidence sequences",
 * the normal-mixture boundary) for an estimate from `n` units with standard error `se`: with
 * σ = se·√n, σ·√(2(nρ² + 1)/(n²ρ²) · log(√(nρ² + 1)/α)), ρ² tuned to be tightest at `nOpt` units.
 * It holds at every n at once, so at any stopping time; the price is its width. Here for the
 * coverage study's comparison, not used by the stopping rule.
 */
export function asymptoticCsHalfWidth(se: number, n: number, nOpt: number, level = 0.95): number {
  if (!(n >= 1 && nOpt >= 1))
    throw new RangeError(`asymptoticCsHalfWidth needs n, nOpt ≥ 1, got ${n}, ${nOpt}`);
  const alpha = 1 - level;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  const rho2 = (-2 * Math.log(alpha) + Math.log(-2 * Math.log(alpha) + 1)) / nOpt;
  const sigma = se * Math.sqrt(n);
  return (
    sigma * Math.sqrt(((2 * (n * rho2 + 1)) / (n * n * rho2)) * Math.log(Math.sqrt(n * rho2 + 1) / alpha))
  );
}

/** Whether an interval meets a target half-width (in the estimand's own scale). */
export function targetHolds(interval: TargetInterval | null, halfWidth: number): boolean {
  // A hair of tolerance: a target met exactly must not fail on the last bit of a float.
  return (
    interval !== null && interval.provisional === undefined && interval.halfWidth <= halfWidth * (1 + 1e-12)
  );
}
