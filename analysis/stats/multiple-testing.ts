import padjust from "@stdlib/stats-padjust";

/**
 * `bonferroni` and `holm` control the family-wise error rate; `bh` (Benjamini–Hochberg) controls the
 * false discovery rate under independence or positive dependence.
 */
export type PAdjustMethod = "bonferroni" | "holm" | "bh";

/**
 * Adjusted p-values in the input order (as R's `p.adjust`): reject hypothesis i at level α when
 * adjusted[i] ≤ α. `comparisons` counts tests that were run but are not listed (default: ps.length).
 */
export function adjustPValues(ps: readonly number[], method: PAdjustMethod, comparisons?: number): number[] {
  if (ps.length === 0) return [];
  ps.forEach((p, i) => {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`adjustPValues: p-value ${i} is ${p}, not a probability`);
  });
  return comparisons === undefined ? padjust([...ps], method) : padjust([...ps], method, comparisons);
}
