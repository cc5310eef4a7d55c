import { describe, expect, it } from "vitest";
import {
  fitBinaryLogit,
  fitConditionalLogit,
  type LogitFit,
  type LogitFitOk,
} from "../../../analysis/logit/index.ts";
import { readCsv, readReference } from "./fixtures.ts";

// Reference values from statsmodels (Logit, ConditionalLogit); how each was produced is in the
// fixture's `note` and in scripts/reference/logit_reference.py. No Python is needed here.
const REL = 1e-6;

function expectRel(actual: number, expected: number, what: string): void {
  const rel = Math.abs(actual - expected) / Math.abs(expected);
  expect(rel, `${what}: ${actual} vs ${expected}`).toBeLessThan(REL);
}

function ok(fit: LogitFit): LogitFitOk {
  if (fit.status !== "ok") throw new Error(`expected an ok fit, got: ${fit.reason}`);
  return fit;
}

describe("binary logit vs statsmodels Logit", () => {
  const ref = readReference("binary");
  const { header, rows } = readCsv("binary");
  const cols = ref.names.map((n) => header.indexOf(n));
  const fit = ok(
    fitBinaryLogit({
      X: rows.map((r) => cols.map((c) => r[c] as number)),
      y: rows.map((r) => r[1] as 0 | 1),
      names: ref.names,
      clusters: rows.map((r) => r[0] as number),
    }),
  );

  it("matches estimates, model-based and cluster-robust SEs, p-values", () => {
    expect(fit.n).toBe(ref.n);
    expect(fit.clusterCount).toBe(ref.clusters);
    ref.names.forEach((name, j) => {
      const c = fit.coefficients[j]!;
      expect(c.name).toBe(name);
      expectRel(c.estimate, ref.params[j]!, `${name} estimate`);
      expectRel(c.se, ref.bse[j]!, `${name} se`);
      expectRel(c.robustSe!, ref.bse_cluster[j]!, `${name} cluster se`);
      expectRel(c.p, ref.pvalues![j]!, `${name} p`);
    });
  });

  it("matches log-likelihoods, McFadden R² and AIC", () => {
    expectRel(fit.logLik, ref.llf, "llf");
    expectRel(fit.nullLogLik, ref.llnull, "llnull");
    expect(fit.nullModel).toBe("intercept-only");
    expectRel(fit.pseudoR2, ref.prsquared!, "pseudo R²");
    expectRel(fit.aic, ref.aic!, "aic");
  });

  it("reports intervals around the estimate and a converged Newton run", () => {
    const c = fit.coefficients[1]!;
    expect(c.ciLow).toBeCloseTo(c.estimate - 1.959963984540054 * c.se, 12);
    expect(c.robustCiHigh!).toBeCloseTo(c.estimate + 1.959963984540054 * c.robustSe!, 12);
    expect(fit.converged).toBe(true);
    expect(fit.iterations).toBeLessThan(10);
    expect(fit.warnings).toEqual([]);
  });
});

describe.each(["conditional_k3", "conditional_k5"])(
  "conditional logit vs statsmodels ConditionalLogit (%s)",
  (name) => {
    const ref = readReference(name);
    const { header, rows } = readCsv(name);
    const cols = ref.names.map((n) => header.indexOf(n));
    const alternatives: number[][][] = [];
    const chosen: number[] = [];
    const clusters: number[] = [];
    for (const r of rows) {
      const [situation, cluster, alternative, isChosen] = r as [number, number, number, number];
      if (alternatives.length === situation) {
        alternatives.push([]);
        clusters.push(cluster);
        chosen.push(-1);
      }
      alternatives[situation]!.push(cols.map((c) => r[c] as number));
      if (isChosen === 1) chosen[situation] = alternative;
    }
    const fit = ok(fitConditionalLogit({ alternatives, chosen, names: ref.names, clusters }));

    it("matches estimates, model-based and cluster-robust SEs", () => {
      expect(fit.n).toBe(ref.n);
      expect(fit.clusterCount).toBe(ref.clusters);
      ref.names.forEach((n, j) => {
        const c = fit.coefficients[j]!;
        expect(c.name).toBe(n);
        expectRel(c.estimate, ref.params[j]!, `${n} estimate`);
        expectRel(c.se, ref.bse[j]!, `${n} se`);
        expectRel(c.robustSe!, ref.bse_cluster[j]!, `${n} cluster se`);
      });
    });

    it("matches the log-likelihood and the equal-shares null", () => {
      expectRel(fit.logLik, ref.llf, "llf");
      expectRel(fit.nullLogLik, ref.llnull, "llnull");
      expect(fit.nullModel).toBe("equal-probabilities");
      expect(fit.pseudoR2).toBeCloseTo(1 - ref.llf / ref.llnull, 12);
    });
  },
);
