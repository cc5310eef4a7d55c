/**
 * Hagglers of one listing: the careful shopper, with part of its step budget held back, chooses the
 * listing it would book (searches, opens and the logit draw, all the careful shopper's own); if that
 * listing takes offers, the haggler bargains with its seller by a known policy and books it — at
 * the deal, or at the list price when none comes. A listing that takes no offers is booked at once.
 */
import type { Rng } from "../../../environments/kernel/rng.ts";
import type { ShopView } from "../../../environments/shop/types.ts";
import {
  book,
  type Call,
  canBid,
  carefulCalls,
  Haggler,
  offer as offerCall,
  type Pair,
  pairsOf,
  roundsLeft,
  stepsLeft,
} from "./haggler.ts";
import {
  type AnchoringPolicy,
  acceptMessage,
  anchoringMove,
  bidMessage,
  type HaggleMove,
  type SchedulePolicy,
  scheduleMove,
} from "./haggler-schedule.ts";
import { memoryOf } from "./memory.ts";

export interface SingleHaggleParams {
  policy: AnchoringPolicy | SchedulePolicy;
  /** Steps held back from the careful shopper for haggling (its booking step is its own). */
  reserve: number;
}

export class SingleListingHaggler extends Haggler<SingleHaggleParams> {
  protected calls(view: ShopView, rng: Rng): Call[] {
    // Once it has made an offer, the listing is the one it has been bargaining over (the careful
    // shopper is asked once, so its one draw is the careful shopper's own).
    const started = pairsOf(view).values().next().value as Pair | undefined;
    let id: string;
    if (started) id = started.id;
    else {
      const planned = carefulCalls((v, r) => this.careful.decide(v, r), view, rng, this.haggle.reserve);
      const first = planned[0];
      if (planned.length !== 1 || first?.name !== "book") return planned;
      id = first.args.id as string;
    }
    const card = memoryOf(view).seenById.get(id)?.card;
    if (!card?.negotiable) return [book(id)];
    const pair: Pair = started ?? { id, bids: [], counters: [], deal: null, closed: false };
    if (pair.deal !== null || pair.closed) return [book(id)];
    const cap = view.request.constraints.maxPrice;
    const bidAllowed = canBid(view, 1) && roundsLeft(view, pair);
    const p = this.haggle.policy;
    const move: HaggleMove =
      p.kind === "anchoring"
        ? anchoringMove(p, card.price, pair, bidAllowed)
        : scheduleMove(p, card.price, cap, pair, bidAllowed);
    if (move.kind === "bid" && bidAllowed)
      return [offerCall(id, move.price, bidMessage(move.price, pair.bids.length === 0))];
    if (move.kind === "accept" && stepsLeft(view) >= 2)
      return [offerCall(id, move.price, acceptMessage(move.price))];
    return [book(id)];
  }
}
