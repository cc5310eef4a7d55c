import { describe, expect, it } from "vitest";
import {
  fitBinaryLogit,
  fitConditionalLogit,
  type LogitFit,
  type LogitNotIdentified,
  slotConstantNames,
  slotConstants,
  withIntercept,
} from "../../../analysis/logit/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { simulateBinary, simulateConditional } from "./simulate.ts";

function notIdentified(fit: LogitFit): LogitNotIdentified {
  if (fit.status !== "not-identified") {
    throw new Error(
      `expected "not-identified", got estimates ${fit.coefficients.map((c) => c.estimate).join(", ")}`,
    );
  }
  expect(fit).not.toHaveProperty("coefficients");
  expect(fit.reason.length).toBeGreaterThan(20);
  return fit;
}

/** First-minus-second attribute differences for n seeded binary tasks. */
function differences(n: number, seed: string): number[][] {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => [rng.normal() * 0.5, rng.int(5) - 2, rng.normal(), rng.int(3) - 1]);
}
const diffNames = ["firstSlot", "dlogprice", "dstars", "dreview", "dbreakfast"];

describe("binary logit: not identified, with the reason", () => {
  it("a position-locked agent (always the first-shown option) on first − second differences", () => {
    const X = withIntercept(differences(400, "locked"));
    const fit = notIdentified(fitBinaryLogit({ X, y: X.map(() => 1), names: diffNames }));
    expect(fit.problem).toBe("no-outcome-variation");
    expect(fit.covariates).toEqual(["firstSlot"]);
    expect(fit.reason).toMatch(/position-locked/);
    expect(fit.reason).toMatch(/firstSlot/);
  });

  it("a locked agent on the reference form (chose label A, both orders pooled) is a null fit, not a finding", () => {
    const d = differences(300, "locked-pooled");
    // Original order: A is first, so A is chosen; swapped: B is first, so B is chosen.
    const X = withIntercept([...d, ...d]);
    const y = [...d.map(() => 1 as const), ...d.map(() => 0 as const)];
    const fit = fitBinaryLogit({ X, y, names: ["labelA", ...diffNames.slice(1)] });
    if (fit.status !== "ok") throw new Error(fit.reason);
    for (const c of fit.coefficients) expect(Math.abs(c.estimate)).toBeLessThan(1e-10);
  });

  it("complete separation", () => {
    const rng = createRng("complete");
    const X = Array.from({ length: 300 }, () => [1, rng.normal(), rng.normal()]);
    const y = X.map((r) => (r[1]! + 0.5 * r[2]! > 0 ? 1 : 0) as 0 | 1);
    const fit = notIdentified(fitBinaryLogit({ X, y, names: ["intercept", "x1", "x2"] }));
    expect(fit.problem).toBe("separation");
    expect(fit.reason).toMatch(/^complete separation/);
    expect(fit.covariates).toContain("x1");
    expect(fit.covariates).toContain("x2");
  });

  it("quasi-complete separation: every task with breakfast on the first option was booked", () => {
    const rng = createRng("quasi");
    const X = Array.from({ length: 500 }, () => [1, rng.normal(), rng.bernoulli(0.2) ? 1 : 0]);
    const y = X.map(
      (r) => (r[2] === 1 ? 1 : rng.bernoulli(1 / (1 + Math.exp(-0.8 * r[1]!))) ? 1 : 0) as 0 | 1,
    );
    const fit = notIdentified(fitBinaryLogit({ X, y, names: ["intercept", "dprice", "breakfast"] }));
    expect(fit.problem).toBe("separation");
    expect(fit.reason).toMatch(/^quasi-complete separation/);
    expect(fit.covariates).toEqual(["breakfast"]);
  });

  it("a collinear design names the columns involved", () => {
    const rng = createRng("collinear");
    const X = Array.from({ length: 200 }, () => {
      const a = rng.normal();
      const b = rng.normal();
      return [1, a, b, a - 2 * b, rng.normal()];
    });
    const y = X.map(() => (rng.bernoulli(0.5) ? 1 : 0) as 0 | 1);
    const fit = notIdentified(
      fitBinaryLogit({ X, y, names: ["intercept", "price", "review", "value", "stars"] }),
    );
    expect(fit.problem).toBe("collinear");
    expect(fit.covariates).toEqual(["value", "price", "review"]);
    expect(fit.reason).toMatch(/`value` is an exact linear combination of `price`, `review`/);
  });

  it("a constant covariate beside the intercept, and an all-zero covariate", () => {
    const rng = createRng("constant");
    const rows = Array.from({ length: 100 }, () => [1, rng.normal(), 3, 0]);
    const y = rows.map(() => (rng.bernoulli(0.5) ? 1 : 0) as 0 | 1);
    const constant = notIdentified(
      fitBinaryLogit({ X: rows.map((r) => r.slice(0, 3)), y, names: ["intercept", "x", "three"] }),
    );
    expect(constant.problem).toBe("collinear");
    expect(constant.covariates).toEqual(["three", "intercept"]);
    const zero = notIdentified(
      fitBinaryLogit({ X: rows.map((r) => [r[0]!, r[1]!, r[3]!]), y, names: ["intercept", "x", "never"] }),
    );
    expect(zero.problem).toBe("no-variation");
    expect(zero.covariates).toEqual(["never"]);
    expect(zero.reason).toMatch(/`never` is 0 in every observation/);
  });

  it("too few observations for the coefficients", () => {
    const fit = notIdentified(
      fitBinaryLogit({
        X: [
          [1, 2, 3],
          [1, 5, 1],
        ],
        y: [1, 0],
        names: ["intercept", "a", "b"],
      }),
    );
    expect(fit.problem).toBe("collinear");
  });
});

