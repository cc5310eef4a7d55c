import { describe, expect, it } from "vitest";
import {
  chiSquareUpperTail,
  normalQuantile,
  normalUpperTail,
  tQuantile,
  twoSidedNormalP,
} from "../../../analysis/stats/index.ts";

// Reference values: scipy 1.10.1 (Debian python3-scipy), stats.norm.sf / norm.ppf / chi2.sf.
function expectRel(actual: number, expected: number, rel = 1e-9): void {
  if (expected === 0) expect(actual).toBe(0);
  else expect(Math.abs(actual - expected) / Math.abs(expected)).toBeLessThan(rel);
}

describe("normal tails", () => {
  it.each([
    [0, 0.5],
    [1.959963984540054, 0.025],
    [3, 0.0013498980316300933],
    [8.5, 9.47953482220325e-18],
    [10, 7.6198530241604696e-24],
    [20, 2.7536241186061556e-89],
    [-2, 0.9772498680518208],
  ])("normalUpperTail(%s) = %s", (z, p) => expectRel(normalUpperTail(z), p));

  it("keeps precision where 1 − cdf would round to zero", () => {
    expect(normalUpperTail(12)).toBeGreaterThan(0);
    expect(twoSidedNormalP(-10)).toBeCloseTo(2 * 7.6198530241604696e-24, 30);
    expectRel(twoSidedNormalP(-10), 2 * 7.6198530241604696e-24);
  });

  it("two-sided p is symmetric and capped at 1", () => {
    expectRel(twoSidedNormalP(1.959963984540054), 0.05);
    expect(twoSidedNormalP(0)).toBe(1);
    expect(twoSidedNormalP(2.5)).toBe(twoSidedNormalP(-2.5));
    expect(twoSidedNormalP(Number.NaN)).toBeNaN();
  });

  it.each([
    [0.5, 0],
    [0.975, 1.959963984540054],
    [0.025, -1.9599639845400545],
    [1e-10, -6.361340902404056],
    [0.999, 3.090232306167813],
  ])("normalQuantile(%s) = %s", (p, z) => {
    if (z === 0) expect(normalQuantile(p)).toBeCloseTo(0, 14);
    else expectRel(normalQuantile(p), z);
  });

  it("rejects a probability outside [0, 1]", () => {
    expect(() => normalQuantile(1.5)).toThrow(/probability/);
  });
});

describe("chi-square upper tail", () => {
  it.each([
    [3.84, 1, 0.05004352124870519],
    [10, 3, 0.01856613546304325],
    [100, 10, 5.4497019829205215e-17],
    [200, 5, 2.8406228986415534e-41],
    [0.5, 2, 0.7788007830714049],
    [30, 30, 0.4656537089440098],
    [1e-3, 4, 0.9999998750416589],
  ])("P(χ²(%s; df %s) > x) = %s", (x, df, p) => expectRel(chiSquareUpperTail(x, df), p));

  it("is 1 at and below zero and rejects df ≤ 0", () => {
    expect(chiSquareUpperTail(0, 3)).toBe(1);
    expect(chiSquareUpperTail(-1, 3)).toBe(1);
    expect(() => chiSquareUpperTail(1, 0)).toThrow(/df/);
  });
});

describe("Student t quantile", () => {
  // Reference values: scipy 1.17.1, stats.t.ppf(p, df).
  it.each([
    [0.975, 1, 12.706204736174694],
    [0.975, 2, 4.302652729749462],
    [0.975, 14, 2.144786687917804],
    [0.95, 14, 1.761310135774891],
    [0.975, 29, 2.045229642132703],
    [0.975, 59, 2.000995378088267],
    [0.995, 4, 4.604094871349992],
    [0.9, 3, 1.637744353696209],
    [0.975, 200, 1.9718962236339088],
    [0.975, 1000, 1.9623390808264083],
    [0.999, 9, 4.296805662729918],
  ])("tQuantile(%s, df %s) = %s", (p, df, t) => expectRel(tQuantile(p, df), t, 1e-10));

  it("is 0 at ½, tends to the normal quantile, and rejects what it cannot answer", () => {
    expect(tQuantile(0.5, 7)).toBe(0);
    // 50,000 terms of the series: still exact to rounding (scipy 1.9599877075346095).
    expectRel(tQuantile(0.975, 100_000), 1.9599877075346095, 1e-9);
    expect(tQuantile(0.975, 100_000)).toBeGreaterThan(normalQuantile(0.975));
    expect(() => tQuantile(0.975, 0)).toThrow(/degrees of freedom/);
    expect(() => tQuantile(0.975, 2.5)).toThrow(/whole number/);
    expect(() => tQuantile(0.3, 5)).toThrow(/½ ≤ p < 1/);
  });
});
