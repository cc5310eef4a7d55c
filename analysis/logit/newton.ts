/**
 * Newton–Raphson for a concave log-likelihood, shared by the binary and conditional logit.
 *
 * Each step solves I·δ = g (information, score) and is halved until the log-likelihood does not
 * fall. The fit has converged when the next Newton step would change the linear predictor by less
 * than `tolerance` (max_j |δ_j|·rms(x_j)) and the log-likelihood by less than `logLikTolerance`
 * relative; that last step is taken, and the covariance uses the information it was computed from
 * (as R's glm does): the two points differ by less than the tolerance, the estimate from the
 * optimum by about its square.
 *
 * Separation shows up as the opposite pattern: the log-likelihood has flattened, yet every step
 * still moves the linear predictor by about one unit, because some coefficients are running off
 * to ±∞ while fitted probabilities pile up at 0 or 1. That is reported as separation, with the
 * direction of the running coefficients, instead of returning a huge "estimate".
 */
import { solveSymmetric } from "./linalg.ts";
import type { ResolvedLogitOptions } from "./types.ts";

export interface Degenerate {
  /** Observations (situations) with some fitted probability within eps of 0 or 1. */
  count: number;
  /** Of those, how many have the observed outcome predicted with probability > 1 − eps. */
  perfect: number;
}

export interface LikelihoodModel {
  readonly k: number;
  /** Root mean square of each covariate (within-situation deviations for the conditional logit). */
  readonly scale: Float64Array;
  logLik(beta: Float64Array): number;
  /** ℓ(β), filling the score and the full symmetric information matrix (row-major k × k). */
  derivatives(beta: Float64Array, score: Float64Array, info: Float64Array): number;
  /** Observations (situations) with a fitted probability within eps of 0 or 1. */
  degenerate(beta: Float64Array, eps: number): Degenerate;
}

/** Where Newton starts, with the derivatives there (the caller checks identification on `info`). */
export interface NewtonStart {
  beta: Float64Array;
  score: Float64Array;
  info: Float64Array;
  logLik: number;
}

export type NewtonOutcome =
  | { kind: "converged"; beta: Float64Array; logLik: number; info: Float64Array; iterations: number }
  | {
      kind: "separation";
      beta: Float64Array;
      direction: Float64Array;
      extreme: Degenerate;
      iterations: number;
    }
  | { kind: "singular"; beta: Float64Array; info: Float64Array; iterations: number }
  | { kind: "not-converged"; beta: Float64Array; iterations: number };

export function startAt(model: LikelihoodModel, beta: Float64Array): NewtonStart {
  const score = new Float64Array(model.k);
  const info = new Float64Array(model.k * model.k);
  return { beta, score, info, logLik: model.derivatives(beta, score, info) };
}

/** Consecutive flat-but-running steps that count as separation before the iteration limit. */
const FLAT_RUNS_FOR_SEPARATION = 3;
/** A step that still moves the linear predictor this much is "running", not converging. */
const RUNNING_STEP = 1e-3;
const MAX_HALVINGS = 40;

function predictorChange(step: Float64Array, t: number, scale: Float64Array): number {
  let m = 0;
  for (let j = 0; j < step.length; j++)
    m = Math.max(m, Math.abs(t * (step[j] as number)) * (scale[j] as number));
  return m;
}

export function newtonRaphson(
  model: LikelihoodModel,
  start: NewtonStart,
  options: ResolvedLogitOptions,
): NewtonOutcome {
  const { k, scale } = model;
  let { beta, logLik: ll, score, info } = start;
  let candidate: Float64Array = new Float64Array(k);
  let candScore: Float64Array = new Float64Array(k);
  let candInfo: Float64Array = new Float64Array(k * k);
  const lastStep = new Float64Array(k);
  let flatRuns = 0;

  for (let iter = 1; iter <= options.maxIterations; iter++) {
    const step = solveSymmetric(info, score, k);
    if (!step) {
      const extreme = model.degenerate(beta, options.extremeProbability);
      if (extreme.count > 0 && iter > 1)
        return { kind: "separation", beta, direction: lastStep, extreme, iterations: iter };
      return { kind: "singular", beta, info, iterations: iter };
    }
    const fullChange = predictorChange(step, 1, scale);
    if (fullChange < options.tolerance) {
      for (let j = 0; j < k; j++) candidate[j] = (beta[j] as number) + (step[j] as number);
      const llNew = model.logLik(candidate);
      if (Math.abs(llNew - ll) / (Math.abs(ll) + 1) < options.logLikTolerance) {
        return { kind: "converged", beta: candidate, logLik: llNew, info, iterations: iter };
      }
    }
    let t = 1;
    // Rounding in a sum of n terms: a "decrease" smaller than this is noise, not a bad step.
    const slack = 1e-12 * (Math.abs(ll) + 1);
    // The full step almost always succeeds, so it is evaluated with derivatives at once; halved
    // steps are screened by the log-likelihood alone.
    for (let j = 0; j < k; j++) candidate[j] = (beta[j] as number) + (step[j] as number);
    let llNew = model.derivatives(candidate, candScore, candInfo);
    let accepted = llNew >= ll - slack;
    for (let h = 1; h <= MAX_HALVINGS && !accepted; h++) {
      t /= 2;
      for (let j = 0; j < k; j++) candidate[j] = (beta[j] as number) + t * (step[j] as number);
      llNew = model.logLik(candidate);
      if (llNew >= ll - slack) {
        accepted = true;
        llNew = model.derivatives(candidate, candScore, candInfo);
      }
    }
    if (!accepted) {
      // No step along the Newton direction improves ℓ: at the optimum up to rounding, or stuck.
      if (fullChange < Math.sqrt(options.tolerance))
        return { kind: "converged", beta, logLik: ll, info, iterations: iter };
      return { kind: "not-converged", beta, iterations: iter };
    }
    const change = predictorChange(step, t, scale);
    const relChange = Math.abs(llNew - ll) / (Math.abs(ll) + 1);
    for (let j = 0; j < k; j++) lastStep[j] = t * (step[j] as number);
    [beta, candidate] = [candidate, beta];
    [score, candScore] = [candScore, score];
    [info, candInfo] = [candInfo, info];
    ll = llNew;
    if (relChange < options.logLikTolerance && change > RUNNING_STEP) {
      flatRuns++;
      if (flatRuns >= FLAT_RUNS_FOR_SEPARATION) {
        const extreme = model.degenerate(beta, options.extremeProbability);
        if (extreme.count > 0)
          return { kind: "separation", beta, direction: lastStep, extreme, iterations: iter };
      }
    } else flatRuns = 0;
  }
  const extreme = model.degenerate(beta, options.extremeProbability);
  if (extreme.count > 0)
    return { kind: "separation", beta, direction: lastStep, extreme, iterations: options.maxIterations };
  return { kind: "not-converged", beta, iterations: options.maxIterations };
}

/** Covariates that carry the running direction of a separated fit (in linear-predictor units). */
export function runningCovariates(direction: Float64Array, scale: Float64Array): number[] {
  const moves = Array.from(direction, (d, j) => Math.abs(d) * (scale[j] as number));
  const top = Math.max(...moves);
  if (!(top > 0)) return [];
  return moves.flatMap((m, j) => (m >= 0.1 * top ? [j] : []));
}
