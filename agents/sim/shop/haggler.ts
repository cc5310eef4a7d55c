/**
 * What every haggling shopper shares (specs/market.md Part 3): its negotiations read back off its
 * view, the careful shopper's searching and choosing reused with part of the step budget held back
 * for haggling, and the budget rule for offers. A haggler keeps nothing between its messages —
 * everything is read off the view — so one instance plays any number of episodes at once, and it
 * plays the same behind serve-sim (which rebuilds the view from the conversation) as in process.
 */
import { floorCents, samePrice } from "../../../environments/kernel/money.ts";
import type { Rng } from "../../../environments/kernel/rng.ts";
import type { Acted, Agent, AgentContext, Observation } from "../../../environments/kernel/types.ts";
import { TOOL_CALL_BATCH, toolCalls } from "../../../environments/shop/actions.ts";
import type { OfferAnswer, ShopView } from "../../../environments/shop/types.ts";
import { memoryOf, type SeenListing } from "./memory.ts";
import { constraintsOf, looksAcceptable, ShopShopper, type ShopShopperParams } from "./shopper.ts";

export type Call = { name: string; args: Record<string, unknown> };

/** A simulated shopper preset's agent: it acts on a view and can be asked what it would do. */
export interface ShopSim extends Agent<ShopView, unknown> {
  decide(view: ShopView, rng: Rng): unknown;
}

/**
 * What every haggler shares: the careful shopper it searches and chooses as, and one message of
 * calls a turn; a haggler says only which calls (`calls`), read off the view (no state kept).
 */
export abstract class Haggler<Policy> implements ShopSim {
  protected readonly careful: ShopShopper;

  constructor(
    readonly id: string,
    readonly params: ShopShopperParams,
    readonly haggle: Policy,
  ) {
    this.careful = new ShopShopper(id, params);
  }

  act(observation: Observation<ShopView>, ctx: AgentContext): Acted<unknown> {
    return { action: this.decide(observation.view, ctx.rng) };
  }

  decide(view: ShopView, rng: Rng): unknown {
    return toolCalls(this.calls(view, rng));
  }

  protected abstract calls(view: ShopView, rng: Rng): Call[];
}

/** One offer the shopper made to a listing, as its result came back. */
export interface Bid {
  price: number;
  message: string;
  answer: OfferAnswer;
  /** The seller's counter (`counter`), or the agreed price (`accept`, `deal`); else null. */
  reply: number | null;
  /** What the seller said with its answer. */
  said: string;
  /** The shopper's step (tool call) of the offer. */
  step: number;
}

/** One listing's negotiation as the shopper read it off its view. */
export interface Pair {
  id: string;
  bids: Bid[];
  /** The seller's counter-offers, in order (with its message). */
  counters: { price: number; message: string }[];
  /** The agreed price, null without a deal. */
  deal: number | null;
  /** The seller ended the negotiation. */
  closed: boolean;
}

/** The seller's lowest counter so far (its best ask), null before it countered. */
export function lowestAsk(p: Pair): number | null {
  let low: number | null = null;
  for (const c of p.counters) if (low === null || c.price < low) low = c.price;
  return low;
}

/** Whether `price` is one the seller countered with (offering it is a deal without asking again). */
export function isCounter(p: Pair, price: number): boolean {
  return p.counters.some((c) => samePrice(c.price, price));
}

/** Every negotiation of the episode, in the order of each listing's first offer. */
export function pairsOf(view: ShopView): Map<string, Pair> {
  const pairs = new Map<string, Pair>();
  for (const turn of view.turns) {
    for (const { call, result, step } of turn.calls) {
      if (result.kind !== "offer") continue;
      let p = pairs.get(result.id);
      if (!p) {
        p = { id: result.id, bids: [], counters: [], deal: null, closed: false };
        pairs.set(result.id, p);
      }
      const args = (call.args ?? {}) as { message?: unknown };
      p.bids.push({
        price: result.price,
        message: typeof args.message === "string" ? args.message : "",
        answer: result.answer,
        reply: result.answer === "counter" ? result.counter : result.deal,
        said: result.message,
        step,
      });
      if (result.answer === "counter" && result.counter !== null)
        p.counters.push({ price: result.counter, message: result.message });
      if (result.deal !== null) p.deal = result.deal;
      if (result.answer === "quit") p.closed = true;
    }
  }
  return pairs;
}

