/**
 * The intervals a run that stops itself compares with its targets (analysis/stats/sequential.ts),
 * each against an independent computation: Wilson's interval against Newcombe's published values
 * and against the score test inverted by bisection, Fieller's against its defining inequality
 * solved by bisection, the clustered share's design effect and the clustered mean by hand.
 */
import { describe, expect, it } from "vitest";
import { normalQuantile, tQuantile } from "../../../analysis/stats/distributions.ts";
import {
  asymptoticCsHalfWidth,
  clusteredMeanInterval,
  clusteredShareInterval,
  fiellerInterval,
  MIN_DESIGN_EFFECT,
  MIN_MEAN_UNITS,
  targetHolds,
  waldInterval,
  wilsonInterval,
} from "../../../analysis/stats/sequential.ts";
import { formatHalfWidth } from "../../../analysis/stats/targets.ts";

const Z = normalQuantile(0.975);

/** The root of a monotone-crossing f on [lo, hi] (f(lo), f(hi) of opposite signs). */
function bisect(f: (x: number) => number, lo: number, hi: number): number {
  let a = lo;
  let b = hi;
  const fa = Math.sign(f(a));
  for (let k = 0; k < 200; k++) {
    const m = (a + b) / 2;
    if (Math.sign(f(m)) === fa) a = m;
    else b = m;
  }
  return (a + b) / 2;
}

/** The score test's acceptance region {p : (p̂ − p)² ≤ z²·p(1 − p)/n}, its ends found by bisection. */
function scoreInterval(phat: number, n: number) {
  const f = (p: number) => (phat - p) ** 2 - (Z * Z * p * (1 - p)) / n;
  return {
    low: phat === 0 ? 0 : bisect(f, 0, phat),
    high: phat === 1 ? 1 : bisect(f, phat, 1),
  };
}

describe("wilsonInterval", () => {
  it("gives Newcombe's (1998) published Wilson intervals", () => {
    // Newcombe, Statistics in Medicine 17:857, table I: 81/263, 15/148, 0/20, 1/29.
    const cases: [number, number, number, number][] = [
      [81, 263, 0.2553, 0.3662],
      [15, 148, 0.0624, 0.1605],
      [0, 20, 0, 0.1611],
      [1, 29, 0.0061, 0.1718],
    ];
    for (const [x, n, low, high] of cases) {
      const w = wilsonInterval(x / n, n);
      expect(w.low).toBeCloseTo(low, 4);
      expect(w.high).toBeCloseTo(high, 4);
    }
  });

  it("is the score test inverted, for fractional n too", () => {
    for (const [p, n] of [
      [0.3, 17.5],
      [0.97, 40],
      [1, 35],
      [0.5, 3.2],
    ] as const) {
      const w = wilsonInterval(p, n);
      const s = scoreInterval(p, n);
      expect(w.low).toBeCloseTo(s.low, 10);
      expect(w.high).toBeCloseTo(s.high, 10);
    }
  });

  it("refuses what is no share", () => {
    expect(() => wilsonInterval(1.2, 10)).toThrow(RangeError);
    expect(() => wilsonInterval(0.5, 0)).toThrow(RangeError);
  });
});

