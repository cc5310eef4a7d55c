/**
 * McFadden's conditional logit: in choice situation i the alternative j is chosen with probability
 * exp(x_ij·β) / Σ_m exp(x_im·β). Anything constant across a situation's alternatives (an intercept,
 * a respondent trait) cancels and is not identified; display-position effects enter as slot
 * constants the caller appends (`slotConstants`).
 */
import { checkNames, columnsFromRows } from "./design.ts";
import { rms } from "./kernels.ts";
import { dependentColumns } from "./linalg.ts";
import { type Degenerate, type LikelihoodModel, newtonRaphson, startAt } from "./newton.ts";
import { type ClusterIndex, type FitContext, finishFit, fromDependencies, indexClusters } from "./result.ts";
import { type LogitFit, type LogitOptions, resolveOptions } from "./types.ts";
import { createWorkspace, type LogitWorkspace } from "./workspace.ts";

export interface ConditionalLogitData {
  /** Per choice situation, per alternative (in display order), one covariate row. */
  alternatives: readonly (readonly (readonly number[])[])[];
  /** Per choice situation, the index of the chosen alternative. */
  chosen: readonly number[];
  names: readonly string[];
  /** Cluster id per choice situation (e.g. the unique option set); adds cluster-robust SEs. */
  clusters?: readonly (string | number)[];
}

/**
 * Alternatives are the rows, stored column-major across all situations; the information is
 * Σ_r p_r (x_r − x̄_i)(x_r − x̄_i)ᵀ with x̄_i the probability-weighted mean of the row's situation,
 * built as dot products of centred columns. Two workspaces: `raw` holds the covariates (linear
 * predictor, score), `centred` the columns centred at the current probabilities, which are its
 * weights (information).
 */
class ConditionalLogitModel implements LikelihoodModel {
  readonly k: number;
  readonly scale: Float64Array;
  private readonly rows: number;
  private readonly situations: number;
  private readonly cols: Float64Array[];
  private readonly p: Float64Array;
  private readonly resid: Float64Array;
  /** Per-situation scratch. */
  private readonly smallest: Float64Array;

  constructor(
    private readonly raw: LogitWorkspace,
    private readonly centred: LogitWorkspace,
    /** Row offsets: situation i owns rows start[i] .. start[i+1]−1. */
    private readonly start: Int32Array,
    /** Situation of each row. */
    private readonly situationOf: Int32Array,
    /** Row index of the chosen alternative of each situation. */
    private readonly chosenRow: Int32Array,
  ) {
    this.k = raw.k;
    this.rows = situationOf.length;
    this.situations = chosenRow.length;
    this.cols = raw.cols;
    this.scale = rms(raw.cols);
    this.p = centred.weight;
    this.resid = raw.resid;
    this.smallest = new Float64Array(this.situations);
  }

  /** Utilities and choice probabilities of every row; returns ℓ. */
  logLik(beta: Float64Array): number {
    const { p, start, chosenRow } = this;
    const u = this.raw.linearPredictor(beta);
    let ll = 0;
    for (let i = 0; i < this.situations; i++) {
      const s = start[i] as number;
      const e = start[i + 1] as number;
      let max = Number.NEGATIVE_INFINITY;
      for (let r = s; r < e; r++) if ((u[r] as number) > max) max = u[r] as number;
      let denom = 0;
      for (let r = s; r < e; r++) {
        const ev = Math.exp((u[r] as number) - max);
        p[r] = ev;
        denom += ev;
      }
      const inv = 1 / denom;
      for (let r = s; r < e; r++) p[r] = (p[r] as number) * inv;
      ll += (u[chosenRow[i] as number] as number) - max - Math.log(denom);
    }
    return ll;
  }

  /** resid = chosen indicator − p (call after logLik). */
  private residuals(): void {
    const { resid, p, chosenRow } = this;
    for (let r = 0; r < this.rows; r++) resid[r] = -(p[r] as number);
    for (let i = 0; i < this.situations; i++) {
      const c = chosenRow[i] as number;
      resid[c] = (resid[c] as number) + 1;
    }
  }

  derivatives(beta: Float64Array, score: Float64Array, info: Float64Array): number {
    const ll = this.logLik(beta);
    const { cols, p, start, k } = this;
    this.residuals();
    this.raw.dots(this.resid, score);
    for (let j = 0; j < k; j++) {
      const c = cols[j] as Float64Array;
      const d = this.centred.cols[j] as Float64Array;
      for (let i = 0; i < this.situations; i++) {
        const s = start[i] as number;
        const e = start[i + 1] as number;
        let m = 0;
        for (let r = s; r < e; r++) m += (p[r] as number) * (c[r] as number);
        for (let r = s; r < e; r++) d[r] = (c[r] as number) - m;
      }
    }
    this.centred.gram(info, true);
    return ll;
  }

  /** Σ (x − x̄)(x − x̄)ᵀ within situations, for confirming a dependency found in the information. */
  designGram(): Float64Array {
    const g = new Float64Array(this.k * this.k);
    this.raw.gram(g, false);
    return g;
  }

