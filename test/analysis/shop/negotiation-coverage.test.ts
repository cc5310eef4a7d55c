/**
 * Interval coverage of the negotiation estimators over seeded replications with known truth (a
 * short study; negotiation-coverage.validate.test.ts runs the long one): the paired task bootstrap
 * of the price-paid and P′_b differences, and the task-clustered t intervals of a mean discount and
 * of a deal rate.
 */
import { describe, expect, it } from "vitest";
import {
  clusteredMeanCoverage,
  clusteredShareCoverage,
  pairedCoverage,
  TRUTH,
} from "./negotiation-coverage.ts";

describe("interval coverage (200 seeded replications, 30 tasks × 2 replicates)", () => {
  it("the paired task bootstrap holds the true differences about 95% of the time", () => {
    expect(TRUTH.paid).toBe(-24);
    expect(TRUTH.buyerNormalized).toBeGreaterThan(0.3);
    const c = pairedCoverage({
      replications: 200,
      tasks: 30,
      replicates: 2,
      draws: 200,
      level: 0.95,
      seed: "cov",
    });
    // Binomial SD at 200 replications is 1.5 points; the percentile bootstrap over 30 clusters runs
    // a little under its level.
    expect(c.paid).toBeGreaterThan(0.88);
    expect(c.paid).toBeLessThanOrEqual(0.99);
    expect(c.buyerNormalized).toBeGreaterThan(0.88);
    expect(c.buyerNormalized).toBeLessThanOrEqual(0.99);
  });

  it("the task-clustered t intervals of a mean discount and of a deal rate hold the truth about 95% of the time", () => {
    const args = { replications: 400, tasks: 30, level: 0.95 };
    for (const c of [
      clusteredMeanCoverage({ ...args, seed: "cov-mean" }),
      clusteredShareCoverage({ ...args, seed: "cov-share" }),
    ]) {
      expect(c.t).toBeGreaterThan(0.9);
      expect(c.t).toBeLessThanOrEqual(0.99);
      expect(c.t).toBeGreaterThanOrEqual(c.normal);
    }
  });
});
