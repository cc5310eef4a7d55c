import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  fitUtilities,
  type GroupData,
  indexGroup,
  itemResiduals,
  pathResiduals,
  zFor,
} from "../../../analysis/consistency/index.ts";

/** Hand-worked group with numpy reference values: scripts/reference/consistency_reference.py. */
const fixture = JSON.parse(
  readFileSync(new URL("../../fixtures/consistency/hand-worked.json", import.meta.url), "utf8"),
) as {
  group: GroupData;
  items: string[];
  rank: number;
  utilities: number[];
  means: number[];
  residuals: number[];
  rmse: number;
  p1: { scale: number; residual: { estimate: number; se: number; low: number; high: number } };
  p2: {
    comparison: string;
    scale: number;
    residual: { estimate: number; se: number; low: number; high: number };
    offerPair: { estimate: number; low: number; high: number };
    itemDifference: { estimate: number; low: number; high: number };
    reversal: boolean;
  }[];
};

describe("the consistency audit against numpy on a hand-worked group", () => {
  const group = fixture.group;
  const means = group.queries.map((q) => q.values.reduce((a, b) => a + b, 0) / q.values.length);
  const fit = fitUtilities(group.queries, means);
  const { stats } = indexGroup(group);
  const z = zFor(0.95);

  it("fits the same utilities, residuals and T", () => {
    expect(fit.design.items).toEqual(fixture.items);
    expect(fit.design.rank).toBe(fixture.rank);
    fixture.utilities.forEach((u, j) => {
      expect(fit.utilities[fixture.items[j]!]).toBeCloseTo(u, 9);
    });
    fixture.residuals.forEach((r, i) => {
      expect(fit.residuals[i]).toBeCloseTo(r, 9);
    });
    expect(fit.rmse).toBeCloseTo(fixture.rmse, 10);
    // By hand: T is the root mean square of the residuals; fitted = mean − residual.
    expect(fit.fitted[0]).toBeCloseTo(means[0]! - fixture.residuals[0]!, 10);
  });

  it("gives the same P1 residual, SE and Wald interval", () => {
    const [p1] = pathResiduals(group, stats, z);
    expect(p1).toBeDefined();
    expect(p1!.scale).toBe(fixture.p1.scale);
    // By hand: 68.333 − 30 − 44 = −5.667.
    expect(p1!.residual.estimate).toBeCloseTo(68 + 1 / 3 - 30 - 44, 10);
    expect(p1!.residual.estimate).toBeCloseTo(fixture.p1.residual.estimate, 10);
    expect(p1!.residual.se).toBeCloseTo(fixture.p1.residual.se, 10);
    expect(p1!.residual.low).toBeCloseTo(fixture.p1.residual.low, 9);
    expect(p1!.residual.high).toBeCloseTo(fixture.p1.residual.high, 9);
    expect(p1!.excludesZero).toBe(false);
  });

  it("gives the same P2 residuals and finds the one supported reversal", () => {
    const p2 = itemResiduals(group, stats, z);
    expect(p2.map((r) => r.comparison).sort()).toEqual(["c1", "c2"]);
    for (const ref of fixture.p2) {
      const r = p2.find((x) => x.comparison === ref.comparison)!;
      expect(r.scale).toBe(ref.scale);
      expect(r.residual.estimate).toBeCloseTo(ref.residual.estimate, 10);
      expect(r.residual.se).toBeCloseTo(ref.residual.se, 10);
      expect(r.residual.low).toBeCloseTo(ref.residual.low, 9);
      expect(r.offerPair.low).toBeCloseTo(ref.offerPair.low, 9);
      expect(r.itemDifference.high).toBeCloseTo(ref.itemDifference.high, 9);
      expect(r.reversal).toBe(ref.reversal);
    }
    // By hand for c2: offer pair 40 vs item difference (280 − 100) − (300 − 100) = −20 ⇒ R2 = 60.
    const c2 = p2.find((x) => x.comparison === "c2")!;
    expect(c2.residual.estimate).toBeCloseTo(60, 10);
    expect(c2.reversal).toBe(true);
    expect(c2.relative.estimate).toBeCloseTo(0.6, 10);
    expect(c2.relativeLowerBound).toBeGreaterThan(0.25);
  });
});
