import { describe, expect, it } from "vitest";
import { adjustPValues } from "../../../analysis/stats/index.ts";

// Reference: statsmodels 0.13.5 multipletests(ps, method="bonferroni" | "holm" | "fdr_bh")[1].
const ps = [0.008, 0.03, 0.123, 0.6, 0.2, 0.01, 0.04];
const expected = {
  bonferroni: [0.056, 0.21, 0.861, 1.0, 1.0, 0.07, 0.28],
  holm: [0.056, 0.15, 0.369, 0.6, 0.4, 0.06, 0.16],
  bh: [0.035, 0.07, 0.1722, 0.6, 0.23333333333333336, 0.035, 0.07],
} as const;

describe("adjustPValues", () => {
  it.each(["bonferroni", "holm", "bh"] as const)("%s matches statsmodels", (method) => {
    const adjusted = adjustPValues(ps, method);
    adjusted.forEach((p, i) => {
      expect(p).toBeCloseTo(expected[method][i] as number, 12);
    });
  });

  it("keeps the input order and leaves the input untouched", () => {
    const input = [0.04, 0.001];
    expect(adjustPValues(input, "bonferroni")).toEqual([0.08, 0.002]);
    expect(input).toEqual([0.04, 0.001]);
  });

  it("counts unlisted comparisons", () => {
    expect(adjustPValues([0.01], "bonferroni", 5)[0]).toBeCloseTo(0.05, 14);
  });

  it("handles an empty family and rejects a non-probability", () => {
    expect(adjustPValues([], "holm")).toEqual([]);
    expect(() => adjustPValues([0.1, Number.NaN], "bh")).toThrow(/p-value 1/);
  });
});
