/**
 * Offers in the shop (specs/market.md Part 3): a listing that takes offers has a seller negotiator
 * who answers the shopper's `offer` calls inside their results. Each listing's negotiation is a
 * bargaining session of its own — the seller sees it exactly as a bargaining seller does (its
 * cost, the list price, every move of this pair and nothing of the others), and its moves are
 * judged by the bargaining rules: a deal only at a price the other side offered, a seller accepting
 * below its cost scored, not prevented. Pure functions; `rules.ts` runs them, the machine hands
 * the turn to the seller.
 */
import type { BargainAction } from "../bargain/actions.ts";
import { judgeAction } from "../bargain/judge.ts";
import { BargainObservation } from "../bargain/machine.ts";
import { openingMessages, sellerIntro } from "../bargain/prompt.ts";
import type { BargainMove, BargainView } from "../bargain/types.ts";
import type { Turn } from "../kernel/episode.ts";
import { ceilCents, formatUsd, roundCents, samePrice } from "../kernel/money.ts";
import type { Message } from "../kernel/types.ts";
import type { EndReason, Listing, Negotiation, NegotiationMove, OfferResult, ShopTask } from "./types.ts";

/** A negotiation as the episode keeps it: the public record and the seller's bargaining history. */
export interface NegotiationState extends Negotiation {
  history: BargainMove[];
}

/** An offer sent to its seller, waiting for the answer. */
export interface AwaitedOffer {
  id: string;
  seller: string;
  price: number;
  message: string;
  /** The shopper's step (tool call) that made the offer. */
  step: number;
  /** The bookkeeping note the call carried (`meta.note`), kept on the offer's move. */
  note?: string;
  listPrice: number;
  cost: number;
  cap: number | null;
  /** The run's offer rounds (`rules.offerRounds`): the pair's turn limit; absent without one. */
  rounds?: number;
}

/** A seller's answer, read by the bargaining rules. */
export interface SellerMove {
  move: "accept" | "counter" | "reject" | "quit" | "invalid";
  /** The accepted or countered price; null otherwise. */
  price: number | null;
  /** What the seller said (for `invalid`: why its answer could not be used). */
  message: string;
}

export type OfferCall =
  | { problem: string }
  | { awaiting: AwaitedOffer }
  | { result: OfferResult; negotiation: NegotiationState };

function negotiationOf(negotiations: readonly NegotiationState[], id: string): NegotiationState | undefined {
  for (const n of negotiations) if (n.id === id) return n;
  return undefined;
}

/** The shopper's offers this pair's seller has answered (an offer meeting its counter needs none). */
function answeredOffers(n: Negotiation): number {
  let k = 0;
  for (const m of n.offers) if (m.side === "buyer" && m.answer !== "deal") k++;
  return k;
}

/** The seller's counters in this pair, in order. */
function countersOf(n: NegotiationState): number[] {
  return n.history.filter((m) => m.role === "seller" && m.type === "offer").map((m) => m.price!);
}

/** A note as an optional field: absent, not undefined, so a record without one is unchanged. */
function noted(note: string | undefined): { note?: string } {
  return note === undefined ? {} : { note };
}

/**
 * The shopper's offer to a shown listing: refused when the listing takes no offers, when this pair
 * already has a deal or the seller ended it; a deal at once when it is exactly the seller's own
 * earlier counter (the seller offered that price: accepting it needs no answer); refused when the
 * pair is at its turn limit (`rules.offerRounds` offers answered) — so the seller's last counter is
 * a final offer, to take or leave, as a time-dependent seller's last step assumes; otherwise sent
 * to the seller. `note` is the call's bookkeeping (`meta.note`), kept on the offer's move.
 */
