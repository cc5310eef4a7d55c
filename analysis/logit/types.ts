/** One row of a coefficient table. `z`, `p` and the interval use the model-based SE. */
export interface LogitCoefficient {
  name: string;
  estimate: number;
  /** Model-based SE: square root of the inverse observed information. */
  se: number;
  z: number;
  /** Two-sided normal p-value. */
  p: number;
  ciLow: number;
  ciHigh: number;
  /** Cluster-robust (sandwich) SE and the inference built on it; present when clusters were given. */
  robustSe?: number;
  robustZ?: number;
  robustP?: number;
  robustCiLow?: number;
  robustCiHigh?: number;
}

export type LogitModelKind = "binary" | "conditional";

/** A fit whose likelihood has a unique finite maximum that Newton–Raphson reached. */
export interface LogitFitOk {
  status: "ok";
  model: LogitModelKind;
  names: string[];
  coefficients: LogitCoefficient[];
  logLik: number;
  /**
   * Binary: the intercept-only model when the design has a constant column (as statsmodels'
   * `llnull`), otherwise p = ½. Conditional: all coefficients zero (equal shares within a situation).
   */
  nullLogLik: number;
  nullModel: "intercept-only" | "equal-probabilities";
  /** McFadden: 1 − logLik / nullLogLik. */
  pseudoR2: number;
  /** 2k − 2·logLik. */
  aic: number;
  /** Observations (binary) or choice situations (conditional). */
  n: number;
  /** Number of coefficients. */
  k: number;
  iterations: number;
  converged: true;
  /** Model-based covariance (inverse observed information), k × k in `names` order. */
  vcov: number[][];
  /** Cluster-robust sandwich covariance with the G/(G−1)·(n−1)/(n−k) factor (statsmodels' default). */
  robustVcov?: number[][];
  /** Number of distinct clusters, when clusters were given. */
  clusterCount?: number;
  /** Confidence level of `ciLow`/`ciHigh`. */
  level: number;
  /** Things a reader should know that do not invalidate the fit (e.g. few clusters). */
  warnings: string[];
}

/** Why the coefficients have no (unique, finite) estimate. */
export type NotIdentifiedProblem =
  /** Binary outcome constant while the design has an intercept (e.g. a position-locked agent). */
  | "no-outcome-variation"
  /** A covariate that never varies (binary: always 0; conditional: never varies within a situation). */
  | "no-variation"
  /** A covariate that is an exact linear combination of others. */
  | "collinear"
  /** Complete or quasi-complete separation: the likelihood keeps rising as coefficients diverge. */
  | "separation"
  /** The information matrix is singular at the current estimate for another reason. */
  | "singular-information"
  /** Newton–Raphson did not converge within the iteration limit, with no sign of separation. */
  | "not-converged";

/** No finding to report: the data cannot pin the coefficients down. Carries no estimates on purpose. */
export interface LogitNotIdentified {
  status: "not-identified";
  model: LogitModelKind;
  problem: NotIdentifiedProblem;
  /** One sentence a report can print: what is wrong, which covariates, what to do. */
  reason: string;
  /** The covariates involved. */
  covariates: string[];
  names: string[];
  n: number;
  k: number;
  iterations: number;
  nullLogLik: number;
}

export type LogitFit = LogitFitOk | LogitNotIdentified;

export interface LogitOptions {
  /** Newton–Raphson iteration limit (default 50; a well-posed fit needs 5–10). */
  maxIterations?: number;
  /**
   * Convergence: max_j |Δβ_j|·rms(x_j) — the largest change a step makes to the linear predictor,
   * which does not depend on covariate units (default 1e-8) — together with `logLikTolerance`.
   */
  tolerance?: number;
  /** Convergence: |Δℓ| / (|ℓ| + 1) (default 1e-10). */
  logLikTolerance?: number;
  /** Fitted probabilities this close to 0 or 1 count as degenerate in separation checks (1e-8). */
  extremeProbability?: number;
  /** Confidence level of the intervals (default 0.95). */
  level?: number;
  /**
   * Starting coefficients in `names` order, e.g. the full-sample estimate when refitting bootstrap
   * resamples: saves two or three Newton steps. Default: the intercept-only fit (binary) or zero.
   */
  start?: readonly number[];
}

export interface ResolvedLogitOptions {
  maxIterations: number;
  tolerance: number;
  logLikTolerance: number;
  extremeProbability: number;
  level: number;
  start?: readonly number[];
}

export function resolveOptions(options: LogitOptions, k: number, what: string): ResolvedLogitOptions {
  const resolved: ResolvedLogitOptions = {
    maxIterations: options.maxIterations ?? 50,
    tolerance: options.tolerance ?? 1e-8,
    logLikTolerance: options.logLikTolerance ?? 1e-10,
    extremeProbability: options.extremeProbability ?? 1e-8,
    level: options.level ?? 0.95,
  };
  if (options.start) {
    if (options.start.length !== k || !options.start.every(Number.isFinite)) {
      throw new RangeError(
        `${what}: options.start needs ${k} finite coefficients, got [${options.start.join(", ")}]`,
      );
    }
    resolved.start = options.start;
  }
  if (!(resolved.level > 0 && resolved.level < 1))
    throw new RangeError(`logit: level must be in (0, 1), got ${resolved.level}`);
  if (!(Number.isInteger(resolved.maxIterations) && resolved.maxIterations > 0)) {
    throw new RangeError(`logit: maxIterations must be a positive integer, got ${resolved.maxIterations}`);
  }
  return resolved;
}
