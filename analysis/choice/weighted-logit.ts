/**
 * A lean binary-logit refit for the bootstrap: frequency weights (how often each row's cluster was
 * drawn) instead of materialised resamples, a warm start, and no inference — only the coefficients,
 * or null when the refit does not converge to a finite maximum. A weighted fit with integer
 * weights is exactly the fit on the resample that repeats each row that many times.
 */
import { cholesky, choleskySolve } from "../logit/linalg.ts";
import { createWorkspace, type LogitWorkspace } from "../logit/workspace.ts";

export interface WeightedFitOptions {
  maxIterations?: number;
  /** Converged when a Newton step moves the linear predictor by less than this (max_j |δ_j|·rms(x_j)). */
  tolerance?: number;
  /** A coefficient that moves the linear predictor by more than this is diverging (separation). */
  divergence?: number;
}

/**
 * The rows of positive weight, gathered into a logit workspace (contiguous columns for the
 * WebAssembly kernels), with the buffers of one Newton run.
 */
class ActiveRows {
  readonly grad: Float64Array;
  readonly info: Float64Array;

  constructor(
    readonly k: number,
    private readonly ws: LogitWorkspace,
  ) {
    this.grad = new Float64Array(k);
    this.info = new Float64Array(k * k);
  }

  /** Weighted log-likelihood at beta; with `derivatives`, also fills the score and information. */
  evaluate(beta: Float64Array, derivatives: boolean): number {
    const { ws } = this;
    ws.linearPredictor(beta);
    const ll = ws.binaryResiduals(true);
    if (derivatives) {
      ws.dots(ws.resid, this.grad);
      ws.gram(this.info, true);
    }
    return ll;
  }

  /** Cholesky solve of info·δ = grad; null when the information is not positive definite. */
  solve(): Float64Array | null {
    const l = cholesky(this.info, this.k, 1e-12);
    return l && choleskySolve(l, this.grad, this.k);
  }
}

export class WeightedBinaryLogit {
  readonly n: number;
  readonly k: number;
  private readonly cols: Float64Array[];
  private readonly y: Uint8Array;
  private readonly scale: Float64Array;

  constructor(X: readonly (readonly number[])[], y: readonly (0 | 1)[]) {
    this.n = X.length;
    this.k = X[0]?.length ?? 0;
    this.cols = Array.from({ length: this.k }, (_, j) => Float64Array.from(X, (row) => row[j] as number));
    this.y = Uint8Array.from(y);
    this.scale = Float64Array.from(this.cols, (c) => {
      let s = 0;
      for (const v of c) s += v * v;
      return Math.sqrt(s / Math.max(1, c.length));
    });
  }

  /**
   * The rows of positive weight (clusters drawn at least once), gathered into a workspace; the
   * caller releases it.
   */
  private active(weights: Float64Array): { rows: ActiveRows; ws: LogitWorkspace } {
    if (weights.length !== this.n)
      throw new RangeError(`WeightedBinaryLogit.fit: ${weights.length} weights for ${this.n} rows`);
    let m = 0;
    for (let i = 0; i < this.n; i++) if ((weights[i] as number) > 0) m++;
    const rows = new Int32Array(m);
    m = 0;
    for (let i = 0; i < this.n; i++) if ((weights[i] as number) > 0) rows[m++] = i;
    const ws = createWorkspace(m, this.k);
    // Plain loops: TypedArray.from with a map function is an order of magnitude slower here.
    for (let j = 0; j < this.k; j++) {
      const c = this.cols[j] as Float64Array;
      const out = ws.cols[j] as Float64Array;
      for (let r = 0; r < m; r++) out[r] = c[rows[r] as number] as number;
    }
    for (let r = 0; r < m; r++) {
      const i = rows[r] as number;
      ws.outcome[r] = this.y[i] as number;
      ws.frequency[r] = weights[i] as number;
    }
    return { rows: new ActiveRows(this.k, ws), ws };
  }

  /** Newton–Raphson with step halving from `start`; null if it fails to converge or diverges. */
  fit(
    weights: Float64Array,
    start: ArrayLike<number>,
    options: WeightedFitOptions = {},
  ): Float64Array | null {
    const maxIterations = options.maxIterations ?? 30;
    const tolerance = options.tolerance ?? 1e-8;
    const divergence = options.divergence ?? 30;
    const { rows, ws } = this.active(weights);
    try {
      return this.newton(rows, start, maxIterations, tolerance, divergence);
    } finally {
      ws.release();
    }
  }

  private newton(
    rows: ActiveRows,
    start: ArrayLike<number>,
    maxIterations: number,
    tolerance: number,
    divergence: number,
  ): Float64Array | null {
    const { k, scale } = this;
    let beta = Float64Array.from(start);
    let ll = rows.evaluate(beta, true);
    const cand = new Float64Array(k);
    for (let iter = 0; iter < maxIterations; iter++) {
      const step = rows.solve();
      if (!step) return null;
      let change = 0;
      for (let j = 0; j < k; j++)
        change = Math.max(change, Math.abs(step[j] as number) * (scale[j] as number));
      for (let j = 0; j < k; j++) cand[j] = (beta[j] as number) + (step[j] as number);
      // A step this small is the last one: take it without evaluating where it lands.
      if (change < tolerance) return cand;
      const slack = 1e-12 * (Math.abs(ll) + 1);
      let t = 1;
      let llNew = rows.evaluate(cand, true);
      while (!(llNew >= ll - slack) && t > 1e-9) {
        t /= 2;
        for (let j = 0; j < k; j++) cand[j] = (beta[j] as number) + t * (step[j] as number);
        llNew = rows.evaluate(cand, false);
        if (llNew >= ll - slack) llNew = rows.evaluate(cand, true);
      }
      if (!(llNew >= ll - slack)) return change < 1e-6 ? beta : null;
      beta = Float64Array.from(cand);
      ll = llNew;
      for (let j = 0; j < k; j++)
        if (Math.abs(beta[j] as number) * (scale[j] as number) > divergence) return null;
    }
    return null;
  }
}