export function offerCall(
  l: Listing,
  offered: number,
  message: string,
  step: number,
  task: ShopTask,
  negotiations: readonly NegotiationState[],
  note?: string,
): OfferCall {
  if (!l.negotiation) {
    return {
      problem: `listing "${l.id}" does not take offers: book it at its price, or make offers only to listings marked Takes offers`,
    };
  }
  const price = roundCents(offered);
  if (price <= 0) return { problem: "invalid arguments for offer: price: the offer must be at least $0.01" };
  const n = negotiationOf(negotiations, l.id);
  if (n && n.deal !== null) {
    return {
      problem: `you already have a deal on listing "${l.id}" at ${formatUsd(n.deal)} a night: book it to book at that price`,
    };
  }
  if (n?.closed) {
    return {
      problem: `the seller of listing "${l.id}" ended the negotiation: it can still be booked at its price (${formatUsd(l.price)} a night)`,
    };
  }
  const cap = task.request.constraints.maxPrice;
  if (n) {
    for (const m of n.history) {
      if (m.role === "seller" && m.type === "offer" && samePrice(m.price!, price)) {
        const deal = m.price!;
        const move: NegotiationMove = {
          step,
          side: "buyer",
          move: "offer",
          price,
          message,
          answer: "deal",
          ...noted(note),
        };
        return {
          result: { kind: "offer", id: l.id, price, answer: "deal", counter: null, message: "", deal },
          negotiation: {
            ...n,
            offers: [...n.offers, move],
            deal,
            history: [...n.history, { role: "buyer", type: "deal", price: deal, talk: message }],
          },
        };
      }
    }
  }
  const rounds = task.rules.offerRounds;
  if (n && rounds !== undefined && answeredOffers(n) >= rounds) {
    const counters = countersOf(n).map(formatUsd);
    const take =
      counters.length > 0
        ? `offer exactly ${counters.length === 1 ? "its counter" : "one of its counters"} (${counters.join(", ")}) to take it, or book`
        : "book";
    return {
      problem: `listing "${l.id}" takes at most ${rounds} offers and its seller has answered ${rounds} without a deal: ${take} at its price (${formatUsd(l.price)} a night)`,
    };
  }
  return {
    awaiting: {
      id: l.id,
      seller: l.negotiation.seller,
      price,
      message,
      step,
      ...noted(note),
      listPrice: l.price,
      cost: l.negotiation.cost,
      cap,
      ...(rounds === undefined ? {} : { rounds }),
    },
  };
}

/** The bargaining history the seller answers: this pair's moves and the offer just made. */
function historyWith(w: AwaitedOffer, negotiations: readonly NegotiationState[]): BargainMove[] {
  const before = negotiationOf(negotiations, w.id)?.history ?? [];
  return [...before, { role: "buyer", type: "offer", price: w.price, talk: w.message }];
}

/**
 * The seller's answer read by the bargaining judge. An unreadable answer, a deal at a price the
 * shopper never offered, or a seller agent that failed to answer is `invalid`: the shopper reads a
 * rejection, and the seller is counted.
 */
export function sellerAnswer(
  w: AwaitedOffer,
  action: unknown,
  negotiations: readonly NegotiationState[],
  error?: string,
): SellerMove {
  if (error !== undefined) return { move: "invalid", price: null, message: `agent error: ${error}` };
  const j = judgeAction(action as BargainAction, "seller", w.id);
  if (!j.ok) return { move: "invalid", price: null, message: j.reason };
  switch (j.type) {
    case "offer":
      return { move: "counter", price: roundCents(j.price!), message: j.talk };
    case "deal": {
      const offered = historyWith(w, negotiations).some(
        (m) => m.role === "buyer" && m.type === "offer" && samePrice(m.price!, j.price!),
      );
      return offered
        ? { move: "accept", price: roundCents(j.price!), message: j.talk }
        : { move: "invalid", price: null, message: "a deal at a price the buyer never offered" };
    }
    case "reject":
      return { move: "reject", price: null, message: j.talk };
    case "quit":
      return { move: "quit", price: null, message: j.talk };
  }
}

