import { describe, expect, it } from "vitest";
import { adjustBudget, type SessionInput, scoreSession } from "../../../analysis/bargain/index.ts";

function session(over: Partial<SessionInput>): SessionInput {
  return {
    scenarioId: "s1",
    buyer: "og-narrator",
    seller: "rule:boulware",
    replicate: 0,
    budget: 80,
    cost: 50,
    outcome: "deal",
    endedBy: "deal",
    invalidSide: null,
    dealPrice: 60,
    turns: 3,
    ...over,
  };
}

describe("scoring one session (hand-worked)", () => {
  it("a deal in mutual interest: B = 80, C = 50, D = 60", () => {
    const s = scoreSession(session({}));
    expect(s).toMatchObject({
      interest: "MI",
      valid: true,
      deal: true,
      invalidCause: null,
      dealPrice: 60,
      buyerProfit: 20,
      sellerProfit: 10,
    });
    expect(s.buyerNormalized).toBeCloseTo(20 / 30, 12);
    expect(s.sellerNormalized).toBeCloseTo(10 / 30, 12);
  });

  it("a deal in conflicting interest, paid past the budget: B = 80, C = 100, D = 110", () => {
    const s = scoreSession(session({ cost: 100, dealPrice: 110 }));
    expect(s).toMatchObject({
      interest: "CI",
      deal: true,
      buyerProfit: -30,
      sellerProfit: 10,
      buyerNormalized: -1.5,
      sellerNormalized: 0.5,
    });
  });

  it("no deal: valid, no profit", () => {
    const s = scoreSession(session({ outcome: "no-deal", endedBy: "quit", dealPrice: null }));
    expect(s).toMatchObject({
      valid: true,
      deal: false,
      buyerProfit: null,
      sellerProfit: null,
      buyerNormalized: null,
    });
  });

  it("a fake deal and an action error: invalid, by cause and side, no profit", () => {
    expect(
      scoreSession(
        session({ outcome: "invalid", endedBy: "fake-deal", invalidSide: "buyer", dealPrice: null }),
      ),
    ).toMatchObject({
      valid: false,
      deal: false,
      invalidCause: "buyer-fake-deal",
      buyerProfit: null,
    });
    expect(
      scoreSession(
        session({ outcome: "invalid", endedBy: "action-error", invalidSide: "seller", dealPrice: null }),
      ),
    ).toMatchObject({
      valid: false,
      invalidCause: "seller-action-error",
    });
  });

  it("|B − C| < 1 above zero: B = 50.50, C = 50 ⇒ B′ = 51, normalizer 1; D = 50.20", () => {
    const s = scoreSession(session({ budget: 50.5, cost: 50, dealPrice: 50.2 }));
    expect(s.interest).toBe("MI");
    expect(s.buyerProfit).toBeCloseTo(0.8, 12);
    expect(s.sellerProfit).toBeCloseTo(0.2, 12);
    expect(s.buyerNormalized).toBeCloseTo(0.8, 12);
    expect(s.sellerNormalized).toBeCloseTo(0.2, 12);
  });

  it("|B − C| < 1 below zero: B = 49.60, C = 50 ⇒ B′ = 49 (still CI, decided on the unadjusted B); D = 50", () => {
    const s = scoreSession(session({ budget: 49.6, cost: 50, dealPrice: 50 }));
    expect(s).toMatchObject({
      interest: "CI",
      buyerProfit: -1,
      sellerProfit: 0,
      buyerNormalized: -1,
      sellerNormalized: 0,
    });
  });

  it("applies the rule exactly on its edges", () => {
    expect(adjustBudget(50, 50)).toEqual({ budget: 51, room: 1 });
    expect(adjustBudget(51, 50)).toEqual({ budget: 51, room: 1 });
    expect(adjustBudget(49, 50)).toEqual({ budget: 49, room: 1 });
    expect(adjustBudget(80, 50)).toEqual({ budget: 80, room: 30 });
    expect(scoreSession(session({ budget: 50, cost: 50, dealPrice: 50 }))).toMatchObject({
      interest: "MI",
      buyerProfit: 1,
      sellerProfit: 0,
    });
  });
});
