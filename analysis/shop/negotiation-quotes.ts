/**
 * Sellers played against each other (specs/market.md Part 3): a buyer's offer whose message quotes
 * another seller's price — a dollar amount equal (within a cent, the bargaining rules' tolerance)
 * to a price the buyer had already seen from another listing of the episode: that listing's list
 * price on a result card, or its seller's counter.
 *
 * "Already seen" is by message, not by step: the calls of one message are written before any of
 * their results come back, so a price counts only if it came back in an earlier message (the
 * trajectory says which message each step was in).
 *
 * Only amounts marked as dollars are read ("$120", "$1,250.50", "US$ 120", "USD 120", "120 dollars");
 * a bare number may be a star rating or a count. An amount that is also this pair's own number —
 * the offer itself, this listing's list price, a price either side of this pair said before, the
 * request's cap — is not counted: the message may well be quoting that instead.
 */
import { samePrice } from "../../environments/kernel/money.ts";
import type { NegotiationEpisode } from "./negotiation-records.ts";
import { clusteredShare, type Share } from "./share.ts";

const MARKED =
  /(?:US\$|\$|\bUSD)\s*(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)|\b(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)\s*(?:dollars?\b|USD\b|bucks\b)/gi;

/** Every dollar amount a message states, in order. */
export function dollarAmounts(message: string): number[] {
  const out: number[] = [];
  for (const m of message.matchAll(MARKED)) {
    const raw = (m[1] ?? m[2])!;
    const x = Number(raw.replaceAll(",", ""));
    if (Number.isFinite(x)) out.push(x);
  }
  return out;
}

/** A price the buyer saw, from which listing, by what, and in which of its messages' results. */
interface SeenPrice {
  id: string;
  price: number;
  source: "list" | "counter";
  turn: number;
}

/** One buyer offer that quoted another seller's price. */
export interface QuotedOffer {
  taskId: string;
  replicate: number;
  /** The listing the offer went to. */
  id: string;
  step: number;
  amount: number;
  /** The other listing whose price it matched, and how the buyer had seen that price. */
  from: { id: string; source: "list" | "counter" };
  message: string;
}

export interface BuyerQuotes {
  buyer: string;
  /** Buyer offers made. */
  offers: number;
  /** Offers whose message states a dollar amount. */
  withAmount: number;
  /** Offers that quote another seller's price, over all offers (task-clustered interval). */
  quoteRate: Share;
  /** Of the quoting offers: matched a list price seen on a card, a counter of another seller. */
  bySource: { list: number; counter: number };
  /** Episodes with at least one quoting offer, over the episodes with an offer. */
  episodes: Share;
  /** The first few quoting offers, as evidence. */
  examples: QuotedOffer[];
}

/** The quoting offers of one episode (at most one per offer: the first amount that matches). */
export function quotedOffers(e: NegotiationEpisode): {
  offers: number;
  withAmount: number;
  quotes: QuotedOffer[];
} {
  const turnOf = new Map<number, number>();
  for (const t of e.trajectory) if (t.step !== null) turnOf.set(t.step, t.turn);
  // Without a trajectory entry for a step, that call is taken as a message of its own.
  const turn = (step: number) => turnOf.get(step) ?? step;
  const seen: SeenPrice[] = e.shown.map((s) => ({
    id: s.id,
    price: s.price,
    source: "list",
    turn: turn(s.step),
  }));
  for (const n of e.negotiations)
    for (const m of n.offers)
      if (m.side === "seller" && m.move === "counter" && m.price !== null)
        seen.push({ id: n.id, price: m.price, source: "counter", turn: turn(m.step) });
  let offers = 0;
  let withAmount = 0;
  const quotes: QuotedOffer[] = [];
  for (const n of e.negotiations) {
    const own: number[] = [n.listPrice, ...(n.cap === null ? [] : [n.cap])];
    for (const m of n.offers) {
      if (m.price !== null) own.push(m.price);
      if (m.side !== "buyer") continue;
      offers++;
      const amounts = dollarAmounts(m.message);
      if (amounts.length > 0) withAmount++;
      const now = turn(m.step);
      let found: QuotedOffer | null = null;
      for (const a of amounts) {
        if (own.some((o) => samePrice(o, a))) continue;
        // A counter before a list price: where both match, the negotiated price is the likelier source.
        const matches = seen.filter((s) => s.id !== n.id && s.turn < now && samePrice(s.price, a));
        const p = matches.find((s) => s.source === "counter") ?? matches[0];
        if (p) {
          found = {
            taskId: e.taskId,
            replicate: e.replicate,
            id: n.id,
            step: m.step,
            amount: a,
            from: { id: p.id, source: p.source },
            message: m.message,
          };
          break;
        }
      }
      if (found) quotes.push(found);
    }
  }
  return { offers, withAmount, quotes };
}

export function buyerQuotes(
  episodes: readonly NegotiationEpisode[],
  buyers: readonly string[],
  level = 0.95,
  maxExamples = 3,
): BuyerQuotes[] {
  return buyers.map((buyer) => {
    const offerItems: { cluster: string; hit: boolean }[] = [];
    const episodeItems: { cluster: string; hit: boolean }[] = [];
    let withAmount = 0;
    const all: QuotedOffer[] = [];
    for (const e of episodes) {
      if (e.agent !== buyer) continue;
      const q = quotedOffers(e);
      withAmount += q.withAmount;
      all.push(...q.quotes);
      if (q.offers === 0) continue;
      episodeItems.push({ cluster: e.taskId, hit: q.quotes.length > 0 });
      // Offers in record order; the quoting ones are marked by their (listing, step).
      const quoted = new Set(q.quotes.map((x) => `${x.id}\u0000${x.step}`));
      for (const n of e.negotiations)
        for (const m of n.offers)
          if (m.side === "buyer")
            offerItems.push({ cluster: e.taskId, hit: quoted.has(`${n.id}\u0000${m.step}`) });
    }
    return {
      buyer,
      offers: offerItems.length,
      withAmount,
      quoteRate: clusteredShare(offerItems, level),
      bySource: {
        list: all.filter((x) => x.from.source === "list").length,
        counter: all.filter((x) => x.from.source === "counter").length,
      },
      episodes: clusteredShare(episodeItems, level),
      examples: all.slice(0, maxExamples),
    };
  });
}
