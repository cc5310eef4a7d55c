import { describe, expect, it } from "vitest";
import {
  fitBinaryLogit,
  fitConditionalLogit,
  predictBinaryProbabilities,
  predictProbabilities,
} from "../../../analysis/logit/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { simulateBinary, simulateConditional } from "./simulate.ts";

describe("predictions", () => {
  it("conditional probabilities are a softmax of the utilities", () => {
    const p = predictProbabilities(
      [1, -2],
      [
        [0, 0],
        [1, 0],
        [0, 1],
      ],
    );
    const e = [1, Math.E, Math.exp(-2)];
    const total = e.reduce((a, b) => a + b, 0);
    p.forEach((v, i) => {
      expect(v).toBeCloseTo(e[i]! / total, 14);
    });
    // Huge utilities do not overflow.
    expect(predictProbabilities([1000], [[1], [0.999]])[0]).toBeCloseTo(1 / (1 + Math.exp(-1)), 12);
  });

  it("binary probabilities are stable in both tails", () => {
    const [low, mid, high] = predictBinaryProbabilities([1], [[-800], [0], [40]]);
    expect(low).toBe(0);
    expect(mid).toBe(0.5);
    expect(high).toBeCloseTo(1, 15);
    expect(() => predictBinaryProbabilities([1, 2], [[1]])).toThrow(/1 values for 2 coefficients/);
  });

  it("out-of-sample hit rate of a fitted conditional logit beats chance", () => {
    const attrs = [-1.5, 1.0, 1.2];
    const rng = createRng("hit-rate");
    const train = simulateConditional(rng.fork("train"), 3_000, 3, [0, 0], attrs);
    const test = simulateConditional(rng.fork("test"), 1_000, 3, [0, 0], attrs);
    const fit = fitConditionalLogit(train);
    if (fit.status !== "ok") throw new Error(fit.reason);
    let hits = 0;
    test.alternatives.forEach((alts, i) => {
      const p = predictProbabilities(fit.coefficients, alts);
      if (p.indexOf(Math.max(...p)) === test.chosen[i]) hits++;
    });
    expect(hits / 1_000).toBeGreaterThan(0.5);
  });

  it("takes the coefficient table of a fit as well as plain numbers", () => {
    const s = simulateBinary(createRng("predict-binary"), 2_000, [0.5, -1]);
    const fit = fitBinaryLogit(s);
    if (fit.status !== "ok") throw new Error(fit.reason);
    const rows = [
      [1, 0],
      [1, 2],
    ];
    expect(predictBinaryProbabilities(fit.coefficients, rows)).toEqual(
      predictBinaryProbabilities(
        fit.coefficients.map((c) => c.estimate),
        rows,
      ),
    );
  });
});
