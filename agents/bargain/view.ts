import type { BargainMove, BargainView } from "../../environments/bargain/types.ts";

/**
 * What a negotiator reads off its view. Agents keep no state between moves: everything comes from
 * the history, so one instance plays any number of sessions at once, and serve-sim can rebuild the
 * same view from a conversation.
 */
export interface Reading {
  /** Own moves so far: the index of the move being made now. */
  step: number;
  /** Whether this is the side's last move before the turn limit. */
  lastStep: boolean;
  ownOffers: number[];
  counterOffers: number[];
  /** The other side's most recent offer, if it made any. */
  lastCounter: number | null;
  /** The other side's best offer so far: the highest bid for a seller, the lowest ask for a buyer. */
  bestCounter: number | null;
}

export function read(view: BargainView): Reading {
  const ownOffers: number[] = [];
  const counterOffers: number[] = [];
  let step = 0;
  for (const m of view.history as BargainMove[]) {
    if (m.role === view.role) {
      step++;
      if (m.type === "offer") ownOffers.push(m.price!);
    } else if (m.type === "offer") counterOffers.push(m.price!);
  }
  let bestCounter: number | null = null;
  for (const x of counterOffers) {
    if (bestCounter === null || (view.role === "seller" ? x > bestCounter : x < bestCounter)) bestCounter = x;
  }
  return {
    step,
    lastStep: step >= view.maxTurns - 1,
    ownOffers,
    counterOffers,
    lastCounter: counterOffers.at(-1) ?? null,
    bestCounter,
  };
}
