/** Turning a Newton outcome into a coefficient table, or into an honest "not identified". */
import { normalQuantile, twoSidedNormalP } from "../stats/index.ts";
import { type ColumnDependency, dependentColumns, invertSymmetric } from "./linalg.ts";
import { type LikelihoodModel, type NewtonOutcome, runningCovariates } from "./newton.ts";
import type {
  LogitCoefficient,
  LogitFit,
  LogitFitOk,
  LogitModelKind,
  LogitNotIdentified,
  NotIdentifiedProblem,
  ResolvedLogitOptions,
} from "./types.ts";
import { createWorkspace } from "./workspace.ts";

export interface ClusterIndex {
  index: Int32Array;
  count: number;
}

export interface FitContext {
  model: LogitModelKind;
  names: string[];
  n: number;
  nullLogLik: number;
  nullModel: LogitFitOk["nullModel"];
  options: ResolvedLogitOptions;
  clusters?: ClusterIndex;
  /** Per-cluster sums of score contributions at β: k columns of length G. */
  clusterScores(beta: Float64Array, clusters: ClusterIndex): Float64Array[];
}

export function indexClusters(clusters: readonly (string | number)[], n: number, what: string): ClusterIndex {
  if (clusters.length !== n) {
    throw new RangeError(
      `${what}: clusters has ${clusters.length} entries but there are ${n} ${what === "fitConditionalLogit" ? "choice situations" : "observations"}`,
    );
  }
  const ids = new Map<string | number, number>();
  const index = new Int32Array(n);
  // A plain loop: as a forEach callback this ran several times slower.
  for (let i = 0; i < n; i++) {
    const c = clusters[i] as string | number;
    let id = ids.get(c);
    if (id === undefined) {
      id = ids.size;
      ids.set(c, id);
    }
    index[i] = id;
  }
  return { index, count: ids.size };
}

const quote = (names: readonly string[]): string => names.map((n) => `\`${n}\``).join(", ");

export function notIdentified(
  ctx: FitContext,
  problem: NotIdentifiedProblem,
  reason: string,
  covariates: string[],
  iterations: number,
): LogitNotIdentified {
  return {
    status: "not-identified",
    model: ctx.model,
    problem,
    reason,
    covariates,
    names: ctx.names,
    n: ctx.n,
    k: ctx.names.length,
    iterations,
    nullLogLik: ctx.nullLogLik,
  };
}

/** A "not identified" for the first dependency found in the design (or the information matrix). */
export function fromDependencies(
  ctx: FitContext,
  deps: ColumnDependency[],
  noVariation: string,
  iterations: number,
): LogitNotIdentified {
  const first = deps[0] as ColumnDependency;
  const allNames = deps.flatMap((d) => [d.column, ...d.partners]).map((j) => ctx.names[j] as string);
  const covariates = [...new Set(allNames)];
  const name = ctx.names[first.column] as string;
  if (first.partners.length === 0) {
    return notIdentified(
      ctx,
      "no-variation",
      `${quote([name])} ${noVariation}, so its coefficient is not identified; drop it from the design.`,
      covariates,
      iterations,
    );
  }
  const partners = first.partners.map((j) => ctx.names[j] as string);
  const more = deps.length > 1 ? ` (${deps.length} dependent columns in all: ${quote(covariates)})` : "";
  return notIdentified(
    ctx,
    "collinear",
    `${quote([name])} is an exact linear combination of ${quote(partners)}${more}, so their coefficients are not identified; drop or merge one of them.`,
    covariates,
    iterations,
  );
}

function coefficientTable(
  names: string[],
  beta: Float64Array,
  vcov: Float64Array,
  robust: Float64Array | undefined,
  level: number,
): LogitCoefficient[] {
  const k = names.length;
  const zq = normalQuantile(1 - (1 - level) / 2);
  return names.map((name, j) => {
    const estimate = beta[j] as number;
    const se = Math.sqrt(vcov[j * k + j] as number);
    const z = estimate / se;
    const row: LogitCoefficient = {
      name,
      estimate,
      se,
      z,
      p: twoSidedNormalP(z),
      ciLow: estimate - zq * se,
      ciHigh: estimate + zq * se,
    };
    if (robust) {
      const rse = Math.sqrt(robust[j * k + j] as number);
      row.robustSe = rse;
      row.robustZ = estimate / rse;
      row.robustP = twoSidedNormalP(estimate / rse);
      row.robustCiLow = estimate - zq * rse;
      row.robustCiHigh = estimate + zq * rse;
    }
    return row;
  });
}

function toRows(m: Float64Array, k: number): number[][] {
  return Array.from({ length: k }, (_, i) => Array.from(m.subarray(i * k, (i + 1) * k)));
}

