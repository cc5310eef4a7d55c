import { describe, expect, it } from "vitest";
import {
  buildCellTable,
  type CueObservation,
  estimateCondition,
  pairClusteredIntervals,
} from "../../../analysis/cue/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

const SETTINGS = { bootstrap: 0, level: 0.95, orderFollowingRate: 0.9 };

/**
 * Observations whose cell rates are exactly `rate(pair, premium, cuedFirst)`: n trials per state,
 * round(n·rate) of them choosing the cued product.
 */
function observations(
  pairs: string[],
  grid: number[],
  rate: (pair: string, premium: number, cuedFirst: boolean) => number,
  n = 20,
): CueObservation[] {
  const out: CueObservation[] = [];
  for (const pairId of pairs) {
    for (const premium of grid) {
      for (const cueTarget of ["A", "B"] as const) {
        for (const cuedFirst of [true, false]) {
          const k = Math.round(n * rate(pairId, premium, cuedFirst));
          for (let i = 0; i < n; i++) {
            const choseCued = i < k;
            out.push({
              agent: "a",
              block: "main",
              condition: "c",
              family: "f",
              intensity: null,
              oneSided: true,
              category: "x",
              pairId,
              premium,
              cueTarget,
              cuedFirst,
              instruction: 0,
              factors: null,
              choseCued,
              chosenSlot: choseCued === cuedFirst ? 0 : 1,
              nonResponseReason: null,
            });
          }
        }
      }
    }
  }
  return out;
}

describe("a condition's estimates", () => {
  const grid = [0, 0.02, 0.04, 0.06, 0.08];

  it("the pooled PE is the crossing of the averaged curve, not the mean of the per-order crossings", () => {
    // Cued first: 1, 1, 1, 1, 0.2 (crosses at 8% − 2%·0.3/0.8 = 7.25%).
    // Cued second: 0.9, 0.1, 0, 0, 0 (crosses at 2%·0.4/0.8 = 1%). Mean of the two: 4.125%.
    // Averaged: 0.95, 0.55, 0.5, 0.5, 0.1 — crosses ½ exactly at 4%.
    const first = [1, 1, 1, 1, 0.2];
    const second = [0.9, 0.1, 0, 0, 0];
    const obs = observations(
      ["p1", "p2"],
      grid,
      (_p, g, f) => (f ? first : second)[grid.indexOf(g)] as number,
    );
    const e = estimateCondition(obs, SETTINGS, createRng(1));
    expect(e.curve.map((p) => p.rate)).toEqual([0.95, 0.55, 0.5, 0.5, 0.1].map((x) => expect.closeTo(x, 12)));
    expect(e.pe).toEqual({ kind: "point", value: expect.closeTo(0.04, 12) });
    expect(e.cuedFirst.kind === "point" && e.cuedFirst.value).toBeCloseTo(0.0725, 12);
    expect(e.cuedSecond.kind === "point" && e.cuedSecond.value).toBeCloseTo(0.01, 12);
    expect(e.meanOfOrderCrossings).toBeCloseTo(0.04125, 12);
    expect(e.baseRate).toBeCloseTo(0.95, 12);
  });

  it("weights cells equally, so non-responses in one state do not tilt the curve", () => {
    const obs = observations(["p1"], [0, 0.1], (_p, g, f) => (g === 0 ? (f ? 1 : 0.5) : f ? 0.5 : 0));
    // Drop half the answers of the cued-first states at equal price (they become non-responses).
    let dropped = 0;
    const thinned = obs.map((o) => {
      if (o.premium === 0 && o.cuedFirst && o.choseCued && dropped++ % 2 === 0) {
        return { ...o, choseCued: null, chosenSlot: null, nonResponseReason: "off-format" };
      }
      return o;
    });
    const e = estimateCondition(thinned, SETTINGS, createRng(1));
    expect(e.curve[0]?.rate).toBeCloseTo(0.75, 12);
    expect(e.nonResponses).toBe(20);
    expect(buildCellTable(thinned).nonResponses[0]).toBe(20);
  });

  it("gives each pair its own crossing and the median over pairs", () => {
    const at: Record<string, number[]> = {
      p1: [1, 0.8, 0.2, 0, 0],
      p2: [1, 1, 0.9, 0.7, 0.3],
      p3: [1, 1, 1, 1, 0.9],
    };
    const obs = observations(["p1", "p2", "p3"], grid, (p, g) => at[p]?.[grid.indexOf(g)] as number);
    const e = estimateCondition(obs, SETTINGS, createRng(1));
    expect(e.perPair.map((x) => x.pe)).toEqual([
      { kind: "point", value: 0.03 },
      { kind: "point", value: expect.closeTo(0.07, 12) },
      { kind: "right", bound: 0.08 },
    ]);
    expect(e.pairMedian).toEqual({ kind: "point", value: expect.closeTo(0.07, 12) });
  });

  it("flags order-following as not identified instead of reporting a crossing at 0", () => {
    // Always the first card: S(g) = ½ everywhere, which would read as PE = 0.
    const obs = observations(["p1", "p2"], grid, (_p, _g, f) => (f ? 1 : 0));
    const e = estimateCondition(obs, SETTINGS, createRng(1));
    expect(e.crossing).toEqual({ kind: "point", value: 0 });
    expect(e.pe.kind).toBe("not-identified");
    expect((e.pe as { reason: string }).reason).toMatch(
      /first card is chosen in 100\.0% of equal-price trials/,
    );
    expect(e.equalPriceFirstRate).toBe(1);
  });
});

describe("the pair-clustered bootstrap", () => {
  const grid = [0, 0.02, 0.04, 0.06, 0.08];

  it("is reproducible from its seed and brackets the point estimate", () => {
    const shifts: Record<string, number> = { p1: 0, p2: 0.01, p3: 0.02, p4: -0.01, p5: 0.005, p6: 0.015 };
    const obs = observations(Object.keys(shifts), grid, (p, g) =>
      Math.min(1, Math.max(0, 0.5 - 12 * (g - 0.04 - (shifts[p] ?? 0)))),
    );
    const t = buildCellTable(obs);
    const a = pairClusteredIntervals(t, 400, createRng(9));
    expect(pairClusteredIntervals(t, 400, createRng(9))).toEqual(a);
    const e = estimateCondition(obs, { ...SETTINGS, bootstrap: 400 }, createRng(9));
    const value = (e.pe as { value: number }).value;
    expect(a.pooled.low as number).toBeLessThan(value);
    expect(a.pooled.high as number).toBeGreaterThan(value);
    expect(a.pooled.draws).toBe(400);
  });

  it("ends an interval in a bound when censored resamples reach it", () => {
    // One pair never crosses within the grid, the others do: some resamples are right-censored.
    const at: Record<string, number[]> = {
      p1: [1, 0.9, 0.6, 0.4, 0.2],
      p2: [1, 1, 1, 1, 1],
      p3: [1, 1, 1, 1, 1],
    };
    const obs = observations(Object.keys(at), grid, (p, g) => at[p]?.[grid.indexOf(g)] as number);
    const iv = pairClusteredIntervals(buildCellTable(obs), 500, createRng(3));
    expect(iv.pooled.high).toBe("right");
    expect(iv.pooled.rightDraws).toBeGreaterThan(0);
  });
});
