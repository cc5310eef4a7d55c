/** Binary logit P(y = 1 | x) = 1 / (1 + exp(−x·β)) by Newton–Raphson. */
import { checkNames, columnsFromRows } from "./design.ts";
import { rms } from "./kernels.ts";
import { dependentColumns } from "./linalg.ts";
import { type Degenerate, type LikelihoodModel, newtonRaphson, startAt } from "./newton.ts";
import {
  type ClusterIndex,
  type FitContext,
  finishFit,
  fromDependencies,
  indexClusters,
  notIdentified,
} from "./result.ts";
import { type LogitFit, type LogitOptions, resolveOptions } from "./types.ts";
import { createWorkspace, type LogitWorkspace } from "./workspace.ts";

export interface BinaryLogitData {
  /** One covariate row per observation; include the intercept column yourself (`withIntercept`). */
  X: readonly (readonly number[])[];
  y: readonly (0 | 1)[];
  names: readonly string[];
  /** Cluster id per observation (e.g. the unique option set); adds cluster-robust SEs. */
  clusters?: readonly (string | number)[];
}

/**
 * Columns are stored separately (in a workspace shared with the WebAssembly kernels) so that the
 * score and the information XᵀWX are dot products over contiguous arrays.
 */
class BinaryLogitModel implements LikelihoodModel {
  readonly k: number;
  readonly scale: Float64Array;
  private readonly n: number;
  private readonly cols: Float64Array[];

  constructor(
    private readonly ws: LogitWorkspace,
    private readonly y: Uint8Array,
  ) {
    this.k = ws.k;
    this.n = ws.n;
    this.cols = ws.cols;
    this.scale = rms(ws.cols);
  }

  private linearPredictor(beta: Float64Array): Float64Array {
    return this.ws.linearPredictor(beta);
  }

  logLik(beta: Float64Array): number {
    return this.residuals(beta);
  }

  /** Fills the workspace's resid = y − p and weight = p(1 − p); returns ℓ. */
  private residuals(beta: Float64Array): number {
    this.ws.linearPredictor(beta);
    return this.ws.binaryResiduals();
  }

  derivatives(beta: Float64Array, score: Float64Array, info: Float64Array): number {
    const ll = this.residuals(beta);
    this.ws.dots(this.ws.resid, score);
    this.ws.gram(info, true);
    return ll;
  }

  /** XᵀX, for confirming a dependency found in the weighted information. */
  unweightedGram(): Float64Array {
    const g = new Float64Array(this.k * this.k);
    this.ws.gram(g, false);
    return g;
  }

  degenerate(beta: Float64Array, eps: number): Degenerate {
    const eta = this.linearPredictor(beta);
    const bound = Math.log((1 - eps) / eps);
    let count = 0;
    let perfect = 0;
    for (let i = 0; i < this.n; i++) {
      const t = eta[i] as number;
      if (Math.abs(t) <= bound) continue;
      count++;
      if (t > 0 === (this.y[i] === 1)) perfect++;
    }
    return { count, perfect };
  }

  /** Per-cluster sums of the score contributions (y_i − p_i)·x_i: k columns of length G. */
  clusterScores(beta: Float64Array, clusters: ClusterIndex): Float64Array[] {
    this.residuals(beta);
    const { n, cols } = this;
    const { resid } = this.ws;
    const { index } = clusters;
    const out: Float64Array[] = [];
    for (const c of cols) {
      const s = new Float64Array(clusters.count);
      // Rows of a cluster usually come in runs: summing a run in a register before one store
      // avoids a read-after-write through memory on every row.
      let current = index[0] as number;
      let run = 0;
      for (let i = 0; i < n; i++) {
        const g = index[i] as number;
        if (g !== current) {
          s[current] = (s[current] as number) + run;
          current = g;
          run = 0;
        }
        run += (resid[i] as number) * (c[i] as number);
      }
      if (n > 0) s[current] = (s[current] as number) + run;
      out.push(s);
    }
    return out;
  }
}

