import { describe, expect, it } from "vitest";
import { type SessionInput, scoreSession, summarizeByInterest } from "../../../analysis/bargain/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

/**
 * The reference evaluation, re-derived independently from its definition: invalid sessions
 * (wrongAction) are dropped from the MI/CI sets; deal rates divide by valid sessions there and by all
 * sessions for ALL; profits are summed and averaged over deals, with the small-gap budget.
 */
function referenceEval(rows: SessionInput[]) {
  const metric = (r: SessionInput) => {
    let budget = r.budget;
    let room = Math.abs(r.budget - r.cost);
    if (r.budget - r.cost >= 0 && r.budget - r.cost < 1) [budget, room] = [r.cost + 1, 1];
    else if (r.budget - r.cost < 0 && r.budget - r.cost > -1) [budget, room] = [r.cost - 1, 1];
    return {
      pb: budget - r.dealPrice!,
      ps: r.dealPrice! - r.cost,
      rb: (budget - r.dealPrice!) / room,
      rs: (r.dealPrice! - r.cost) / room,
    };
  };
  const valid = rows.filter((r) => r.outcome !== "invalid");
  const mi = valid.filter((r) => !(r.cost > r.budget));
  const ci = valid.filter((r) => r.cost > r.budget);
  const deals = (xs: SessionInput[]) => xs.filter((r) => r.outcome === "deal");
  const sums = (xs: SessionInput[]) =>
    deals(xs)
      .map(metric)
      .reduce((a, m) => ({ pb: a.pb + m.pb, ps: a.ps + m.ps, rb: a.rb + m.rb, rs: a.rs + m.rs }), {
        pb: 0,
        ps: 0,
        rb: 0,
        rs: 0,
      });
  return {
    miRate: deals(mi).length / mi.length,
    ciRate: deals(ci).length / ci.length,
    allRate: deals(valid).length / rows.length,
    mi: sums(mi),
    ci: sums(ci),
    all: sums(valid),
    avgRbAll: sums(valid).rb / deals(valid).length,
  };
}

function randomSessions(n: number): SessionInput[] {
  const rng = createRng("summary");
  return Array.from({ length: n }, (_, i) => {
    const cost = Math.round(rng.uniform(5, 500) * 100) / 100;
    const budget = rng.bernoulli(0.1) ? cost + rng.uniform(-1, 1) : cost * rng.uniform(0.7, 2.5);
    const u = rng.next();
    const outcome = u < 0.55 ? "deal" : u < 0.85 ? "no-deal" : "invalid";
    return {
      scenarioId: `s${i}`,
      buyer: "b",
      seller: "s",
      replicate: 0,
      budget,
      cost,
      outcome,
      endedBy:
        outcome === "deal"
          ? "deal"
          : outcome === "no-deal"
            ? "turn-limit"
            : rng.bernoulli(0.5)
              ? "fake-deal"
              : "action-error",
      invalidSide: outcome === "invalid" ? (rng.bernoulli(0.5) ? "buyer" : "seller") : null,
      dealPrice: outcome === "deal" ? Math.round(rng.uniform(0.8, 1.3) * cost * 100) / 100 : null,
      turns: 1 + rng.int(6),
    } satisfies SessionInput;
  });
}

describe("summaries per MI / CI / ALL", () => {
  it("agree with an independent computation of the reference evaluation", () => {
    const rows = randomSessions(500);
    const ref = referenceEval(rows);
    const s = summarizeByInterest(rows.map(scoreSession));
    expect(s.MI.dealRateValid).toBeCloseTo(ref.miRate, 12);
    expect(s.CI.dealRateValid).toBeCloseTo(ref.ciRate, 12);
    expect(s.ALL.dealRateAll).toBeCloseTo(ref.allRate, 12);
    for (const [group, sums] of [
      ["MI", ref.mi],
      ["CI", ref.ci],
      ["ALL", ref.all],
    ] as const) {
      expect(s[group].buyer.sum).toBeCloseTo(sums.pb, 8);
      expect(s[group].seller.sum).toBeCloseTo(sums.ps, 8);
      expect(s[group].buyer.snp).toBeCloseTo(sums.rb, 8);
      expect(s[group].seller.snp).toBeCloseTo(sums.rs, 8);
    }
    expect(s.ALL.buyer.meanNormalized).toBeCloseTo(ref.avgRbAll, 12);
    // P_b + P_s = B′ − C for every deal, so the two SNPs add up to ±1 per deal.
    expect(s.ALL.invalid).toBe(rows.filter((r) => r.outcome === "invalid").length);
  });

  it("counts sessions, invalid causes and turns to deal on a hand-made set", () => {
    const base = {
      scenarioId: "s",
      buyer: "b",
      seller: "s",
      replicate: 0,
      budget: 80,
      cost: 50,
      turns: 2,
    } as const;
    const rows: SessionInput[] = [
      { ...base, outcome: "deal", endedBy: "deal", invalidSide: null, dealPrice: 60, turns: 2 },
      { ...base, outcome: "deal", endedBy: "deal", invalidSide: null, dealPrice: 70, turns: 4 },
      { ...base, outcome: "no-deal", endedBy: "quit", invalidSide: null, dealPrice: null },
      { ...base, outcome: "invalid", endedBy: "fake-deal", invalidSide: "buyer", dealPrice: null },
      { ...base, cost: 90, outcome: "deal", endedBy: "deal", invalidSide: null, dealPrice: 95, turns: 6 },
    ];
    const s = summarizeByInterest(rows.map(scoreSession));
    expect(s.MI).toMatchObject({
      sessions: 4,
      valid: 3,
      invalid: 1,
      deals: 2,
      dealRateValid: 2 / 3,
      dealRateAll: 0.5,
    });
    expect(s.MI.buyer).toMatchObject({ sum: 30, mean: 15 });
    expect(s.MI.buyer.snp).toBeCloseTo(20 / 30 + 10 / 30, 12);
    expect(s.MI.turnsToDeal).toEqual({ mean: 3, median: 3 });
    expect(s.MI.invalidByCause).toEqual({
      "buyer-action-error": 0,
      "seller-action-error": 0,
      "buyer-fake-deal": 1,
      "seller-fake-deal": 0,
    });
    expect(s.CI).toMatchObject({ sessions: 1, deals: 1, dealRateValid: 1 });
    expect(s.CI.buyer).toMatchObject({ sum: -15, snp: -1.5 });
    expect(s.ALL).toMatchObject({ sessions: 5, deals: 3, dealRateAll: 0.6, dealRateValid: 0.75 });
    const none = summarizeByInterest([]);
    expect(none.ALL).toMatchObject({
      sessions: 0,
      dealRateValid: null,
      dealRateAll: null,
      turnsToDeal: null,
    });
    expect(none.ALL.buyer).toEqual({ sum: 0, mean: null, meanNormalized: null, snp: 0 });
  });
});
