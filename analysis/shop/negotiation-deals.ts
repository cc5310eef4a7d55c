/**
 * Deals in the shop (specs/market.md Part 3, Outcomes): per buyer × seller pair and per buyer, the
 * deal rate, the discount against the list price, and the bargaining paper's normalized profits with
 * B = the request's price cap and C = the seller's cost.
 *
 * The unit is one negotiation: a listing the buyer made at least one offer to in an episode. A deal
 * is an agreed price, booked or not (a buyer may agree with several sellers and book one; the paper
 * scores a deal where it is made). Intervals are clustered by task: the replicates of a task and the
 * several negotiations of one episode are not independent draws.
 *
 * Normalized profits reuse the bargaining analysis itself (`scoreSession`, `summarizeByInterest`):
 * each negotiation is a session with budget B = cap. A request without a price cap has no budget,
 * so its negotiations are left out of the normalized profits and counted (`uncapped`); their deal
 * rate and discount count as any other.
 */
import type { NegotiationMove } from "../../environments/shop/types.ts";
import { type ScoredSession, type SessionInput, scoreSession } from "../bargain/session.ts";
import { type ByInterest, summarizeByInterest } from "../bargain/summary.ts";
import { buyerNarration } from "./negotiation-narrator.ts";
import type { NegotiationEpisode } from "./negotiation-records.ts";
import { clusteredMean, type MeanEstimate } from "./negotiation-stats.ts";
import { clusteredShare, type Share } from "./share.ts";

/** One negotiation with who played it and where. */
export interface NegotiationUnit {
  buyer: string;
  /** The seller negotiator's name (its spec where the run says, else its role). */
  seller: string;
  role: string;
  taskId: string;
  replicate: number;
  id: string;
  listPrice: number;
  cost: number;
  cap: number | null;
  deal: number | null;
  closed: boolean;
  sellerInvalid: number;
  /** The buyer's offers in it. */
  buyerOffers: number;
  /** The episode booked this listing. */
  booked: boolean;
  offers: NegotiationMove[];
}

export function negotiationUnits(
  episodes: readonly NegotiationEpisode[],
  sellerName: (role: string) => string,
): NegotiationUnit[] {
  return episodes.flatMap((e) =>
    e.negotiations.map((n) => ({
      buyer: e.agent,
      seller: sellerName(n.seller),
      role: n.seller,
      taskId: e.taskId,
      replicate: e.replicate,
      id: n.id,
      listPrice: n.listPrice,
      cost: n.cost,
      cap: n.cap,
      deal: n.deal,
      closed: n.closed,
      sellerInvalid: n.sellerInvalid,
      buyerOffers: n.offers.filter((m) => m.side === "buyer").length,
      booked: e.booked?.id === n.id,
      offers: n.offers,
    })),
  );
}

/** (list − deal) / list: the share of the list price a deal took off (negative above the list). */
export function dealDiscount(u: Pick<NegotiationUnit, "listPrice" | "deal">): number | null {
  return u.deal === null ? null : (u.listPrice - u.deal) / u.listPrice;
}

/** The bargaining session a capped negotiation is (B = cap, C = cost); null without a cap. */
export function sessionOf(u: NegotiationUnit): SessionInput | null {
  if (u.cap === null) return null;
  return {
    scenarioId: u.taskId,
    buyer: u.buyer,
    seller: u.seller,
    replicate: u.replicate,
    budget: u.cap,
    cost: u.cost,
    // The shop reads a seller's unusable answer as a rejection and goes on: never an invalid session.
    outcome: u.deal !== null ? "deal" : "no-deal",
    endedBy: u.deal !== null ? "deal" : u.closed ? "quit" : "turn-limit",
    invalidSide: null,
    dealPrice: u.deal,
    turns: u.buyerOffers,
  };
}