/** Index of a column that is the same non-zero value in every row (an intercept), or −1. */
function constantColumn(cols: readonly Float64Array[]): number {
  return cols.findIndex((c) => {
    const first = c[0] as number;
    if (first === 0) return false;
    for (let i = 1; i < c.length; i++) if (c[i] !== first) return false;
    return true;
  });
}

/**
 * Maximum-likelihood binary logit. Returns `status: "not-identified"` (no estimates) for a constant
 * outcome with an intercept, a covariate without variation, collinear covariates, or (quasi-)
 * complete separation — each with a reason naming the covariates.
 */
export function fitBinaryLogit(data: BinaryLogitData, options?: LogitOptions): LogitFit {
  const what = "fitBinaryLogit";
  const names = [...data.names];
  checkNames(names, what);
  const n = data.X.length;
  const k = names.length;
  const opts = resolveOptions(options ?? {}, k, what);
  if (data.y.length !== n) throw new RangeError(`${what}: X has ${n} rows but y has ${data.y.length} values`);
  if (n === 0) throw new RangeError(`${what}: no observations`);
  // The fit works in pooled WebAssembly memory, handed back when it returns (or throws).
  const ws = createWorkspace(n, k);
  try {
    const cols = columnsFromRows(data.X, k, names, (i) => `${what}: X row ${i}`, ws.block);
    const y = new Uint8Array(n);
    let ones = 0;
    for (let i = 0; i < n; i++) {
      const v = data.y[i];
      if (v !== 0 && v !== 1)
        throw new RangeError(`${what}: y[${i}] is ${String(v)}; the outcome must be 0 or 1`);
      y[i] = v;
      ws.outcome[i] = v;
      ones += v;
    }
    const intercept = constantColumn(cols);
    const share = ones / n;
    const nullLogLik =
      intercept >= 0
        ? (ones > 0 ? ones * Math.log(share) : 0) + (ones < n ? (n - ones) * Math.log(1 - share) : 0)
        : n * Math.log(0.5);
    const model = new BinaryLogitModel(ws, y);
    const ctx: FitContext = {
      model: "binary",
      names,
      n,
      nullLogLik,
      nullModel: intercept >= 0 ? "intercept-only" : "equal-probabilities",
      options: opts,
      clusterScores: (beta, clusters) => model.clusterScores(beta, clusters),
    };
    if (data.clusters) ctx.clusters = indexClusters(data.clusters, n, what);

    // By default, start at the intercept-only fit: η is constant there, so the information is XᵀX
    // times a constant and its dependencies are exactly the design's. From a caller's start, a
    // dependency found in the weighted information is confirmed on XᵀX itself.
    const beta0 = new Float64Array(k);
    if (opts.start) beta0.set(opts.start);
    else if (intercept >= 0 && ones > 0 && ones < n)
      beta0[intercept] = Math.log(share / (1 - share)) / (cols[intercept]?.[0] as number);
    const start = startAt(model, beta0);
    let deps = dependentColumns(start.info, k);
    if (deps.length > 0 && opts.start) deps = dependentColumns(model.unweightedGram(), k);
    if (deps.length > 0) return fromDependencies(ctx, deps, "is 0 in every observation", 0);
    if (intercept >= 0 && (ones === 0 || ones === n)) {
      const name = names[intercept] as string;
      return notIdentified(
        ctx,
        "no-outcome-variation",
        `the outcome is ${ones === n ? 1 : 0} in all ${n} observations (e.g. a position-locked agent), so \`${name}\` would be ${ones === n ? "+" : "−"}∞ and no coefficient is identified; report the outcome rate instead.`,
        [name],
        0,
      );
    }
    return finishFit(ctx, model, newtonRaphson(model, start, opts));
  } finally {
    ws.release();
  }
}