describe("conditional logit: not identified, with the reason", () => {
  it("a position-locked agent (always slot 0) separates on the slot constants", () => {
    const s = simulateConditional(createRng("cl-locked"), 600, 3, [0, 0], [-1, 0.5]);
    const fit = notIdentified(fitConditionalLogit({ ...s, chosen: s.chosen.map(() => 0) }));
    expect(fit.problem).toBe("separation");
    expect(fit.covariates).toEqual(expect.arrayContaining(["slot1", "slot2"]));
  });

  it("a slot that is never chosen: quasi-complete separation on its constant", () => {
    const s = simulateConditional(createRng("cl-never"), 600, 3, [0, 0], [-1, 0.5]);
    const fit = notIdentified(fitConditionalLogit({ ...s, chosen: s.chosen.map((c) => (c === 2 ? 1 : c)) }));
    expect(fit.problem).toBe("separation");
    expect(fit.reason).toMatch(/^quasi-complete separation/);
    expect(fit.covariates).toEqual(["slot2"]);
  });

  it("a covariate that never varies within a situation (an intercept) is not identified", () => {
    const s = simulateConditional(createRng("cl-const"), 300, 3, [0, 0], [-1]);
    const alternatives = s.alternatives.map((alts, i) => alts.map((r) => [...r, i % 7]));
    const fit = notIdentified(
      fitConditionalLogit({ alternatives, chosen: s.chosen, names: [...s.names, "respondent"] }),
    );
    expect(fit.problem).toBe("no-variation");
    expect(fit.covariates).toEqual(["respondent"]);
    expect(fit.reason).toMatch(/never varies across the alternatives/);
  });

  it("an attribute that always picks the winner: complete separation", () => {
    const s = simulateConditional(createRng("cl-sep"), 300, 3, [0, 0], [-1, 0.5]);
    const chosen = s.alternatives.map((alts) => {
      const review = alts.map((r) => r[2]!);
      return review.indexOf(Math.max(...review));
    });
    const fit = notIdentified(fitConditionalLogit({ alternatives: s.alternatives, chosen, names: s.names }));
    expect(fit.problem).toBe("separation");
    expect(fit.covariates).toContain("a1");
  });
});