describe("clusteredShareInterval", () => {
  it("units of one answer each: the sandwich variance is the binomial one times G/(G − 1)", () => {
    const answers = [1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1, 0];
    const g = answers.length;
    const p = answers.filter(Boolean).length / g;
    const iv = clusteredShareInterval(answers.map((h) => ({ hits: h, n: 1 })))!;
    const w = wilsonInterval(p, (g * (g - 1)) / g);
    expect(iv.estimate).toBe(p);
    expect(iv.low).toBeCloseTo(w.low, 12);
    expect(iv.high).toBeCloseTo(w.high, 12);
    expect(iv.halfWidth).toBeCloseTo((w.high - w.low) / 2, 12);
    expect(iv.units).toBe(g);
  });

  it("clustered units: the design effect read off the units' residuals", () => {
    const units = [
      { hits: 3, n: 4 },
      { hits: 0, n: 2 },
      { hits: 2, n: 3 },
      { hits: 4, n: 4 },
      { hits: 1, n: 3 },
    ];
    const n = 16;
    const p = 10 / n;
    const residuals = [3 - 4 * p, 0 - 2 * p, 2 - 3 * p, 4 - 4 * p, 1 - 3 * p];
    const clustered = ((5 / 4) * residuals.reduce((s, r) => s + r * r, 0)) / (n * n);
    const deff = clustered / ((p * (1 - p)) / n);
    expect(deff).toBeGreaterThan(MIN_DESIGN_EFFECT);
    const w = wilsonInterval(p, n / deff);
    const iv = clusteredShareInterval(units)!;
    expect(iv.low).toBeCloseTo(w.low, 12);
    expect(iv.high).toBeCloseTo(w.high, 12);
  });

  it("a design effect below the floor is raised to it (counterbalanced units that agree)", () => {
    // Each pair shown in both orders, the same hotel booked both times: first-shown exactly once.
    const units = Array.from({ length: 8 }, () => ({ hits: 1, n: 2 }));
    const iv = clusteredShareInterval(units)!;
    const w = wilsonInterval(0.5, 16 / MIN_DESIGN_EFFECT);
    expect(iv.low).toBeCloseTo(w.low, 12);
    expect(iv.high).toBeCloseTo(w.high, 12);
  });

  it("at a share of 1 the effective sample is the distinct tasks answered, not the answers", () => {
    // Four replicates of each of 2 tasks per unit, all hits: a model that repeats one answer.
    const units = Array.from({ length: 10 }, () => ({ hits: 8, n: 8, tasks: 2 }));
    const iv = clusteredShareInterval(units)!;
    const w = wilsonInterval(1, 20);
    expect(iv.estimate).toBe(1);
    expect(iv.low).toBeCloseTo(w.low, 12);
    expect(iv.high).toBe(1);
    // Without `tasks`, a unit's answers count.
    const bare = clusteredShareInterval(units.map(({ hits, n }) => ({ hits, n })))!;
    expect(bare.low).toBeCloseTo(wilsonInterval(1, 80).low, 12);
  });

  it("is null with answers in fewer than 2 units, and refuses more hits than answers", () => {
    expect(clusteredShareInterval([{ hits: 3, n: 5 }])).toBeNull();
    expect(
      clusteredShareInterval([
        { hits: 3, n: 5 },
        { hits: 0, n: 0 },
      ]),
    ).toBeNull();
    expect(() =>
      clusteredShareInterval([
        { hits: 3, n: 2 },
        { hits: 1, n: 1 },
      ]),
    ).toThrow(RangeError);
  });
});

describe("clusteredMeanInterval", () => {
  const units = Array.from({ length: 40 }, (_, i) => ({ sum: ((i * 7) % 11) + (i % 3), n: 1 + (i % 3) }));

  it("is the ratio of sums with a unit-clustered SE and t on G − 1 degrees of freedom", () => {
    const g = units.length;
    const n = units.reduce((s, u) => s + u.n, 0);
    const m = units.reduce((s, u) => s + u.sum, 0) / n;
    const ss = units.reduce((s, u) => s + (u.sum - m * u.n) ** 2, 0);
    const half = tQuantile(0.975, g - 1) * (Math.sqrt((g / (g - 1)) * ss) / n);
    const iv = clusteredMeanInterval(units)!;
    expect(iv.estimate).toBeCloseTo(m, 12);
    expect(iv.halfWidth).toBeCloseTo(half, 12);
    expect(iv.low).toBeCloseTo(m - half, 12);
    expect(iv.provisional).toBeUndefined();
    expect(targetHolds(iv, half * 1.01)).toBe(true);
  });

  it("is provisional below its units, and while too few units differ from the most common value", () => {
    const few = clusteredMeanInterval(units.slice(0, MIN_MEAN_UNITS - 1))!;
    expect(few.provisional).toMatch(/of the 30 units/);
    expect(targetHolds(few, 1e9)).toBe(false);
    // Zero regret in 36 units, a little in 4: no variance to trust yet.
    const zeros = [...Array.from({ length: 36 }, () => ({ sum: 0, n: 1 })), ...units.slice(1, 5)];
    const iv = clusteredMeanInterval(zeros)!;
    expect(iv.provisional).toMatch(/4 of the 5 units away from the most common value/);
    expect(targetHolds(iv, 1e9)).toBe(false);
  });
});

