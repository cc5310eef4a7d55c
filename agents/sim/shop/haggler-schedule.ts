/**
 * The haggling policies of the simulated market buyers as pure functions of one negotiation: the
 * next move on a listing given what its seller has said. Known numbers, so that what a haggler pays
 * against a known seller can be worked out by hand (the tests do, to the cent).
 */
import { formatUsd } from "../../../environments/kernel/money.ts";
import { bidAt, lowestAsk, type Pair } from "./haggler.ts";

/**
 * Anchoring: opens at `open` × the list price, raises by `raise` × the list price a round up to
 * `walkAway` × the list price (and bids that again while the budget lasts), and accepts the seller's
 * lowest counter as soon as it is at or below the walk-away price.
 */
export interface AnchoringPolicy {
  kind: "anchoring";
  open: number;
  raise: number;
  walkAway: number;
}

/**
 * A concession schedule: the r-th bid is `fractions[r]` × min(list price, the request's price cap);
 * before each bid it accepts the seller's lowest counter if that is no more than the bid; after the
 * last bid (or when the budget allows no other) it accepts the lowest counter if it is below the list
 * price and within the cap, else it books at the list price.
 */
export interface SchedulePolicy {
  kind: "schedule";
  fractions: readonly number[];
}

export type HaggleMove =
  | { kind: "bid"; price: number }
  | { kind: "accept"; price: number }
  /** Nothing more to say to this seller: book (at the deal, or at the list price). */
  | { kind: "done" };

/**
 * Under the shop's rules an offer within a cent of one of the seller's counters is that counter (a
 * deal at its price), so a bid that close is made as the acceptance of the lowest counter instead.
 */
export function acceptable(ask: number | null, bid: number): ask is number {
  return ask !== null && ask <= bid + 0.01 + 1e-9;
}

/** A fraction of a sum of fractions without binary dust (0.7 + 0.1 is 0.7999…). */
function clean(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}

export function anchoringMove(
  p: AnchoringPolicy,
  listPrice: number,
  pair: Pair,
  bidAllowed: boolean,
): HaggleMove {
  const ask = lowestAsk(pair);
  const walkAway = bidAt(p.walkAway, listPrice);
  if (ask !== null && ask <= walkAway) return { kind: "accept", price: ask };
  if (!bidAllowed) return { kind: "done" };
  const fraction = Math.min(clean(p.open + pair.bids.length * p.raise), p.walkAway);
  const bid = bidAt(fraction, listPrice);
  return acceptable(ask, bid) ? { kind: "accept", price: ask } : { kind: "bid", price: bid };
}

/** The price a schedule concedes toward: the list price, or the cap where that is lower. */
export function scheduleTarget(listPrice: number, cap: number | null): number {
  return cap === null ? listPrice : Math.min(listPrice, cap);
}

export function scheduleMove(
  p: SchedulePolicy,
  listPrice: number,
  cap: number | null,
  pair: Pair,
  bidAllowed: boolean,
): HaggleMove {
  const target = scheduleTarget(listPrice, cap);
  const ask = lowestAsk(pair);
  const r = pair.bids.length;
  if (bidAllowed && r < p.fractions.length) {
    const bid = bidAt(p.fractions[r]!, target);
    return acceptable(ask, bid) ? { kind: "accept", price: ask } : { kind: "bid", price: bid };
  }
  if (ask !== null && ask < listPrice && ask <= target) return { kind: "accept", price: ask };
  return { kind: "done" };
}

/** What a haggler says with a bid: a greeting with the first, the seller-playing quote when it has one. */
export function bidMessage(price: number, first: boolean, quote: number | null = null): string {
  const ask = first
    ? `Hi! Would you take ${formatUsd(price)} a night?`
    : `I can offer ${formatUsd(price)} a night.`;
  return quote === null ? ask : `Another seller offers ${formatUsd(quote)} a night. ${ask}`;
}

export function acceptMessage(price: number): string {
  return `Deal at ${formatUsd(price)} a night.`;
}
