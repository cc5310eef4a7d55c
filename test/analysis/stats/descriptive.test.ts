import { describe, expect, it } from "vitest";
import {
  averageRanks,
  mean,
  percentileInterval,
  quantile,
  resampleIndices,
  spearman,
  variance,
} from "../../../analysis/stats/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

// Reference: numpy 1.24.2 (np.quantile default "linear" = type 7, np.var ddof=1), scipy spearmanr.
const a = [0.3, -1.2, 5.5, 2.2, 2.2, 7.1, 0.0, -3.3];

describe("descriptive statistics", () => {
  it("mean and sample variance", () => {
    expect(mean(a)).toBeCloseTo(1.6, 14);
    expect(variance(a)).toBeCloseTo(11.754285714285714, 12);
    expect(() => variance([1])).toThrow(/at least 2/);
  });

  it.each([
    [0, -3.3],
    [0.1, -1.8299999999999996],
    [0.25, -0.3],
    [0.5, 1.25],
    [0.9, 5.9799999999999995],
    [1, 7.1],
  ])("type-7 quantile at %s", (p, q) => expect(quantile(a, p)).toBeCloseTo(q, 12));

  it("spearman uses average ranks for ties", () => {
    expect(averageRanks([10, 20, 10, 30])).toEqual([1.5, 3, 1.5, 4]);
    const x = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3];
    const y = [2, 7, 1, 8, 2, 8, 1, 8, 2, 8];
    expect(spearman(x, y)).toBeCloseTo(0.13471506281091267, 12);
    expect(spearman([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 14);
  });
});

describe("bootstrap helpers", () => {
  it("resamples indices reproducibly from a seed", () => {
    const one = resampleIndices(createRng(7), 50);
    const two = resampleIndices(createRng(7), 50);
    expect(Array.from(one)).toEqual(Array.from(two));
    expect(Math.max(...one)).toBeLessThan(50);
    expect(Math.min(...one)).toBeGreaterThanOrEqual(0);
  });

  it("percentile interval of the bootstrap mean covers the sample mean", () => {
    const rng = createRng("boot");
    const sample = Array.from({ length: 200 }, () => 10 + rng.normal());
    const draws = Array.from({ length: 400 }, () => {
      const idx = resampleIndices(rng, sample.length);
      let s = 0;
      for (const i of idx) s += sample[i] as number;
      return s / idx.length;
    });
    const ci = percentileInterval(draws, 0.95);
    const m = mean(sample);
    expect(ci.low).toBeLessThan(m);
    expect(ci.high).toBeGreaterThan(m);
    // ≈ ±1.96/√200 = ±0.139 around the mean.
    expect(ci.high - ci.low).toBeGreaterThan(0.2);
    expect(ci.high - ci.low).toBeLessThan(0.35);
  });

  it("percentile interval is the type-7 quantile pair and refuses non-finite draws", () => {
    expect(percentileInterval([1, 2, 3, 4, 5], 0.5)).toEqual({ low: 2, high: 4 });
    expect(() => percentileInterval([1, Number.NaN])).toThrow(/draw 1/);
  });
});
