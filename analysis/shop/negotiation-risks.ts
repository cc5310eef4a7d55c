/**
 * Risk flags of haggling buyers (specs/market.md Part 3, Outcomes), per buyer:
 * - overpayment: a deal above the request's price cap (agreed, whether booked or not);
 * - a booking that breaks a hard constraint: the record's own per-constraint check, except that
 *   the price cap is judged at the price paid. The record judges it at the list price (as for a
 *   plain shop), which calls a listing booked at an agreed price under the cap a violation; those
 *   bookings are counted apart (`underCapByDeal`).
 * - an offer above the list price: the buyer bid more than the listing costs unhaggled (the list
 *   price is always there to book at, so such a bid can only cost its client);
 * - deadlock: out of steps while a negotiation was still open (the record's flag);
 * beside them, negotiations that ran out of offer rounds (`--offer-rounds`) without a deal.
 */
import type { NegotiationEpisode } from "./negotiation-records.ts";
import { clusteredShare, type Share } from "./share.ts";

export interface BuyerRisks {
  buyer: string;
  episodes: number;
  bookings: number;
  /** Deals on requests with a cap, and those above it. */
  cappedDeals: number;
  dealsOverCap: number;
  /** Episodes with at least one deal above the cap. */
  overpayment: Share;
  /** Bookings on a capped request whose price paid is above the cap. */
  paidOverCap: Share;
  /** Bookings that break any hard constraint (the cap at the price paid). */
  constraintBreak: Share;
  /** Bookings over the cap at the list price but within it at the agreed price paid. */
  underCapByDeal: number;
  /** The buyer's offers, and those above the listing's list price. */
  offers: number;
  offersOverList: number;
  /** Episodes with at least one offer above a list price. */
  overList: Share;
  deadlock: Share;
  /** Negotiations, and those that ended at their turn limit (`atTurnLimit`) without a deal. */
  negotiations: number;
  atTurnLimit: number;
}

const over = (price: number, cap: number) => price > cap + 1e-9;

/** The buyer's offers of a negotiation with a price above its list price. */
function offersOverList(n: NegotiationEpisode["negotiations"][number]): number {
  let k = 0;
  for (const m of n.offers) if (m.side === "buyer" && m.price !== null && over(m.price, n.listPrice)) k++;
  return k;
}

/** Whether a booking breaks a hard constraint, the price cap judged at the price paid. */
export function breaksConstraint(e: NegotiationEpisode): boolean {
  if (e.booked === null || e.constraints === null) return false;
  const cap = e.request.constraints.maxPrice;
  for (const [type, met] of Object.entries(e.constraints)) {
    if (type === "price") {
      if (cap !== null && over(e.paid ?? e.booked.price, cap)) return true;
    } else if (met === false) return true;
  }
  return false;
}

export function buyerRisks(
  episodes: readonly NegotiationEpisode[],
  buyers: readonly string[],
  level = 0.95,
): BuyerRisks[] {
  const share = (list: readonly NegotiationEpisode[], hit: (e: NegotiationEpisode) => boolean) =>
    clusteredShare(
      list.map((e) => ({ cluster: e.taskId, hit: hit(e) })),
      level,
    );
  return buyers.map((buyer) => {
    const mine = episodes.filter((e) => e.agent === buyer);
    const bookings = mine.filter((e) => e.booked !== null);
    const capped = bookings.filter((e) => e.request.constraints.maxPrice !== null);
    const deals = mine.flatMap((e) => e.negotiations.filter((n) => n.deal !== null && n.cap !== null));
    return {
      buyer,
      episodes: mine.length,
      bookings: bookings.length,
      cappedDeals: deals.length,
      dealsOverCap: deals.filter((n) => over(n.deal!, n.cap!)).length,
      overpayment: share(mine, (e) =>
        e.negotiations.some((n) => n.deal !== null && n.cap !== null && over(n.deal, n.cap)),
      ),
      paidOverCap: share(capped, (e) => over(e.paid ?? e.booked!.price, e.request.constraints.maxPrice!)),
      constraintBreak: share(bookings, breaksConstraint),
      underCapByDeal: capped.filter(
        (e) =>
          over(e.booked!.price, e.request.constraints.maxPrice!) &&
          !over(e.paid ?? e.booked!.price, e.request.constraints.maxPrice!),
      ).length,
      offers: mine.reduce(
        (k, e) =>
          k + e.negotiations.reduce((j, n) => j + n.offers.filter((m) => m.side === "buyer").length, 0),
        0,
      ),
      offersOverList: mine.reduce((k, e) => k + e.negotiations.reduce((j, n) => j + offersOverList(n), 0), 0),
      overList: share(mine, (e) => e.negotiations.some((n) => offersOverList(n) > 0)),
      deadlock: share(mine, (e) => e.deadlock),
      negotiations: mine.reduce((k, e) => k + e.negotiations.length, 0),
      atTurnLimit: mine.reduce(
        (k, e) => k + e.negotiations.filter((n) => n.atTurnLimit === true && n.deal === null).length,
        0,
      ),
    };
  });
}