  degenerate(beta: Float64Array, eps: number): Degenerate {
    this.logLik(beta);
    const { p, situationOf, chosenRow, smallest } = this;
    smallest.fill(1);
    for (let r = 0; r < this.rows; r++) {
      const i = situationOf[r] as number;
      if ((p[r] as number) < (smallest[i] as number)) smallest[i] = p[r] as number;
    }
    let count = 0;
    let perfect = 0;
    for (let i = 0; i < this.situations; i++) {
      if ((smallest[i] as number) >= eps) continue;
      count++;
      if ((p[chosenRow[i] as number] as number) > 1 - eps) perfect++;
    }
    return { count, perfect };
  }

  /** Per-cluster sums of the situations' scores x_chosen − Σ p·x: k columns of length G. */
  clusterScores(beta: Float64Array, clusters: ClusterIndex): Float64Array[] {
    this.logLik(beta);
    this.residuals();
    const { cols, resid, situationOf, rows } = this;
    const out: Float64Array[] = [];
    for (const c of cols) {
      const s = new Float64Array(clusters.count);
      for (let r = 0; r < rows; r++) {
        const g = clusters.index[situationOf[r] as number] as number;
        s[g] = (s[g] as number) + (resid[r] as number) * (c[r] as number);
      }
      out.push(s);
    }
    return out;
  }
}

/**
 * Maximum-likelihood conditional logit. `n` in the result counts choice situations. Returns
 * `status: "not-identified"` for a covariate that never varies within a situation, collinear
 * covariates, or (quasi-)complete separation (e.g. a slot that is never, or always, chosen).
 */
export function fitConditionalLogit(data: ConditionalLogitData, options?: LogitOptions): LogitFit {
  const what = "fitConditionalLogit";
  const names = [...data.names];
  checkNames(names, what);
  const n = data.alternatives.length;
  const k = names.length;
  const opts = resolveOptions(options ?? {}, k, what);
  if (n === 0) throw new RangeError(`${what}: no choice situations`);
  if (data.chosen.length !== n)
    throw new RangeError(`${what}: ${n} choice situations but chosen has ${data.chosen.length} entries`);
  const start = new Int32Array(n + 1);
  const chosenRow = new Int32Array(n);
  const rows: (readonly number[])[] = [];
  let nullLogLik = 0;
  data.alternatives.forEach((alts, i) => {
    if (alts.length < 2)
      throw new RangeError(
        `${what}: choice situation ${i} has ${alts.length} alternative(s); at least 2 are needed`,
      );
    const c = data.chosen[i] as number;
    if (!Number.isInteger(c) || c < 0 || c >= alts.length) {
      throw new RangeError(
        `${what}: chosen[${i}] is ${c}, not an alternative index in 0..${alts.length - 1}`,
      );
    }
    chosenRow[i] = rows.length + c;
    rows.push(...alts);
    start[i + 1] = rows.length;
    nullLogLik -= Math.log(alts.length);
  });
  const situationOf = new Int32Array(rows.length);
  for (let i = 0; i < n; i++) situationOf.fill(i, start[i] as number, start[i + 1] as number);
  const cols = columnsFromRows(rows, k, names, (r) => {
    const i = situationOf[r] as number;
    return `${what}: situation ${i}, alternative ${r - (start[i] as number)}`;
  });
  // Choice probabilities, score and information depend only on deviations from the situation's
  // mean (adding a constant to all of a situation's alternatives changes nothing), and so does
  // identification. Fitting on the deviations also keeps large covariates (prices in dollars)
  // well scaled. The fit works in pooled WebAssembly memory, handed back when it returns.
  const raw = createWorkspace(rows.length, k);
  const centred = createWorkspace(rows.length, k);
  try {
    for (let j = 0; j < k; j++) {
      const c = cols[j] as Float64Array;
      const d = raw.cols[j] as Float64Array;
      for (let i = 0; i < n; i++) {
        const s = start[i] as number;
        const e = start[i + 1] as number;
        let m = 0;
        for (let r = s; r < e; r++) m += c[r] as number;
        m /= e - s;
        for (let r = s; r < e; r++) d[r] = (c[r] as number) - m;
      }
    }
    const model = new ConditionalLogitModel(raw, centred, start, situationOf, chosenRow);
    const ctx: FitContext = {
      model: "conditional",
      names,
      n,
      nullLogLik,
      nullModel: "equal-probabilities",
      options: opts,
      clusterScores: (beta, clusters) => model.clusterScores(beta, clusters),
    };
    if (data.clusters) ctx.clusters = indexClusters(data.clusters, n, what);
    // At β = 0 the information is Σ (x − x̄)(x − x̄)ᵀ / J within situations: its dependencies are the design's.
    // (From a caller's start, a dependency in the weighted information is confirmed on the design.)
    const newtonStart = startAt(model, opts.start ? Float64Array.from(opts.start) : new Float64Array(k));
    let deps = dependentColumns(newtonStart.info, k);
    if (deps.length > 0 && opts.start) deps = dependentColumns(model.designGram(), k);
    if (deps.length > 0) {
      return fromDependencies(ctx, deps, "never varies across the alternatives of a choice situation", 0);
    }
    return finishFit(ctx, model, newtonRaphson(model, newtonStart, opts));
  } finally {
    raw.release();
    centred.release();
  }
}
