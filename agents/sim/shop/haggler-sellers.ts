/**
 * The seller-playing haggler: it searches like the careful shopper (its searches and further pages,
 * with steps held back for haggling; it opens nothing — the searches filter every hard constraint,
 * so every listing they show is admissible), then bargains with the sellers of the cheapest
 * negotiable listings at once, one offer to each per message, each negotiation by the one-seller
 * schedule on its own listing. Each bid tells its seller the lowest counter another seller has
 * made, when that is lower than this seller's own ("Another seller offers $X a night."). It books
 * the cheapest admissible listing it can: a deal, or a list price where that is lower still.
 */
import type { Rng } from "../../../environments/kernel/rng.ts";
import type { ShopView } from "../../../environments/shop/types.ts";
import {
  book,
  type Call,
  canBid,
  candidatesOf,
  carefulCalls,
  cheapest,
  firstOfferStep,
  giveUp,
  Haggler,
  lowestAsk,
  negotiableByPrice,
  offer,
  type Pair,
  pairsOf,
  roundsLeft,
  stepsLeft,
} from "./haggler.ts";
import { acceptMessage, bidMessage, type SchedulePolicy, scheduleMove } from "./haggler-schedule.ts";

export interface SellerPlayingParams {
  policy: SchedulePolicy;
  /** The most sellers it bargains with at once. */
  maxSellers: number;
  /** Steps held back from the careful searches (they page only while these remain for haggling). */
  reserve: number;
}

/**
 * How many sellers fit a budget of `left` steps: each needs one step per bid and one to accept, and
 * one step is left to book.
 */
export function sellersThatFit(p: SellerPlayingParams, left: number): number {
  return Math.max(0, Math.min(p.maxSellers, Math.floor((left - 1) / (p.policy.fractions.length + 1))));
}

/** The lowest counter any other seller of the episode has made. */
function lowestElsewhere(pairs: ReadonlyMap<string, Pair>, id: string): number | null {
  let low: number | null = null;
  for (const p of pairs.values()) {
    const ask = p.id === id ? null : lowestAsk(p);
    if (ask !== null && (low === null || ask < low)) low = ask;
  }
  return low;
}

export class SellerPlayingHaggler extends Haggler<SellerPlayingParams> {
  protected calls(view: ShopView, rng: Rng): Call[] {
    const pairs = pairsOf(view);
    const first = firstOfferStep(pairs);
    if (first === null) {
      const planned = carefulCalls(
        (v, r) => this.careful.decide(v, r),
        view,
        rng.fork("careful"),
        this.haggle.reserve,
      );
      if (planned.every((c) => c.name === "search")) return planned;
    }
    const candidates = candidatesOf(view);
    const fallback = cheapest(candidates, pairs);
    if (!fallback) return [giveUp(view)];
    // The sellers were chosen at the first offer, by the budget left then: read it off the view.
    const left = first === null ? stepsLeft(view) : view.rules.maxSteps - (first - 1);
    const sellers = negotiableByPrice(candidates).slice(0, sellersThatFit(this.haggle, left));
    const cap = view.request.constraints.maxPrice;
    const open = sellers.filter((s) => {
      const p = pairs.get(s.card.id);
      return !p || (p.deal === null && !p.closed);
    });
    const bidding = open.filter(
      (s) =>
        (pairs.get(s.card.id)?.bids.length ?? 0) < this.haggle.policy.fractions.length &&
        roundsLeft(view, pairs.get(s.card.id)),
    ).length;
    const bidAllowed = canBid(view, bidding);
    const calls: Call[] = [];
    for (const s of open) {
      const id = s.card.id;
      const pair = pairs.get(id) ?? { id, bids: [], counters: [], deal: null, closed: false };
      const move = scheduleMove(
        this.haggle.policy,
        s.card.price,
        cap,
        pair,
        bidAllowed && roundsLeft(view, pair),
      );
      if (move.kind === "accept") calls.push(offer(id, move.price, acceptMessage(move.price)));
      else if (move.kind === "bid") {
        const elsewhere = lowestElsewhere(pairs, id);
        const own = lowestAsk(pair);
        const quote = elsewhere !== null && (own === null || elsewhere < own) ? elsewhere : null;
        calls.push(offer(id, move.price, bidMessage(move.price, pair.bids.length === 0, quote)));
      }
    }
    // Never the booking's step: what does not fit waits (the budget rule above makes this rare).
    const room = stepsLeft(view) - 1;
    if (calls.length === 0 || room <= 0) return [book(fallback.card.id)];
    return calls.slice(0, room);
  }
}
