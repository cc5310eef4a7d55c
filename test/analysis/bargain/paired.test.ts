import { describe, expect, it } from "vitest";
import {
  analyzeBargain,
  comparePairedBuyers,
  defaultComparisons,
  type SessionInput,
  scoreSession,
} from "../../../analysis/bargain/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

function sessions(
  buyer: string,
  dealProb: number,
  seed: string,
  sellers = ["s1", "s2"],
  n = 80,
): SessionInput[] {
  const rng = createRng(seed);
  return sellers.flatMap((seller) =>
    Array.from({ length: n }, (_, i) => {
      const deal = rng.bernoulli(dealProb);
      return {
        scenarioId: `p${i}`,
        buyer,
        seller,
        replicate: 0,
        budget: 80,
        cost: 50,
        outcome: deal ? "deal" : "no-deal",
        endedBy: deal ? "deal" : "turn-limit",
        invalidSide: null,
        dealPrice: deal ? 65 : null,
        turns: 3,
      } satisfies SessionInput;
    }),
  );
}

describe("paired comparison of two buyers on the same scenarios", () => {
  it("differences are treatment − control over matched sessions, with a bootstrap interval over scenarios", () => {
    const rows = [...sessions("og-narrator", 1, "a"), ...sessions("plain", 0.5, "b")].map(scoreSession);
    const c = comparePairedBuyers(rows, "og-narrator", "plain", null, { resamples: 500, seed: 1 });
    expect(c).toMatchObject({ pairs: 160, scenarios: 80, resamples: 500 });
    const control = rows.filter((s) => s.buyer === "plain" && s.deal).length;
    expect(c.metrics.dealRateAll.treatment).toBe(1);
    expect(c.metrics.dealRateAll.control).toBe(control / 160);
    expect(c.metrics.dealRateAll.difference).toBeCloseTo(1 - control / 160, 12);
    expect(c.metrics.buyerSnp.difference).toBeCloseTo((160 - control) * 0.5, 10);
    expect(c.metrics.buyerProfit.difference).toBeCloseTo((160 - control) * 15, 8);
    const iv = c.metrics.dealRateAll.interval!;
    expect(iv.low).toBeGreaterThan(0.3);
    expect(iv.high).toBeLessThan(0.7);
    expect(iv.low).toBeLessThan(c.metrics.dealRateAll.difference!);
    expect(comparePairedBuyers(rows, "og-narrator", "plain", null, { resamples: 500, seed: 1 })).toEqual(c);
    // Same buyers per seller: half the pairs each.
    expect(comparePairedBuyers(rows, "og-narrator", "plain", "s1", { resamples: 100 }).pairs).toBe(80);
  });

  it("covers zero between two buyers of the same habits, and pairs only sessions both played", () => {
    const rows = [...sessions("x", 0.5, "c"), ...sessions("y", 0.5, "d").slice(10)].map(scoreSession);
    const c = comparePairedBuyers(rows, "x", "y", null, { resamples: 1000, seed: 2 });
    expect(c.pairs).toBe(150);
    const iv = c.metrics.dealRateAll.interval!;
    expect(iv.low).toBeLessThan(0);
    expect(iv.high).toBeGreaterThan(0);
    expect(comparePairedBuyers(rows, "x", "nobody", null).pairs).toBe(0);
  });

  it("one scenario: the differences, but no zero-width interval, and the note says why", () => {
    const rows = [...sessions("og-narrator", 1, "g", ["s1"], 1), ...sessions("plain", 0, "h", ["s1"], 1)].map(
      scoreSession,
    );
    const c = comparePairedBuyers(rows, "og-narrator", "plain", null, { resamples: 200, seed: 3 });
    expect(c).toMatchObject({ pairs: 1, scenarios: 1 });
    expect(c.metrics.dealRateAll.difference).toBe(1);
    for (const v of Object.values(c.metrics)) expect(v.interval).toBeNull();
    expect(c.intervalNote).toMatch(/^1 scenario: resampling scenarios needs 2 or more/);
    const two = [...sessions("og-narrator", 1, "g", ["s1"], 2), ...sessions("plain", 0, "h", ["s1"], 2)];
    const c2 = comparePairedBuyers(two.map(scoreSession), "og-narrator", "plain", null, { resamples: 200 });
    expect(c2.intervalNote).toBeNull();
    expect(c2.metrics.dealRateAll.interval).not.toBeNull();
  });

  it("compares every OG-Narrator buyer with every other buyer, per seller and pooled", () => {
    expect(defaultComparisons(["og-narrator", "sim:llm", "openai:m"])).toEqual([
      ["og-narrator", "sim:llm"],
      ["og-narrator", "openai:m"],
    ]);
    expect(defaultComparisons(["a", "b", "c"])).toEqual([
      ["a", "b"],
      ["a", "c"],
    ]);
    const a = analyzeBargain([...sessions("og-narrator", 0.9, "e"), ...sessions("sim:llm", 0.4, "f")], {
      resamples: 200,
    });
    expect(a.comparisons.map((c) => c.seller)).toEqual(["s1", "s2", null]);
    expect(a.pairings).toHaveLength(4);
    expect(a.scenarios).toEqual({ total: 80, MI: 80, CI: 0 });
  });
});