/** The answer applied to the pair's negotiation, and the result the shopper reads. */
export function answerOffer(
  w: AwaitedOffer,
  m: SellerMove,
  negotiations: readonly NegotiationState[],
): { result: OfferResult; negotiations: NegotiationState[] } {
  const before = negotiationOf(negotiations, w.id);
  const n: NegotiationState = before ?? {
    id: w.id,
    seller: w.seller,
    listPrice: w.listPrice,
    cost: w.cost,
    cap: w.cap,
    offers: [],
    deal: null,
    closed: false,
    sellerInvalid: 0,
    history: [],
  };
  const offers: NegotiationMove[] = [
    ...n.offers,
    {
      step: w.step,
      side: "buyer",
      move: "offer",
      price: w.price,
      message: w.message,
      answer: m.move,
      ...noted(w.note),
    },
    { step: w.step, side: "seller", move: m.move, price: m.price, message: m.message },
  ];
  const history = historyWith(w, negotiations);
  if (m.move === "accept") history.push({ role: "seller", type: "deal", price: m.price, talk: m.message });
  else if (m.move === "counter")
    history.push({ role: "seller", type: "offer", price: m.price, talk: m.message });
  else if (m.move === "reject" || m.move === "quit")
    history.push({ role: "seller", type: m.move, price: null, talk: m.message });
  const next: NegotiationState = {
    ...n,
    offers,
    history,
    deal: m.move === "accept" ? m.price : n.deal,
    closed: n.closed || m.move === "quit",
    sellerInvalid: n.sellerInvalid + (m.move === "invalid" ? 1 : 0),
  };
  if (w.rounds !== undefined && next.deal === null && !next.closed && answeredOffers(next) >= w.rounds)
    next.atTurnLimit = true;
  const all = before ? negotiations.map((x) => (x === before ? next : x)) : [...negotiations, next];
  return {
    result: {
      kind: "offer",
      id: w.id,
      price: w.price,
      answer: m.move,
      counter: m.move === "counter" ? m.price : null,
      message: m.move === "invalid" ? "" : m.message,
      deal: m.move === "accept" ? m.price : null,
    },
    negotiations: all,
  };
}

/** What a booking costs: the agreed price where this pair has a deal, else the list price. */
export function bookedPrice(l: Listing, negotiations: readonly NegotiationState[]): number {
  return negotiationOf(negotiations, l.id)?.deal ?? l.price;
}

/**
 * Out of steps while some negotiation was still open: no deal, not ended by its seller, not at its
 * turn limit (a pair whose rounds ran out ended there, as a bargaining session does).
 */
export function isDeadlock(reason: EndReason, negotiations: readonly NegotiationState[]): boolean {
  return (
    reason === "out-of-steps" && negotiations.some((n) => n.deal === null && !n.closed && !n.atTurnLimit)
  );
}

/** The negotiation as the outcome keeps it (the seller's bargaining history left out). */
export function publicNegotiation(n: NegotiationState, task: ShopTask): Negotiation {
  const { history: _history, ...rest } = n;
  return { ...rest, cap: task.request.constraints.maxPrice };
}

/** Each seller's opening (its bargaining system prompt and inventory with its cost), per listing. */
const openings = new WeakMap<Listing, Message[]>();

function itemOf(l: Listing) {
  return {
    codename: l.id,
    title: `${l.name}, ${l.roomType}, one night`,
    description: l.description.text,
    listedPrice: l.price,
  };
}

/**
 * The seller's turn: the bargaining seller's view of this one pair — the listing as its item, its
 * cost as its limit, the run's offer rounds as its turn limit (without them the shopper's step
 * budget, the most offers one pair could see) — and that conversation as messages, so any
 * bargaining seller (rule, simulated, LLM, outside) answers unchanged.
 */
export function sellerTurn(
  w: AwaitedOffer,
  l: Listing,
  task: ShopTask,
  negotiations: readonly NegotiationState[],
): Turn<BargainView> {
  const costShown = ceilCents(w.cost);
  const maxTurns = task.rules.offerRounds ?? task.rules.maxSteps;
  let opening = openings.get(l);
  if (!opening) {
    opening = openingMessages("seller", sellerIntro(itemOf(l), costShown, maxTurns));
    openings.set(l, opening);
  }
  const item = itemOf(l);
  const view: BargainView = {
    role: "seller",
    codename: item.codename,
    title: item.title,
    description: item.description,
    listedPrice: item.listedPrice,
    limit: costShown,
    maxTurns,
    history: historyWith(w, negotiations),
  };
  return { role: w.seller, observation: new BargainObservation(opening, view) };
}
