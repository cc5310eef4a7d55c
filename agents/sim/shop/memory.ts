/**
 * What a simulated shopper knows, read off its view alone: every search it ran with its results,
 * where each listing was first shown, and every listing it opened. Reading it from the view (not
 * keeping it) makes the shopper stateless, so behind serve-sim — where each request carries the
 * conversation and nothing else — it plays exactly as in process.
 */
import type { Card, ListingDetail, SearchQuery, ShopView } from "../../../environments/shop/types.ts";

export interface SeenListing {
  card: Card;
  page: number;
  rank: number;
  /** The step whose results first showed it. */
  step: number;
}

export interface SearchDone {
  query: SearchQuery;
  total: number;
  pages: number;
  /** Args as sent (a careful search names its sort; a hasty one sends none). */
  args: Record<string, unknown>;
  /** The ids on the page, in order. */
  ids: string[];
}

export interface ShopperMemory {
  searches: SearchDone[];
  /** Listings in the order first shown. */
  seen: SeenListing[];
  seenById: Map<string, SeenListing>;
  details: Map<string, ListingDetail>;
  steps: number;
}

/** The same search, whatever order its filters were written in. */
export function queryKey(q: SearchQuery): string {
  return JSON.stringify([q.area, q.maxPrice, q.minStars, [...q.amenities].sort(), q.sort, q.page]);
}

export function memoryOf(view: ShopView): ShopperMemory {
  const memory: ShopperMemory = {
    searches: [],
    seen: [],
    seenById: new Map(),
    details: new Map(),
    steps: view.steps,
  };
  for (const turn of view.turns) {
    for (const { call, result, step } of turn.calls) {
      if (result.kind === "results") {
        memory.searches.push({
          query: result.query,
          total: result.total,
          pages: result.pages,
          args: (call.args ?? {}) as Record<string, unknown>,
          ids: result.cards.map((c) => c.id),
        });
        result.cards.forEach((card, i) => {
          if (memory.seenById.has(card.id)) return;
          const s = { card, page: result.query.page, rank: i + 1, step };
          memory.seen.push(s);
          memory.seenById.set(card.id, s);
        });
      } else if (result.kind === "listing") memory.details.set(result.listing.id, result.listing);
    }
  }
  return memory;
}
