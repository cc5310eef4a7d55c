/** Triage: does an agent choose by attributes at all, or by display position? */
import { TASK_KINDS, type TaskKind } from "../../environments/choice/types.ts";
import type { ChoiceTrial, UnmatchedAnswers } from "./types.ts";

/** |first-shown rate − 0.5| above this ⇒ position-locked (the reference: cut-offs at 15% and 85%). */
export const LOCK_THRESHOLD = 0.35;

export type TriageVerdict = "engaged" | "locked-primacy" | "locked-recency" | "no-data";

export interface SlotShares {
  /** Valid answers of this task kind. */
  answers: number;
  /** Share of answers per display slot (0 = first shown). */
  shares: number[];
}

export interface ChoiceTriage {
  trials: number;
  nonResponses: number;
  nonResponseRate: number;
  /** Binary and ternary answers that booked option A or B of the set (the statistic's denominator). */
  pairAnswers: number;
  /** Of `pairAnswers`, answers that match no task, counted because the convention says so. */
  unmatchedPairAnswers: number;
  /**
   * Of those, the share that booked whichever of A and B was shown earlier — the reference's
   * first-shown rate (original "A" + swap "B" over all A/B answers). 0.5 is attribute-driven, 1.0
   * pure primacy, 0.0 pure recency. Null without such answers.
   */
  firstShownRate: number | null;
  /** The first-slot share of binary answers alone. */
  binaryFirstSlotRate: number | null;
  slotShares: Partial<Record<TaskKind, SlotShares>>;
  verdict: TriageVerdict;
  /**
   * Share of bookings decided by listing order, |2·rate − 1| of the first-shown rate: if a share λ
   * of answers follow a slot and the rest follow attributes (which favour the first-shown option half
   * the time in a counterbalanced design), the first-shown rate is λ + (1 − λ)/2. 0 for an agent
   * that ignores position, 1 for one that always books the same slot; the lock rule is λ > 0.7.
   * (The paper's "listing order determines 88–100% of their bookings" quotes the rate itself.)
   */
  orderDecidedShare: number | null;
}

function shareOf(hits: number, n: number): number | null {
  return n === 0 ? null : hits / n;
}

/** The A and B letters of unmatched answers: how many, and how many were the first-shown one. */
export function unmatchedPairCounts(unmatched: readonly UnmatchedAnswers[]): {
  pairAnswers: number;
  firstShown: number;
} {
  let pairAnswers = 0;
  let firstShown = 0;
  for (const u of unmatched) {
    const a = u.letters.A ?? 0;
    const b = u.letters.B ?? 0;
    pairAnswers += a + b;
    firstShown += u.swap ? b : a;
  }
  return { pairAnswers, firstShown };
}

/**
 * The first-shown rate and the verdict. `unmatched` answers (matching no task) enter the rate only —
 * never the slot shares or the non-response count — and only when the caller passes them.
 */
export function triageAgent(
  trials: readonly ChoiceTrial[],
  threshold = LOCK_THRESHOLD,
  unmatched: readonly UnmatchedAnswers[] = [],
): ChoiceTriage {
  let nonResponses = 0;
  const extra = unmatchedPairCounts(unmatched);
  let pairAnswers = extra.pairAnswers;
  let firstShown = extra.firstShown;
  let binaryAnswers = 0;
  let binaryFirst = 0;
  const slotCounts = new Map<TaskKind, number[]>();
  for (const t of trials) {
    if (t.chosenSlot === null) {
      nonResponses++;
      continue;
    }
    const counts = slotCounts.get(t.kind) ?? [];
    counts[t.chosenSlot] = (counts[t.chosenSlot] ?? 0) + 1;
    slotCounts.set(t.kind, counts);
    const option = t.order[t.chosenSlot] as number;
    if (t.kind === "binary") {
      binaryAnswers++;
      if (t.chosenSlot === 0) binaryFirst++;
    }
    if ((t.kind === "binary" || t.kind === "ternary") && option <= 1) {
      pairAnswers++;
      const other = t.order.indexOf(1 - option);
      if (t.chosenSlot < other) firstShown++;
    }
  }
  const firstShownRate = shareOf(firstShown, pairAnswers);
  let verdict: TriageVerdict = "no-data";
  if (firstShownRate !== null) {
    if (Math.abs(firstShownRate - 0.5) > threshold)
      verdict = firstShownRate > 0.5 ? "locked-primacy" : "locked-recency";
    else verdict = "engaged";
  }
  const slotShares: Partial<Record<TaskKind, SlotShares>> = {};
  for (const kind of TASK_KINDS) {
    const counts = slotCounts.get(kind);
    if (!counts) continue;
    const k = trials.find((t) => t.kind === kind)?.options.length ?? counts.length;
    const answers = counts.reduce((a, b) => a + (b ?? 0), 0);
    slotShares[kind] = { answers, shares: Array.from({ length: k }, (_, s) => (counts[s] ?? 0) / answers) };
  }
  return {
    trials: trials.length,
    nonResponses,
    nonResponseRate: trials.length === 0 ? 0 : nonResponses / trials.length,
    pairAnswers,
    unmatchedPairAnswers: extra.pairAnswers,
    firstShownRate,
    binaryFirstSlotRate: shareOf(binaryFirst, binaryAnswers),
    slotShares,
    verdict,
    orderDecidedShare: firstShownRate === null ? null : Math.abs(2 * firstShownRate - 1),
  };
}

export function isLocked(verdict: TriageVerdict): boolean {
  return verdict === "locked-primacy" || verdict === "locked-recency";
}