describe("fiellerInterval", () => {
  const cases = [
    // a, b, vaa, vbb, vab: a WTP-like ratio, a skewed one, a correlated one.
    [300, -7, 900, 0.25, 4],
    [-2, -0.8, 0.04, 0.03, 0.005],
    [1.5, 2, 0.2, 0.1, -0.08],
  ] as const;

  it("is every θ with (a − θb)² ≤ z²·Var(a − θb), its ends found by bisection", () => {
    for (const [a, b, vaa, vbb, vab] of cases) {
      const iv = fiellerInterval(a, b, vaa, vbb, vab, 50)!;
      const f = (t: number) => (a - t * b) ** 2 - Z * Z * (vaa - 2 * t * vab + t * t * vbb);
      const theta = a / b;
      const span = 100 * Math.abs(theta) + 100;
      expect(iv.estimate).toBe(theta);
      expect(iv.low).toBeCloseTo(bisect(f, theta - span, theta), 8);
      expect(iv.high).toBeCloseTo(bisect(f, theta, theta + span), 8);
      expect(iv.units).toBe(50);
    }
  });

  it("follows the ratio's skew, and is null when the denominator may be 0", () => {
    const iv = fiellerInterval(-2, -0.8, 0.04, 0.03, 0, 10)!;
    // A denominator nearer 0 makes larger ratios: the upper side is the longer one.
    expect(iv.high - iv.estimate).toBeGreaterThan(iv.estimate - iv.low);
    expect(fiellerInterval(1, 0.3, 0.1, 0.05, 0, 10)).toBeNull();
  });
});

describe("waldInterval, targetHolds and the confidence sequence", () => {
  it("Wald: estimate ± z·se", () => {
    const iv = waldInterval(-7, 0.5, 300);
    expect(iv.low).toBeCloseTo(-7 - Z * 0.5, 12);
    expect(iv.halfWidth).toBeCloseTo(Z * 0.5, 12);
    expect(targetHolds(iv, Z * 0.5)).toBe(true);
    expect(targetHolds(iv, Z * 0.5 * 0.999)).toBe(false);
    expect(targetHolds(null, 10)).toBe(false);
  });

  it("the asymptotic CS is the normal-mixture boundary, wider than the fixed-n interval everywhere", () => {
    const se = 0.4;
    const nOpt = 500;
    const alpha = 0.05;
    const rho2 = (-2 * Math.log(alpha) + Math.log(-2 * Math.log(alpha) + 1)) / nOpt;
    for (const n of [10, 100, 500, 3000]) {
      const v = se * se * n;
      const expected = Math.sqrt(
        (v * (2 * (n * rho2 + 1)) * Math.log(Math.sqrt(n * rho2 + 1) / alpha)) / (n * n * rho2),
      );
      const half = asymptoticCsHalfWidth(se, n, nOpt);
      expect(half).toBeCloseTo(expected, 10);
      expect(half).toBeGreaterThan(Z * se);
    }
    expect(() => asymptoticCsHalfWidth(0.1, 0, 10)).toThrow(RangeError);
  });

  it("a half-width is written back in its unit", () => {
    expect(formatHalfWidth(0.05, "pts")).toBe("±5pts");
    expect(formatHalfWidth(10, "usd")).toBe("±$10");
    expect(formatHalfWidth(0.6, "plain")).toBe("±0.6");
  });
});
