import { describe, expect, it } from "vitest";
import {
  type CurvePoint,
  extendedQuantile,
  medianPriceEquivalent,
  type PriceEquivalent,
  priceEquivalent,
  rateAt,
} from "../../../analysis/cue/index.ts";

const GRID = [0, 0.02, 0.04, 0.06, 0.08, 0.12, 0.18, 0.26];

function curve(rates: (number | null)[], grid = GRID): CurvePoint[] {
  return rates.map((rate, i) => ({ premium: grid[i] as number, rate, n: rate === null ? 0 : 24 }));
}

describe("the model-free price-equivalent", () => {
  it("interpolates linearly between the two grid points that bracket ½", () => {
    // 0.8 at 8%, 0.2 at 12%: ½ lies halfway, at 10%.
    expect(priceEquivalent(curve([1, 1, 0.95, 0.9, 0.8, 0.2, 0.1, 0]))).toEqual({
      kind: "point",
      value: 0.1,
    });
    // 0.7 at 12%, 0.3 at 18%: ½ is at 12% + 6%·(0.2/0.4) = 15%.
    const pe = priceEquivalent(curve([0.9, 0.9, 0.85, 0.8, 0.75, 0.7, 0.3, 0.1]));
    expect(pe.kind).toBe("point");
    expect((pe as { value: number }).value).toBeCloseTo(0.15, 12);
  });

  it("is the grid point itself when the curve is exactly ½ there", () => {
    expect(priceEquivalent(curve([0.9, 0.7, 0.5, 0.3, 0.2, 0.1, 0, 0]))).toEqual({
      kind: "point",
      value: 0.04,
    });
    expect(priceEquivalent(curve([0.5, 0.4, 0.3, 0.2, 0.1, 0, 0, 0]))).toEqual({ kind: "point", value: 0 });
  });

  it("takes the first downward crossing of a non-monotone curve", () => {
    // Falls through ½ between 4% and 6%, climbs back above, and falls again after 12%.
    const pe = priceEquivalent(curve([0.8, 0.7, 0.6, 0.4, 0.55, 0.6, 0.3, 0.1]));
    expect(pe.kind).toBe("point");
    expect((pe as { value: number }).value).toBeCloseTo(0.04 + 0.02 * (0.1 / 0.2), 12);
  });

  it("is floor-censored (‡) when the cue is already dispreferred at equal price", () => {
    expect(priceEquivalent(curve([0.42, 0.3, 0.2, 0.1, 0, 0, 0, 0]))).toEqual({
      kind: "floor",
      baseRate: 0.42,
    });
    // Even if the curve later rises above ½: the base rate gives the sign.
    expect(priceEquivalent(curve([0.45, 0.6, 0.6, 0.2, 0, 0, 0, 0]))).toEqual({
      kind: "floor",
      baseRate: 0.45,
    });
  });

  it("is right-censored (†) when the curve never reaches ½ within the sweep", () => {
    expect(priceEquivalent(curve([1, 1, 0.95, 0.9, 0.85, 0.8, 0.7, 0.51]))).toEqual({
      kind: "right",
      bound: 0.26,
    });
  });

  it("skips premiums without answers, and without an equal-price rate is not identified", () => {
    expect(priceEquivalent(curve([0.9, null, 0.7, 0.3, 0.2, 0.1, 0, 0]))).toEqual({
      kind: "point",
      value: expect.closeTo(0.05, 12),
    });
    expect(priceEquivalent(curve([null, 0.9, 0.7, 0.3, 0.2, 0.1, 0, 0])).kind).toBe("not-identified");
  });

  it("reads a curve's rate between grid points", () => {
    const c = curve([1, 1, 0.95, 0.9, 0.8, 0.2, 0.1, 0]);
    expect(rateAt(c, 0.1)).toBeCloseTo(0.5, 12);
    expect(rateAt(c, 0.08)).toBe(0.8);
    expect(rateAt(c, 0.5)).toBeNull();
  });
});

describe("censored summaries", () => {
  const point = (value: number): PriceEquivalent => ({ kind: "point", value });
  const floor: PriceEquivalent = { kind: "floor", baseRate: 0.4 };
  const right: PriceEquivalent = { kind: "right", bound: 0.26 };

  it("the median of per-pair PEs is a bound when a censored value sits in the middle", () => {
    expect(
      medianPriceEquivalent(
        [point(0.102), point(0.146), point(0.1), point(0.191), point(0.112), right],
        0.26,
      ),
    ).toEqual({
      kind: "point",
      value: (0.112 + 0.146) / 2,
    });
    expect(medianPriceEquivalent([point(0.1), right, right, point(0.2)], 0.26)).toEqual({
      kind: "above",
      value: 0.23,
    });
    expect(medianPriceEquivalent([floor, floor, point(0.04), point(0.1)], 0.26)).toEqual({
      kind: "at-most",
      value: 0.02,
    });
    expect(medianPriceEquivalent([floor, point(0.1), right], 0.26)).toEqual({ kind: "point", value: 0.1 });
    expect(medianPriceEquivalent([floor, right], 0.26)).toEqual({ kind: "unknown" });
    expect(medianPriceEquivalent([right, right, right], 0.26)).toEqual({ kind: "above", value: 0.26 });
  });

  it("a quantile that touches a censored draw is itself censored", () => {
    const draws = [Number.NEGATIVE_INFINITY, 0.01, 0.02, 0.03, Number.POSITIVE_INFINITY];
    expect(extendedQuantile(draws, 0)).toBe(Number.NEGATIVE_INFINITY);
    expect(extendedQuantile(draws, 0.1)).toBe(Number.NEGATIVE_INFINITY);
    expect(extendedQuantile(draws, 0.5)).toBe(0.02);
    expect(extendedQuantile(draws, 0.6)).toBeCloseTo(0.024, 12);
    expect(extendedQuantile(draws, 0.9)).toBe(Number.POSITIVE_INFINITY);
  });
});
