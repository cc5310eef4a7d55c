/**
 * The t interval over markets that the adoption estimates use: its quantile against scipy's
 * (`scipy.stats.t.ppf(0.975, df)`), and its coverage on normal data — where it is exact — at few
 * markets and at many (beyond 30, where a normal quantile would make it too narrow).
 */
import { describe, expect, it } from "vitest";
import { t975, tInterval } from "../../../analysis/market/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

// scipy 1.x: [round(scipy.stats.t.ppf(0.975, df), 6) for df in ...]
const SCIPY: [number, number][] = [
  [1, 12.706205],
  [4, 2.776445],
  [10, 2.228139],
  [30, 2.042272],
  [31, 2.039513],
  [40, 2.021075],
  [60, 2.000298],
  [100, 1.983972],
  [1000, 1.962339],
];

describe("the t interval over markets", () => {
  it("uses the t quantile of its degrees of freedom, at few markets and at many", () => {
    for (const [df, q] of SCIPY) expect(t975(df), `df ${df}`).toBeCloseTo(q, 5);
    expect(() => t975(0)).toThrow(/at least 1/);
    expect(() => t975(2.5)).toThrow(/whole number/);
    expect(tInterval([])).toBeNull();
    expect(tInterval([0.3])).toEqual({ mean: 0.3, low: null, high: null, n: 1 });
  });

  it("covers the mean of normal data 95% of the time, from 3 markets to 100", () => {
    const rng = createRng("t-interval-coverage");
    const reps = 20_000;
    for (const n of [3, 12, 40, 100]) {
      let covered = 0;
      for (let r = 0; r < reps; r++) {
        const xs = Array.from({ length: n }, () => 0.1 + 0.05 * rng.normal());
        const iv = tInterval(xs)!;
        if (iv.low! <= 0.1 && 0.1 <= iv.high!) covered++;
      }
      // 20,000 replications: a binomial SD of 0.15 points. A normal quantile at 40 markets covers 94.3%.
      expect(covered / reps, `${n} markets`).toBeGreaterThan(0.945);
      expect(covered / reps, `${n} markets`).toBeLessThan(0.955);
    }
  });
});