describe("warnings and input errors", () => {
  it("warns about few clusters and omits robust SEs with one", () => {
    const s = simulateBinary(createRng("few"), 400, [0.2, -1]);
    const few = fitBinaryLogit({ ...s, clusters: s.X.map((_, i) => i % 12) });
    if (few.status !== "ok") throw new Error(few.reason);
    expect(few.warnings.join(" ")).toMatch(/only 12 clusters/);
    const one = fitBinaryLogit({ ...s, clusters: s.X.map(() => "all") });
    if (one.status !== "ok") throw new Error(one.reason);
    expect(one.robustVcov).toBeUndefined();
    expect(one.coefficients[0]!.robustSe).toBeUndefined();
    expect(one.warnings.join(" ")).toMatch(/only 1 cluster/);
  });

  it("throws on malformed input, saying where", () => {
    const names = ["intercept", "x"];
    expect(() => fitBinaryLogit({ X: [[1, 2]], y: [1, 0], names })).toThrow(/1 rows but y has 2/);
    expect(() => fitBinaryLogit({ X: [[1, 2], [1]], y: [1, 0], names })).toThrow(/X row 1 has 1 values/);
    expect(() => fitBinaryLogit({ X: [[1, Number.NaN]], y: [1], names })).toThrow(
      /row 0, covariate "x" is NaN/,
    );
    // Found by a second pass after the running sum goes non-finite: the first bad value is named.
    const rows = [
      [1, 2],
      [1, 3],
      [1, Number.NEGATIVE_INFINITY],
      [1, Number.NaN],
    ];
    expect(() => fitBinaryLogit({ X: rows, y: [1, 0, 1, 0], names })).toThrow(
      /row 2, covariate "x" is -Infinity/,
    );
    // Every value finite, but so large that sums overflow: an error, not a fit of infinities.
    expect(() =>
      fitBinaryLogit({
        X: [
          [1, 1e308],
          [1, 1e308],
        ],
        y: [1, 0],
        names,
      }),
    ).toThrow(/covariates sum to Infinity; rescale them/);
    expect(() => fitBinaryLogit({ X: [[1, 2]], y: [2 as 0], names })).toThrow(/y\[0\] is 2/);
    expect(() => fitBinaryLogit({ X: [[1, 2]], y: [1], names: ["a", "a"] })).toThrow(/appears twice/);
    expect(() => fitBinaryLogit({ X: [[1, 2]], y: [1], names, clusters: [1, 2] })).toThrow(
      /clusters has 2 entries/,
    );
    expect(() => fitConditionalLogit({ alternatives: [[[1], [2]]], chosen: [2], names: ["x"] })).toThrow(
      /chosen\[0\] is 2/,
    );
    expect(() => fitConditionalLogit({ alternatives: [[[1]]], chosen: [0], names: ["x"] })).toThrow(
      /at least 2/,
    );
  });
});

describe("design helpers", () => {
  it("slot constants and their names", () => {
    expect(slotConstants(3)).toEqual([
      [0, 0],
      [1, 0],
      [0, 1],
    ]);
    expect(slotConstants(3, 1)).toEqual([
      [1, 0],
      [0, 0],
      [0, 1],
    ]);
    expect(slotConstantNames(3)).toEqual(["slot1", "slot2"]);
    expect(slotConstantNames(3, 1, "pos")).toEqual(["pos0", "pos2"]);
    expect(() => slotConstants(3, 3)).toThrow(/reference slot 3/);
  });

  it("withIntercept prepends a 1", () => {
    expect(
      withIntercept([
        [2, 3],
        [4, 5],
      ]),
    ).toEqual([
      [1, 2, 3],
      [1, 4, 5],
    ]);
  });
});