export interface NormalizedProfits {
  /** Negotiations on requests with a price cap (scored). */
  capped: number;
  /** Negotiations and deals on requests without a cap: no budget B, left out of these figures. */
  uncapped: { negotiations: number; deals: number };
  /** The paper's summary of the capped negotiations: MI / CI / ALL deal rates, raw and normalized profits, SNP. */
  paper: ByInterest;
  /** Mean P′_b = (B′ − D)/|B′ − C| over capped deals, task-clustered interval. */
  buyer: MeanEstimate;
  /** Mean P′_s = (D − C)/|B′ − C| over capped deals, task-clustered interval. */
  seller: MeanEstimate;
}

export function normalizedProfits(units: readonly NegotiationUnit[], level = 0.95): NormalizedProfits {
  const scored: { unit: NegotiationUnit; s: ScoredSession }[] = [];
  for (const u of units) {
    const input = sessionOf(u);
    if (input) scored.push({ unit: u, s: scoreSession(input) });
  }
  const deals = scored.filter((x) => x.s.deal);
  const uncapped = units.filter((u) => u.cap === null);
  return {
    capped: scored.length,
    uncapped: { negotiations: uncapped.length, deals: uncapped.filter((u) => u.deal !== null).length },
    paper: summarizeByInterest(scored.map((x) => x.s)),
    buyer: clusteredMean(
      deals.map((x) => ({ cluster: x.unit.taskId, value: x.s.buyerNormalized! })),
      level,
    ),
    seller: clusteredMean(
      deals.map((x) => ({ cluster: x.unit.taskId, value: x.s.sellerNormalized! })),
      level,
    ),
  };
}

export interface DealStats {
  negotiations: number;
  deals: number;
  /** Deals ÷ negotiations, task-clustered interval. */
  dealRate: Share;
  /** Mean (list − deal)/list over deals, task-clustered interval. */
  discount: MeanEstimate;
  /** Deals the episode went on to book. */
  dealsBooked: number;
  /** Deals above the request's price cap. */
  dealsOverCap: number;
  /** Seller answers that could not be read (read by the buyer as rejections). */
  sellerInvalid: number;
  /** Negotiations the seller ended (quit). */
  closedBySeller: number;
  /** Buyer offers per negotiation; null without negotiations. */
  meanBuyerOffers: number | null;
  profits: NormalizedProfits;
}

export function dealStats(units: readonly NegotiationUnit[], level = 0.95): DealStats {
  const deals = units.filter((u) => u.deal !== null);
  return {
    negotiations: units.length,
    deals: deals.length,
    dealRate: clusteredShare(
      units.map((u) => ({ cluster: u.taskId, hit: u.deal !== null })),
      level,
    ),
    discount: clusteredMean(
      deals.map((u) => ({ cluster: u.taskId, value: dealDiscount(u)! })),
      level,
    ),
    dealsBooked: deals.filter((u) => u.booked).length,
    dealsOverCap: deals.filter((u) => u.cap !== null && u.deal! > u.cap + 1e-9).length,
    sellerInvalid: units.reduce((a, u) => a + u.sellerInvalid, 0),
    closedBySeller: units.filter((u) => u.closed).length,
    meanBuyerOffers: units.length ? units.reduce((a, u) => a + u.buyerOffers, 0) / units.length : null,
    profits: normalizedProfits(units, level),
  };
}

/** A negotiation's moves, for the price ladders of the report. */
export interface LadderExample {
  taskId: string;
  replicate: number;
  id: string;
  listPrice: number;
  cost: number;
  cap: number | null;
  deal: number | null;
  booked: boolean;
  moves: { step: number; side: "buyer" | "seller"; move: NegotiationMove["move"]; price: number | null }[];
}

/**
 * A few negotiations of a pair to draw: one that ended in a deal and one that did not where there
 * are such, on different tasks where there are enough (a task's replicates against a rule seller
 * often repeat each other), the longer ladders (two buyer offers or more) first, then in record order.
 */
