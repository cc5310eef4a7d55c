/**
 * A market between rounds, as pure functions: each market's listings now and each seller's
 * history; the round report read off the round's buyer episodes; the seller tasks of a round; and
 * the listings after the sellers' turns. The driver (`driver.ts`) rebuilds this state from the
 * stored trials whenever it starts, so a market resumes from whatever the store holds.
 */
import type { MarketDesign, MarketInstance } from "./design.ts";
import { roundTag } from "./design.ts";
import type {
  CompetitorCard,
  HistoryEntry,
  MarketListing,
  RoundReport,
  SellerOutcome,
  SellerRoundStats,
  SellerTask,
} from "./types.ts";
import { DESCRIPTION_LIMIT } from "./types.ts";

/** One market between rounds: its listings as the next buyers will see them, and each seller's past. */
export interface MarketState {
  instance: MarketInstance;
  /** By seller (index 0 = seller 1). */
  listings: MarketListing[];
  /** By seller: its finished rounds, oldest first. */
  history: HistoryEntry[][];
}

export function initialMarketState(instance: MarketInstance): MarketState {
  return {
    instance,
    listings: instance.base.sellers.map((s) => s.listing),
    history: instance.base.sellers.map(() => []),
  };
}

/** What a round report needs of a buyer episode's record (the shop's trial record has it). */
export interface BuyerEpisodeLike {
  taskId: string;
  rules: { pageSize: number };
  shown: readonly { id: string; page: number; rank: number; viewed: boolean }[];
  booked: { id: string; price: number } | null;
}

export function emptyStats(): SellerRoundStats {
  return { shown: 0, positions: [], views: 0, bookings: 0, revenue: 0, profit: 0 };
}

/** A market's round: each seller's numbers, and the round's size. */
export interface RoundOutcome {
  buyers: number;
  bookings: number;
  /** By seller (index 0 = seller 1). */
  stats: SellerRoundStats[];
}

/** Each seller's round numbers from the round's buyer episodes in one market. */
export function roundOutcome(
  episodes: Iterable<BuyerEpisodeLike>,
  listings: readonly MarketListing[],
  costs: readonly number[],
): RoundOutcome {
  const index = new Map(listings.map((l, i) => [l.id, i]));
  const stats = listings.map(() => emptyStats());
  let buyers = 0;
  let bookings = 0;
  for (const e of episodes) {
    buyers++;
    for (const s of e.shown) {
      const i = index.get(s.id);
      if (i === undefined) continue;
      const st = stats[i]!;
      st.shown++;
      const at = (s.page - 1) * e.rules.pageSize + s.rank;
      while (st.positions.length < at) st.positions.push(0);
      st.positions[at - 1]!++;
      if (s.viewed) st.views++;
    }
    if (e.booked) {
      const i = index.get(e.booked.id);
      if (i === undefined) continue;
      bookings++;
      const st = stats[i]!;
      st.bookings++;
      st.revenue += e.booked.price;
      st.profit += e.booked.price - costs[i]!;
    }
  }
  return { buyers, bookings, stats };
}

function card(l: MarketListing): CompetitorCard {
  return {
    id: l.id,
    name: l.name,
    neighborhood: l.neighborhood,
    area: l.area,
    stars: l.stars,
    price: l.price,
    reviewScore: l.reviewScore,
    reviewCount: l.reviewCount,
    description: l.description.text,
  };
}

/** The seller turns of one market's round, seller 1 first. */
export function sellerTasks(
  d: MarketDesign,
  marketId: string,
  state: MarketState,
  round: number,
  outcome: RoundOutcome,
  agents: { adopter: string; static: string },
): SellerTask[] {
  const { instance } = state;
  return instance.base.sellers.map((s, i) => {
    const report: RoundReport = {
      buyers: outcome.buyers,
      marketBookings: outcome.bookings,
      stats: outcome.stats[i]!,
    };
    return {
      env: "market",
      taskId: `${instance.key}-${roundTag(round)}-s${String(s.seller).padStart(2, "0")}`,
      market: marketId,
      instance: instance.key,
      round,
      rounds: d.rounds,
      seller: s.seller,
      adopter: instance.adopters.includes(s.seller),
      agent: instance.adopters.includes(s.seller) ? agents.adopter : agents.static,
      listing: state.listings[i]!,
      cost: s.cost,
      cap: s.cap,
      report,
      competitors: state.listings.filter((_, j) => j !== i).map(card),
      history: state.history[i]!,
      rules: { maxChars: DESCRIPTION_LIMIT, maxInvalid: d.sellerMaxInvalid },
    };
  });
}

/** The market after a round's seller turns: each listing as its seller left it, the round in its history. */
export function afterTurns(
  state: MarketState,
  round: number,
  outcome: RoundOutcome,
  turns: ReadonlyMap<number, SellerOutcome>,
): MarketState {
  const listings = state.listings.map((l, i) => {
    const t = turns.get(i + 1);
    if (!t) throw new Error(`market ${state.instance.key} round ${round}: no turn of seller ${i + 1}`);
    return { ...l, price: t.price, description: t.description };
  });
  const history = state.history.map((h, i) => {
    const l = state.listings[i]!;
    const s = outcome.stats[i]!;
    return [
      ...h,
      {
        round,
        price: l.price,
        description: l.description.text,
        shown: s.shown,
        views: s.views,
        bookings: s.bookings,
        revenue: s.revenue,
        profit: s.profit,
      },
    ];
  });
  return { instance: state.instance, listings, history };
}
