import type { Rng } from "../../environments/kernel/rng.ts";
import { applyResidualMaker, rootMeanSquare, type UtilityDesign } from "./fit.ts";

export interface FittedNullOptions {
  /** Bootstrap draws B (the paper: 2,000). */
  draws: number;
  rng: Rng;
  /**
   * Rescale each query's centred completions by √(n/(n − 1)) so a resampled mean has the variance
   * s²/n that the Wald intervals use. Without it the resampled means are too tight by (n − 1)/n and
   * the test over-rejects at small n (about 9% at α = 0.05 with 15 completions; see the validation).
   */
  smallSampleCorrection: boolean;
}

export interface FittedNullTest {
  /** Share of bootstrap T* at least the observed T (up to `exceedTolerance`). */
  pValue: number;
  draws: number;
  /** How many T* were ≥ T − tolerance. */
  exceed: number;
  /** The bootstrap T* values, in draw order. */
  statistics: Float64Array;
}

/**
 * How far below T a T* may fall and still count as ≥ T. T and T* reach the same residual space by
 * different float paths (the fit vs M·ē*), so a perfect fit gives T ≈ 1e-13 and T* ≈ 1e-14, not 0 and
 * 0: without a tolerance rounding noise is a "misfit" with p = 0. Relative 1e-9 is far above the
 * ~1e-16·m relative error of the sums and far below any misfit worth a dollar-scale test.
 */
export function exceedTolerance(observedT: number): number {
  return 1e-9 * Math.max(1, Math.abs(observedT));
}

/**
 * The fitted-null within-query bootstrap. Under the fitted null every query's completions are
 * centred on that query's fitted mean; resampling completions within each query, refitting and
 * recomputing the RMSE gives T*. Since the fitted means lie in the model's column space, the refit's
 * residuals are M ē*, where ē* are the resampled means of the centred completions — the fitted means
 * themselves drop out. p = #{T* ≥ T − tol} / B (see `exceedTolerance`).
 */
export function fittedNullTest(
  design: UtilityDesign,
  completions: readonly (readonly number[])[],
  observedT: number,
  options: FittedNullOptions,
): FittedNullTest {
  const m = completions.length;
  if (m !== design.offsets.length)
    throw new RangeError(
      `fittedNullTest: ${m} queries of completions but a design of ${design.offsets.length}`,
    );
  const pools = completions.map((values) => {
    const n = values.length;
    if (n === 0)
      throw new RangeError("fittedNullTest: a query without finite completions must be dropped first");
    let mean = 0;
    for (const v of values) mean += v;
    mean /= n;
    const factor = options.smallSampleCorrection && n > 1 ? Math.sqrt(n / (n - 1)) : 1;
    return Float64Array.from(values, (v) => (v - mean) * factor);
  });
  const statistics = new Float64Array(options.draws);
  const means = new Float64Array(m);
  const residuals = new Float64Array(m);
  const { rng } = options;
  const threshold = observedT - exceedTolerance(observedT);
  let exceed = 0;
  for (let b = 0; b < options.draws; b++) {
    for (let c = 0; c < m; c++) {
      const pool = pools[c] as Float64Array;
      const n = pool.length;
      let s = 0;
      for (let i = 0; i < n; i++) s += pool[rng.int(n)] as number;
      means[c] = s / n;
    }
    const t = rootMeanSquare(applyResidualMaker(design, means, residuals));
    statistics[b] = t;
    if (t >= threshold) exceed++;
  }
  return {
    // A NaN T (no residuals) has no p: never let it count as "nothing exceeded it".
    pValue: options.draws > 0 && Number.isFinite(observedT) ? exceed / options.draws : Number.NaN,
    draws: options.draws,
    exceed,
    statistics,
  };
}
