import { describe, expect, it } from "vitest";
import {
  fitBinaryLogit,
  fitConditionalLogit,
  type LogitFit,
  type LogitFitOk,
} from "../../../analysis/logit/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { simulateBinary, simulateConditional } from "./simulate.ts";

function ok(fit: LogitFit): LogitFitOk {
  if (fit.status !== "ok") throw new Error(`expected an ok fit, got: ${fit.reason}`);
  return fit;
}

/** Every estimate within 4 model-based SEs of the truth, and SEs small (the sample is large). */
function expectRecovered(fit: LogitFitOk, truth: readonly number[], maxSe: number): void {
  fit.coefficients.forEach((c, j) => {
    expect(
      Math.abs(c.estimate - (truth[j] as number)),
      `${c.name}: ${c.estimate} vs ${truth[j]}`,
    ).toBeLessThan(4 * c.se);
    expect(c.se).toBeLessThan(maxSe);
    expect(Number.isFinite(c.p)).toBe(true);
  });
}

describe("simulation recovery", () => {
  it("binary logit recovers known coefficients (n = 20,000)", () => {
    const truth = [0.3, -1.0, 0.5, 0.8, -0.6];
    const s = simulateBinary(createRng("recover-binary"), 20_000, truth);
    const fit = ok(fitBinaryLogit(s));
    expectRecovered(fit, truth, 0.06);
    expect(fit.pseudoR2).toBeGreaterThan(0);
    expect(fit.aic).toBeCloseTo(2 * truth.length - 2 * fit.logLik, 9);
  });

  it.each([3, 5])("conditional logit recovers slot constants and attributes with %i alternatives", (k) => {
    const slotBeta = [-0.4, -0.7, -0.2, -0.5].slice(0, k - 1);
    const attrBeta = [-1.2, 0.6, 0.9];
    const s = simulateConditional(createRng(`recover-cl-${k}`), 8_000, k, slotBeta, attrBeta);
    const fit = ok(fitConditionalLogit(s));
    expectRecovered(fit, [...slotBeta, ...attrBeta], 0.06);
    expect(fit.n).toBe(8_000);
    expect(fit.nullLogLik).toBeCloseTo(-8_000 * Math.log(k), 6);
  });

  it("cluster-robust SEs exceed model-based ones when answers repeat within a cluster", () => {
    const truth = [0.2, -0.8, 0.6];
    const s = simulateBinary(createRng("recover-cluster"), 8_000, truth, {
      clusterSize: 4,
      shareWithinCluster: 0.8,
    });
    const fit = ok(fitBinaryLogit(s));
    expect(fit.clusterCount).toBe(2_000);
    for (const c of fit.coefficients) expect(c.robustSe! / c.se).toBeGreaterThan(1.3);
    expectRecovered(fit, truth, 0.1);
  });

  it("a warm start (as for bootstrap refits) reaches the same estimate in fewer steps", () => {
    const s = simulateBinary(createRng("warm"), 5_000, [0.3, -1.0, 0.5, 0.8]);
    const cold = ok(fitBinaryLogit(s));
    const warm = ok(fitBinaryLogit(s, { start: cold.coefficients.map((c) => c.estimate) }));
    expect(warm.iterations).toBeLessThan(cold.iterations);
    warm.coefficients.forEach((c, j) => {
      expect(c.estimate).toBeCloseTo(cold.coefficients[j]!.estimate, 9);
      expect(c.se).toBeCloseTo(cold.coefficients[j]!.se, 9);
    });
    const cs = simulateConditional(createRng("warm-cl"), 2_000, 3, [-0.2, -0.4], [-1, 0.5]);
    const clCold = ok(fitConditionalLogit(cs));
    const clWarm = ok(fitConditionalLogit(cs, { start: clCold.coefficients.map((c) => c.estimate) }));
    expect(clWarm.iterations).toBeLessThan(clCold.iterations);
    expect(clWarm.logLik).toBeCloseTo(clCold.logLik, 9);
    expect(() => fitBinaryLogit(s, { start: [0, 1] })).toThrow(/options.start needs 4 finite/);
  });

  it("a far-off warm start neither hides nor invents a problem", () => {
    const s = simulateBinary(createRng("far"), 2_000, [0.3, -1.0, 0.5]);
    const fit = ok(fitBinaryLogit(s, { start: [30, 30, -30] }));
    const cold = ok(fitBinaryLogit(s));
    expect(fit.coefficients[1]!.estimate).toBeCloseTo(cold.coefficients[1]!.estimate, 9);
    const collinear = fitBinaryLogit(
      { ...s, X: s.X.map((r) => [...r, 2 * r[1]!]), names: [...s.names, "twice"] },
      { start: [30, 30, -30, 1] },
    );
    expect(collinear.status === "not-identified" && collinear.problem).toBe("collinear");
  });

  it("is reproducible: the same seed gives identical fits", () => {
    const a = ok(fitBinaryLogit(simulateBinary(createRng(5), 500, [0, 1])));
    const b = ok(fitBinaryLogit(simulateBinary(createRng(5), 500, [0, 1])));
    expect(a).toEqual(b);
  });
});
