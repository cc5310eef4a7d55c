import { mean, quantile } from "../stats/index.ts";
import { type NarratorUse, sumNarratorUse } from "./narrator.ts";
import { INVALID_CAUSES, type InvalidCause, type ScoredSession } from "./session.ts";

export interface SideProfit {
  /** Σ raw profit over deals (no-deal sessions add 0). */
  sum: number;
  /** Mean raw profit per deal; null without deals. */
  mean: number | null;
  /** Mean normalized profit per deal; null without deals. */
  meanNormalized: number | null;
  /** Sum of Normalized Profits: Σ P′ over deals. */
  snp: number;
}

/** The paper's metrics over one group of sessions (MI, CI or ALL of one pairing or buyer). */
export interface GroupSummary {
  sessions: number;
  valid: number;
  invalid: number;
  deals: number;
  /** Deals ÷ valid sessions (the reference's MI and CI convention); null without valid sessions. */
  dealRateValid: number | null;
  /** Deals ÷ all sessions, invalid included (the reference's ALL convention); null without sessions. */
  dealRateAll: number | null;
  buyer: SideProfit;
  seller: SideProfit;
  /** Turns of the sessions that ended in a deal. */
  turnsToDeal: { mean: number; median: number } | null;
  invalidByCause: Record<InvalidCause, number>;
  /** LLM narrator turns and how many fell back to the template line; null without an LLM narrator. */
  narrator: NarratorUse | null;
}

export const GROUPS = ["MI", "CI", "ALL"] as const;
export type Group = (typeof GROUPS)[number];
export type ByInterest = Record<Group, GroupSummary>;

function side(values: number[], normalized: number[]): SideProfit {
  const sum = values.reduce((a, b) => a + b, 0);
  return {
    sum,
    mean: values.length > 0 ? mean(values) : null,
    meanNormalized: normalized.length > 0 ? mean(normalized) : null,
    snp: normalized.reduce((a, b) => a + b, 0),
  };
}

export function summarizeGroup(sessions: readonly ScoredSession[]): GroupSummary {
  const deals = sessions.filter((s) => s.deal);
  const valid = sessions.filter((s) => s.valid).length;
  const invalidByCause = Object.fromEntries(INVALID_CAUSES.map((c) => [c, 0])) as Record<
    InvalidCause,
    number
  >;
  for (const s of sessions) if (s.invalidCause) invalidByCause[s.invalidCause]++;
  const turns = deals.map((s) => s.turns);
  return {
    sessions: sessions.length,
    valid,
    invalid: sessions.length - valid,
    deals: deals.length,
    dealRateValid: valid > 0 ? deals.length / valid : null,
    dealRateAll: sessions.length > 0 ? deals.length / sessions.length : null,
    buyer: side(
      deals.map((s) => s.buyerProfit!),
      deals.map((s) => s.buyerNormalized!),
    ),
    seller: side(
      deals.map((s) => s.sellerProfit!),
      deals.map((s) => s.sellerNormalized!),
    ),
    turnsToDeal: turns.length > 0 ? { mean: mean(turns), median: quantile(turns, 0.5) } : null,
    invalidByCause,
    narrator: sumNarratorUse(sessions.map((s) => s.narrator)),
  };
}

/** MI, CI and ALL summaries of a set of sessions. */
export function summarizeByInterest(sessions: readonly ScoredSession[]): ByInterest {
  return {
    MI: summarizeGroup(sessions.filter((s) => s.interest === "MI")),
    CI: summarizeGroup(sessions.filter((s) => s.interest === "CI")),
    ALL: summarizeGroup(sessions),
  };
}