export function ladderExamples(units: readonly NegotiationUnit[], max = 3): LadderExample[] {
  const order = [...units.keys()].sort(
    (a, b) => Number(units[b]!.buyerOffers >= 2) - Number(units[a]!.buyerOffers >= 2) || a - b,
  );
  const picked: number[] = [];
  const tasks = new Set<string>();
  const take = (i: number | undefined, newTask: boolean) => {
    if (i === undefined || picked.includes(i) || picked.length >= max) return;
    if (newTask && tasks.has(units[i]!.taskId)) return;
    picked.push(i);
    tasks.add(units[i]!.taskId);
  };
  take(
    order.find((i) => units[i]!.deal !== null),
    true,
  );
  take(
    order.find((i) => units[i]!.deal === null && !tasks.has(units[i]!.taskId)),
    true,
  );
  for (const i of order) take(i, true);
  for (const i of order) take(i, false);
  return picked
    .sort((a, b) => a - b)
    .map((i) => {
      const u = units[i]!;
      return {
        taskId: u.taskId,
        replicate: u.replicate,
        id: u.id,
        listPrice: u.listPrice,
        cost: u.cost,
        cap: u.cap,
        deal: u.deal,
        booked: u.booked,
        moves: u.offers.map((m) => ({ step: m.step, side: m.side, move: m.move, price: m.price })),
      };
    });
}

export interface PairNegotiation extends DealStats {
  buyer: string;
  seller: string;
  /** The seller roles this name played (one per `--seller-negotiator` with this spec). */
  roles: string[];
  tasks: number;
  examples: LadderExample[];
}

export interface BuyerNegotiation extends DealStats {
  buyer: string;
  episodes: number;
  /** Episodes in which the buyer made at least one offer, task-clustered interval. */
  negotiated: Share;
  bookings: number;
  /** Bookings at an agreed price (a deal with the booked listing). */
  bookedAtDeal: number;
  /** Mean (list − paid)/list over bookings, a booking without a deal counting 0; task-clustered interval. */
  paidDiscount: MeanEstimate;
  /** With an LLM narrator (`og-narrator:openai:<model>`): the offers it worded; null otherwise. */
  narratedOffers: number | null;
  /** Of those, the offers said with the template line (the model gave no usable sentence); null without an LLM narrator. */
  narratorFallbacks: number | null;
}

function distinct<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

export function pairNegotiations(units: readonly NegotiationUnit[], level = 0.95): PairNegotiation[] {
  const out: PairNegotiation[] = [];
  for (const buyer of distinct(units.map((u) => u.buyer)))
    for (const seller of distinct(units.map((u) => u.seller))) {
      const mine = units.filter((u) => u.buyer === buyer && u.seller === seller);
      if (mine.length === 0) continue;
      out.push({
        buyer,
        seller,
        roles: distinct(mine.map((u) => u.role)).sort(),
        tasks: new Set(mine.map((u) => u.taskId)).size,
        ...dealStats(mine, level),
        examples: ladderExamples(mine),
      });
    }
  return out;
}

export function buyerNegotiations(
  episodes: readonly NegotiationEpisode[],
  units: readonly NegotiationUnit[],
  buyers: readonly string[],
  level = 0.95,
): BuyerNegotiation[] {
  return buyers.map((buyer) => {
    const mine = episodes.filter((e) => e.agent === buyer);
    const bookings = mine.filter((e) => e.booked !== null && e.paid !== null);
    const narration = buyerNarration(mine, buyer);
    return {
      buyer,
      episodes: mine.length,
      negotiated: clusteredShare(
        mine.map((e) => ({ cluster: e.taskId, hit: e.negotiations.length > 0 })),
        level,
      ),
      bookings: bookings.length,
      bookedAtDeal: bookings.filter((e) =>
        e.negotiations.some((n) => n.id === e.booked!.id && n.deal !== null),
      ).length,
      paidDiscount: clusteredMean(
        bookings.map((e) => ({ cluster: e.taskId, value: (e.booked!.price - e.paid!) / e.booked!.price })),
        level,
      ),
      ...dealStats(
        units.filter((u) => u.buyer === buyer),
        level,
      ),
      narratedOffers: narration?.turns ?? null,
      narratorFallbacks: narration?.fallbacks ?? null,
    };
  });
}