/** V·M·V scaled by G/(G−1)·(n−1)/(n−k): statsmodels' `cov_type="cluster"` with its default correction. */
function clusterRobust(
  vcov: Float64Array,
  scores: Float64Array[],
  g: number,
  n: number,
  k: number,
): Float64Array {
  // The meat Σ_g s_g s_gᵀ: the Gram matrix of the G cluster scores, on the SIMD kernels.
  const ws = createWorkspace(g, k);
  const meat = new Float64Array(k * k);
  try {
    for (let j = 0; j < k; j++) (ws.cols[j] as Float64Array).set(scores[j] as Float64Array);
    ws.gram(meat, false);
  } finally {
    ws.release();
  }
  const vm = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      let s = 0;
      for (let q = 0; q < k; q++) s += (vcov[i * k + q] as number) * (meat[q * k + j] as number);
      vm[i * k + j] = s;
    }
  }
  const factor = (g / (g - 1)) * ((n - 1) / (n - k));
  const out = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = i; j < k; j++) {
      let s = 0;
      for (let q = 0; q < k; q++) s += (vm[i * k + q] as number) * (vcov[q * k + j] as number);
      out[i * k + j] = s * factor;
      out[j * k + i] = s * factor;
    }
  }
  return out;
}

export function finishFit(ctx: FitContext, model: LikelihoodModel, outcome: NewtonOutcome): LogitFit {
  const { names, options } = ctx;
  const k = names.length;
  if (outcome.kind === "separation") {
    const running = runningCovariates(outcome.direction, model.scale).map((j) => names[j] as string);
    const what = outcome.extreme.perfect === ctx.n ? "complete separation" : "quasi-complete separation";
    const unit = ctx.model === "binary" ? "observations" : "choice situations";
    const one = running.length === 1;
    return notIdentified(
      ctx,
      "separation",
      `${what}: ${outcome.extreme.count} of ${ctx.n} ${unit} have fitted probabilities within ${options.extremeProbability} of 0 or 1 while the coefficient${one ? "" : "s"} of ${quote(running)} grow${one ? "s" : ""} without bound, so the likelihood has no finite maximum and no estimate is reported. Some outcomes are perfectly predicted by ${one ? "this covariate" : "these covariates"}: drop or merge ${one ? "it" : "them"}, pool more data, or use a penalized (Firth) estimator.`,
      running,
      outcome.iterations,
    );
  }
  if (outcome.kind === "not-converged") {
    return notIdentified(
      ctx,
      "not-converged",
      `Newton–Raphson did not converge in ${outcome.iterations} iterations and shows no separation; raise maxIterations or rescale the covariates.`,
      [],
      outcome.iterations,
    );
  }
  const vcov = invertSymmetric(outcome.info, k);
  if (outcome.kind === "singular" || !vcov) {
    const deps = dependentColumns(outcome.info, k);
    if (deps.length > 0)
      return fromDependencies(ctx, deps, "carries no information at the estimate", outcome.iterations);
    return notIdentified(
      ctx,
      "singular-information",
      "the information matrix is numerically singular at the estimate; check for near-collinear covariates or covariates on wildly different scales.",
      [...names],
      outcome.iterations,
    );
  }
  const warnings: string[] = [];
  let robust: Float64Array | undefined;
  const clusters = ctx.clusters;
  if (clusters) {
    if (clusters.count < 2)
      warnings.push(`only ${clusters.count} cluster: cluster-robust SEs need at least 2 and are omitted.`);
    else {
      robust = clusterRobust(vcov, ctx.clusterScores(outcome.beta, clusters), clusters.count, ctx.n, k);
      if (clusters.count <= k) {
        warnings.push(
          `${clusters.count} clusters for ${k} coefficients: the cluster-robust covariance is rank-deficient.`,
        );
      } else if (clusters.count < 30) {
        warnings.push(
          `only ${clusters.count} clusters: cluster-robust SEs tend to be too small with few clusters.`,
        );
      }
    }
  }
  const logLik = outcome.logLik;
  const fit: LogitFitOk = {
    status: "ok",
    model: ctx.model,
    names: [...names],
    coefficients: coefficientTable(names, outcome.beta, vcov, robust, options.level),
    logLik,
    nullLogLik: ctx.nullLogLik,
    nullModel: ctx.nullModel,
    pseudoR2: 1 - logLik / ctx.nullLogLik,
    aic: 2 * k - 2 * logLik,
    n: ctx.n,
    k,
    iterations: outcome.iterations,
    converged: true,
    vcov: toRows(vcov, k),
    level: options.level,
    warnings,
  };
  if (robust) {
    fit.robustVcov = toRows(robust, k);
    fit.clusterCount = clusters?.count;
  }
  return fit;
}
