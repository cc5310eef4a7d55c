/** What an agent books on the binary tasks: the operational view of its preferences. */
import { CHAINS, type Chain } from "../../datasets/hotels/schema.ts";
import type { ChoiceOption } from "../../environments/choice/types.ts";
import { mean, quantile } from "../stats/index.ts";
import type { ChoiceTrial } from "./types.ts";

export interface BookingOutcome {
  /** Valid binary answers, both display orders. */
  answers: number;
  /** Mean nightly price of the booked option, US dollars; null without answers. */
  meanPrice: number | null;
  medianPrice: number | null;
  meanStars: number | null;
  /** Share of bookings per chain family (fractions summing to 1). */
  chainShares: Record<Chain, number> | null;
}

export function bookingOutcome(trials: readonly ChoiceTrial[]): BookingOutcome {
  const booked: ChoiceOption[] = [];
  for (const t of trials) {
    if (t.kind !== "binary" || t.chosenSlot === null) continue;
    booked.push(t.options[t.chosenSlot] as ChoiceOption);
  }
  if (booked.length === 0)
    return { answers: 0, meanPrice: null, medianPrice: null, meanStars: null, chainShares: null };
  const prices = booked.map((o) => o.price);
  const chainShares = Object.fromEntries(CHAINS.map((c) => [c, 0])) as Record<Chain, number>;
  for (const o of booked) chainShares[o.chain] += 1 / booked.length;
  return {
    answers: booked.length,
    meanPrice: mean(prices),
    medianPrice: quantile(prices, 0.5),
    meanStars: mean(booked.map((o) => o.stars)),
    chainShares,
  };
}
