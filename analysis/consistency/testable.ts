/** Whether an audit group's global test can say anything, and why not when it cannot. */
import type { UtilityDesign } from "./fit.ts";
import type { QueryData } from "./types.ts";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A diagonal entry of M below this is a query the fit reproduces exactly (leverage 1). */
const EXACT = 1e-9;

/**
 * Null when the fitted-null bootstrap can test the group, else the reason it cannot:
 * - no query has a finite answer (nothing to fit);
 * - no more queries than the design's rank: the fit is exact, T is 0 up to rounding;
 * - no query the fit leaves a residual for has 2+ finite answers: every T* is 0, so any T > 0 would
 *   get p = 0 from the absence of noise, not from a misfit.
 */
export function untestableReason(
  kept: readonly QueryData[],
  dropped: number,
  design: UtilityDesign,
): string | null {
  const m = kept.length;
  if (m === 0)
    return dropped === 0
      ? "no queries"
      : `none of its ${plural(dropped, "query", "queries")} has a finite answer`;
  if (m <= design.rank)
    return `${plural(m, "query", "queries")} with a finite answer for rank ${design.rank}: the fit is exact, no degrees of freedom to test`;
  const M = design.residualMaker;
  const noisy = kept.some((q, j) => q.values.length >= 2 && (M[j * m + j] as number) > EXACT);
  if (!noisy)
    return "no query with a residual has 2 or more finite answers: no within-query spread to resample";
  return null;
}