/** The shopper's step (1-based) of its first offer in the episode, null before it made one. */
export function firstOfferStep(pairs: ReadonlyMap<string, Pair>): number | null {
  let first: number | null = null;
  for (const p of pairs.values()) {
    const s = p.bids[0]?.step;
    if (s !== undefined && (first === null || s < first)) first = s;
  }
  return first;
}

/** An action read back into its calls (a single call, or the batch of several). */
export function callsOf(action: unknown): Call[] {
  const a = (action ?? {}) as Record<string, unknown>;
  if (a.type === TOOL_CALL_BATCH && Array.isArray(a.calls))
    return (a.calls as { name: string; args: Record<string, unknown> }[]).map((c) => ({
      name: c.name,
      args: c.args,
    }));
  const { type, ...args } = a;
  return [{ name: String(type), args }];
}

/**
 * The careful shopper's next calls with `reserve` steps of the budget held back: it pages and opens
 * results only while the steps it leaves still hold the haggling. The careful shopper draws from
 * `rng` only when it chooses what to book (its logit draw), once an episode: a haggler that follows
 * that choice passes the episode's own stream, so it picks what the careful shopper would; one that
 * only searches passes a fork, and leaves the stream it shares with the sellers alone.
 */
export function carefulCalls(
  decide: (view: ShopView, rng: Rng) => unknown,
  view: ShopView,
  rng: Rng,
  reserve: number,
): Call[] {
  const maxSteps = Math.max(1, view.rules.maxSteps - reserve);
  return callsOf(decide({ ...view, rules: { ...view.rules, maxSteps } }, rng));
}

/**
 * The listings a haggler may book: those its careful searches showed whose cards meet the request
 * (the searches filter every hard constraint, amenities included, so every one is admissible).
 */
export function candidatesOf(view: ShopView): SeenListing[] {
  return memoryOf(view).seen.filter((s) => looksAcceptable(s.card, view.request, null));
}

/** The listing booked at the lowest price: a deal, or a list price (the first shown on a tie). */
export function cheapest(
  candidates: readonly SeenListing[],
  pairs: ReadonlyMap<string, Pair>,
): SeenListing | null {
  let best: SeenListing | null = null;
  let bestPrice = Number.POSITIVE_INFINITY;
  for (const s of candidates) {
    const price = pairs.get(s.card.id)?.deal ?? s.card.price;
    if (price < bestPrice) {
      best = s;
      bestPrice = price;
    }
  }
  return best;
}

/** The negotiable candidates by list price, cheapest first (the first shown on a tie). */
export function negotiableByPrice(candidates: readonly SeenListing[]): SeenListing[] {
  return candidates
    .map((s, i) => [s, i] as const)
    .filter(([s]) => s.card.negotiable)
    .sort((a, b) => a[0].card.price - b[0].card.price || a[1] - b[1])
    .map(([s]) => s);
}

/**
 * The budget rule of every haggler: a new bid to `active` sellers at once only while each could
 * still accept a counter afterwards and one step is left to book (2·active + 1 steps); accepting
 * needs one step each and the booking.
 */
export function canBid(view: ShopView, active: number): boolean {
  return view.rules.maxSteps - view.steps >= 2 * active + 1;
}

/** Whether the run's offer rounds (`--offer-rounds`) leave this pair another bid. */
export function roundsLeft(view: ShopView, pair: Pair | undefined): boolean {
  const rounds = view.rules.offerRounds;
  return rounds === undefined || (pair?.bids.length ?? 0) < rounds;
}

export function stepsLeft(view: ShopView): number {
  return view.rules.maxSteps - view.steps;
}

/** The price a buyer bids at a fraction of a reference price: whole cents, rounded down. */
export function bidAt(fraction: number, reference: number): number {
  return floorCents(fraction * reference);
}

export function book(id: string): Call {
  return { name: "book", args: { id } };
}

export function giveUp(view: ShopView): Call {
  return {
    name: "give_up",
    args: {
      reason: `No listing meets every requirement (${constraintsOf(view.request).join(", ") || "none"}).`,
    },
  };
}

export function offer(id: string, price: number, message: string): Call {
  return { name: "offer", args: { id, price, message } };
}
