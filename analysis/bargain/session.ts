import type { BargainRole, EndReason, Interest, SessionOutcome } from "../../environments/bargain/types.ts";
import { type NarratorInput, type NarratorUse, narratorUse } from "./narrator.ts";

/** What scoring reads of a session record (the export contract has these fields and more). */
export interface SessionInput {
  scenarioId: string;
  buyer: string;
  seller: string;
  replicate: number;
  /** B, the buyer's budget. */
  budget: number;
  /** C, the seller's cost. */
  cost: number;
  outcome: SessionOutcome;
  endedBy: EndReason;
  invalidSide: BargainRole | null;
  dealPrice: number | null;
  turns: number;
  /** The messages, read only to count an LLM narrator's template fallbacks. */
  transcript?: NarratorInput["transcript"];
}

export const INVALID_CAUSES = [
  "buyer-action-error",
  "seller-action-error",
  "buyer-fake-deal",
  "seller-fake-deal",
] as const;
export type InvalidCause = (typeof INVALID_CAUSES)[number];

/** A session with its interest, validity and profits. */
export interface ScoredSession {
  scenarioId: string;
  buyer: string;
  seller: string;
  replicate: number;
  /** From the unadjusted B and C: C > B is conflicting interest. */
  interest: Interest;
  /** Neither an action error nor a fake deal. */
  valid: boolean;
  /** A valid deal. */
  deal: boolean;
  invalidCause: InvalidCause | null;
  dealPrice: number | null;
  /** P_b = B′ − D with the small-gap-adjusted budget B′; null without a deal. */
  buyerProfit: number | null;
  /** P_s = D − C; null without a deal. */
  sellerProfit: number | null;
  /** P′_b = (B′ − D) / |B′ − C|. */
  buyerNormalized: number | null;
  /** P′_s = (D − C) / |B′ − C|. */
  sellerNormalized: number | null;
  turns: number;
  /** An LLM narrator's turns and template fallbacks; null for other buyers. */
  narrator: NarratorUse | null;
}

/**
 * The reference code's small-gap rule: when 0 ≤ B − C < 1 the budget becomes C + 1, when
 * −1 < B − C < 0 it becomes C − 1, so |B′ − C| (the normalizer) is at least $1. The adjusted
 * budget also enters the buyer's raw profit.
 */
export function adjustBudget(budget: number, cost: number): { budget: number; room: number } {
  const gap = budget - cost;
  if (gap >= 0 && gap < 1) return { budget: cost + 1, room: 1 };
  if (gap < 0 && gap > -1) return { budget: cost - 1, room: 1 };
  return { budget, room: Math.abs(gap) };
}

export function interestOf(budget: number, cost: number): Interest {
  return cost > budget ? "CI" : "MI";
}

export function scoreSession(s: SessionInput): ScoredSession {
  const interest = interestOf(s.budget, s.cost);
  const valid = s.outcome !== "invalid";
  const invalidCause: InvalidCause | null = valid
    ? null
    : (`${s.invalidSide ?? "buyer"}-${s.endedBy === "fake-deal" ? "fake-deal" : "action-error"}` as InvalidCause);
  const deal = valid && s.outcome === "deal" && s.dealPrice !== null;
  let buyerProfit: number | null = null;
  let sellerProfit: number | null = null;
  let buyerNormalized: number | null = null;
  let sellerNormalized: number | null = null;
  if (deal) {
    const d = s.dealPrice!;
    const { budget, room } = adjustBudget(s.budget, s.cost);
    buyerProfit = budget - d;
    sellerProfit = d - s.cost;
    buyerNormalized = buyerProfit / room;
    sellerNormalized = sellerProfit / room;
  }
  return {
    scenarioId: s.scenarioId,
    buyer: s.buyer,
    seller: s.seller,
    replicate: s.replicate,
    interest,
    valid,
    deal,
    invalidCause,
    dealPrice: deal ? s.dealPrice : null,
    buyerProfit,
    sellerProfit,
    buyerNormalized,
    sellerNormalized,
    turns: s.turns,
    narrator: narratorUse(s),
  };
}
