import { describe, expect, it } from "vitest";
import { fittedCrossing, smallClusterFactor, studentQuantile } from "../../../analysis/cue/index.ts";

const logistic = (x: number) => 1 / (1 + Math.exp(-x));

describe("reference values", () => {
  it("Student t quantiles match the printed tables", () => {
    // Two-sided 95% critical values: df 1, 2, 5, 10, 30.
    const table: [number, number][] = [
      [1, 12.706],
      [2, 4.303],
      [5, 2.571],
      [10, 2.228],
      [30, 2.042],
    ];
    for (const [df, t] of table) expect(studentQuantile(0.975, df)).toBeCloseTo(t, 3);
    expect(studentQuantile(0.5, 4)).toBeCloseTo(0, 9);
    expect(studentQuantile(0.95, 5)).toBeCloseTo(2.015, 3);
  });

  it("the six-pair stretch is √(6/5)·t₅/z = 1.437", () => {
    expect(smallClusterFactor(6, 0.95)).toBeCloseTo((Math.sqrt(6 / 5) * 2.5706) / 1.96, 3);
    expect(smallClusterFactor(1, 0.95)).toBe(1);
  });

  it("the fitted crossing of a counterbalanced logistic curve is −a/b whatever the position term", () => {
    for (const c of [0, 0.8, 3]) {
      const pooled = (g: number) => 0.5 * (logistic(2 - 20 * g + c / 2) + logistic(2 - 20 * g - c / 2));
      const pe = fittedCrossing(pooled, 0.26);
      expect(pe.kind).toBe("point");
      expect((pe as { value: number }).value).toBeCloseTo(0.1, 9);
    }
    expect(fittedCrossing((g) => logistic(-1 - 20 * g), 0.26).kind).toBe("floor");
    expect(fittedCrossing((g) => logistic(9 - 20 * g), 0.26)).toEqual({ kind: "right", bound: 0.26 });
  });
});
