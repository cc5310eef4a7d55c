/**
 * The primacy diagnostic: how often the agent takes the first card, overall and where little else
 * pulls (one-sided cues with a small PE). A counterbalanced first-option lean averages out of the
 * pooled curve, but a near-deterministic one pins it at ½, which would read as indifference.
 */
import type { ConditionEstimate } from "./condition.ts";

export interface PrimacyDiagnostic {
  /** Share of answered trials that took the first card, over every condition of the category. */
  firstOptionRate: number | null;
  answered: number;
  /** The same over one-sided cues whose PE is below `lowSignalPe` (floor-censored ones included). */
  lowSignal: { firstOptionRate: number | null; answered: number; conditions: string[] };
  /** Conditions whose PE is not identified because the agent follows the card order. */
  orderFollowing: string[];
}

function pooledRate(estimates: readonly ConditionEstimate[]): { rate: number | null; answered: number } {
  let first = 0;
  let answered = 0;
  for (const e of estimates) {
    if (e.firstOptionRate === null) continue;
    first += e.firstOptionRate * e.answered;
    answered += e.answered;
  }
  return { rate: answered > 0 ? first / answered : null, answered };
}

export function primacyDiagnostic(
  estimates: readonly ConditionEstimate[],
  lowSignalPe: number,
): PrimacyDiagnostic {
  const all = pooledRate(estimates);
  const low = estimates.filter(
    (e) =>
      e.oneSided &&
      (e.crossing.kind === "floor" || (e.crossing.kind === "point" && e.crossing.value < lowSignalPe)),
  );
  const lowRate = pooledRate(low);
  return {
    firstOptionRate: all.rate,
    answered: all.answered,
    lowSignal: {
      firstOptionRate: lowRate.rate,
      answered: lowRate.answered,
      conditions: low.map((e) => e.condition),
    },
    orderFollowing: estimates
      .filter((e) => e.pe.kind === "not-identified" && e.crossing.kind !== "not-identified")
      .map((e) => e.condition),
  };
}
