/**
 * Interval coverage of the logit core over many seeded replications (run by `npm run validate`,
 * not by `npm test`). For each design the nominal 95% Wald intervals must cover the true
 * coefficients 93–97% of the time, pooled over coefficients: model-based SEs on independent data,
 * cluster-robust SEs on data whose answers repeat within clusters (where model-based SEs must
 * under-cover, which is what shows the clustering matters). Rates are printed for the record.
 *
 * The clustering is a shared draw, not a random effect in the utility: with a random intercept the
 * pooled logit estimates attenuated population-averaged coefficients, not the β the data were
 * drawn with, so "coverage of the truth" would test the wrong thing. Reusing a cluster's draw keeps
 * every answer marginally logit with the true β while answers within a cluster are correlated —
 * as when an LLM at temperature 0 repeats itself on the same option set.
 */
import { describe, expect, it } from "vitest";
import {
  fitBinaryLogit,
  fitConditionalLogit,
  type LogitFit,
  type LogitFitOk,
} from "../../../analysis/logit/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { type ClusterDesign, simulateBinary, simulateConditional } from "./simulate.ts";

const REPLICATIONS = 1_000;

interface Coverage {
  model: number;
  robust: number;
  /** Per coefficient, model-based and robust. */
  perCoefficient: { name: string; model: number; robust: number }[];
  failed: number;
}

function coverage(fits: LogitFit[], truth: readonly number[]): Coverage {
  const ok = fits.filter((f): f is LogitFitOk => f.status === "ok");
  const k = truth.length;
  const hitsModel = new Array<number>(k).fill(0);
  const hitsRobust = new Array<number>(k).fill(0);
  for (const fit of ok) {
    fit.coefficients.forEach((c, j) => {
      const t = truth[j] as number;
      if (c.ciLow <= t && t <= c.ciHigh) hitsModel[j]! += 1;
      if (c.robustCiLow !== undefined && c.robustCiLow <= t && t <= c.robustCiHigh!) hitsRobust[j]! += 1;
    });
  }
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  return {
    model: sum(hitsModel) / (ok.length * k),
    robust: sum(hitsRobust) / (ok.length * k),
    perCoefficient: (ok[0]?.names ?? []).map((name, j) => ({
      name,
      model: hitsModel[j]! / ok.length,
      robust: hitsRobust[j]! / ok.length,
    })),
    failed: fits.length - ok.length,
  };
}

function report(label: string, c: Coverage): void {
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
  const per = c.perCoefficient.map((p) => `${p.name} ${pct(p.model)}/${pct(p.robust)}`).join(", ");
  console.log(
    `${label}: ${REPLICATIONS} replications, coverage of 95% intervals — model-based ${pct(c.model)}, cluster-robust ${pct(c.robust)} (per coefficient model/robust: ${per}); not identified: ${c.failed}`,
  );
}

const BINARY_TRUTH = [0.3, -1.0, 0.5, 0.8];
const SLOTS = [-0.3, -0.5];
const ATTRS = [-1.0, 0.6, 0.8];
const CLUSTERED: ClusterDesign = { clusterSize: 4, shareWithinCluster: 0.8 };

function binaryFits(seed: string, design: ClusterDesign): LogitFit[] {
  const root = createRng(seed);
  return Array.from({ length: REPLICATIONS }, (_, r) =>
    fitBinaryLogit(simulateBinary(root.fork(r), 1_200, BINARY_TRUTH, design)),
  );
}

function conditionalFits(seed: string, design: ClusterDesign): LogitFit[] {
  const root = createRng(seed);
  return Array.from({ length: REPLICATIONS }, (_, r) =>
    fitConditionalLogit(simulateConditional(root.fork(r), 1_200, 3, SLOTS, ATTRS, design)),
  );
}

describe("coverage of 95% intervals", () => {
  it("binary logit, independent observations: model-based SEs", () => {
    const c = coverage(binaryFits("coverage-binary-independent", {}), BINARY_TRUTH);
    report("binary, independent (n = 1,200)", c);
    expect(c.failed).toBe(0);
    expect(c.model).toBeGreaterThanOrEqual(0.93);
    expect(c.model).toBeLessThanOrEqual(0.97);
    // With independent clusters of one observation, the robust (sandwich) SEs agree too.
    expect(c.robust).toBeGreaterThanOrEqual(0.93);
    expect(c.robust).toBeLessThanOrEqual(0.97);
  });

  it("binary logit, answers repeated within clusters: cluster-robust SEs cover, model-based do not", () => {
    const c = coverage(binaryFits("coverage-binary-clustered", CLUSTERED), BINARY_TRUTH);
    report("binary, 300 clusters of 4, shared answer w.p. 0.8", c);
    expect(c.failed).toBe(0);
    expect(c.robust).toBeGreaterThanOrEqual(0.93);
    expect(c.robust).toBeLessThanOrEqual(0.97);
    expect(c.model).toBeLessThan(0.9);
  });

  it("conditional logit (3 alternatives), independent situations: model-based SEs", () => {
    const c = coverage(conditionalFits("coverage-cl-independent", {}), [...SLOTS, ...ATTRS]);
    report("conditional k = 3, independent (1,200 situations)", c);
    expect(c.failed).toBe(0);
    expect(c.model).toBeGreaterThanOrEqual(0.93);
    expect(c.model).toBeLessThanOrEqual(0.97);
  });

  it("conditional logit (3 alternatives), clustered option sets: cluster-robust SEs cover, model-based do not", () => {
    const c = coverage(conditionalFits("coverage-cl-clustered", CLUSTERED), [...SLOTS, ...ATTRS]);
    report("conditional k = 3, 300 option sets × 4 rotations, shared draw w.p. 0.8", c);
    expect(c.failed).toBe(0);
    expect(c.robust).toBeGreaterThanOrEqual(0.93);
    expect(c.robust).toBeLessThanOrEqual(0.97);
    expect(c.model).toBeLessThan(0.9);
  });
});
