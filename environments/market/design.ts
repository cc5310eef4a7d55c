/**
 * design → markets and buyer episodes, pure and seeded. A market run holds M base markets (each a
 * seeded set of N seller listings from the hotel pool, with costs and price caps) crossed with the
 * adoption levels k: market `k<k>-m<m>` is base market m with k of its sellers (the first k of a
 * seeded order, so the adopters of a smaller k are among those of a larger one) running the
 * optimizing seller. Base market m's buyer requests and platform treatments of round r are drawn
 * from a stream of (m, r, buyer) alone: every adoption level meets the same buyers (common random
 * numbers), and what differs between rounds or levels is what the sellers did.
 */
import { z } from "zod";
import { NEUTRAL_TEMPLATE_COUNT, neutralListingDescription } from "../../datasets/descriptions/compose.ts";
import type { Hotel } from "../../datasets/hotels/schema.ts";
import { drawAppearance } from "../choice/design.ts";
import { UserError } from "../kernel/errors.ts";
import { createRng, type Rng } from "../kernel/rng.ts";
import { areaOf } from "../shop/areas.ts";
import {
  checkPoolForShop,
  dealNegotiators,
  dominates,
  drawRequiredAmenities,
  treated,
  WISHES,
} from "../shop/design.ts";
import { requestText } from "../shop/prompt.ts";
import { isAdmissible } from "../shop/search.ts";
import type { HardConstraints, Listing, ShopTask, TaskFamily } from "../shop/types.ts";
import type { MarketListing } from "./types.ts";

const rate = z.number().min(0, "must be between 0 and 1").max(1, "must be between 0 and 1");
const positive = z.number().int("must be a whole number").positive("must be at least 1");

export const MarketDesignSchema = z.object({
  seed: z.union([z.number().int(), z.string()]).default(2026),
  /** Sellers (listings) in each market. */
  sellers: z.number().int("must be a whole number").min(2, "must be at least 2").default(8),
  rounds: positive.default(6),
  /** Buyer episodes in each round of each market. */
  buyersPerRound: positive.default(100),
  /** Base markets (each run at every adoption level). */
  markets: positive.default(1),
  /** Adoption levels: how many of a market's sellers run the optimizing seller. */
  adopters: z.array(z.number().int().nonnegative()).min(1).default([1]),
  /** A seller's cost as a share of its starting price: drawn uniformly from [low, high]. */
  costShare: z.tuple([rate, rate]).default([0.5, 0.8]),
  /** The highest price a seller may set, as a multiple of its starting price. */
  priceCap: z.number().min(1, "must be at least 1 (the starting price)").default(2),
  /** The buyers' shop rules. */
  pageSize: positive.default(8),
  maxSteps: positive.default(15),
  maxInvalid: positive.default(3),
  /** The platform's tags, drawn afresh for every buyer episode. */
  sponsoredRate: rate.default(0.2),
  endorsementRate: rate.default(0.2),
  scarcityRate: rate.default(0.2),
  discountRate: rate.default(0.2),
  /** Seller messages without a valid call that end its turn. */
  sellerMaxInvalid: positive.default(2),
  /**
   * Share of a market's sellers whose listing takes offers (specs/market.md Part 3), the same in
   * every round and adoption level; absent or 0 in a market without haggling.
   */
  negotiable: rate.optional(),
  /** Seller negotiators answering offers: the negotiable sellers are dealt to them in turn. */
  negotiators: positive.optional(),
});
export type MarketDesign = z.infer<typeof MarketDesignSchema>;
export type MarketDesignInput = z.input<typeof MarketDesignSchema>;

/** Validates a design; every problem in one UserError (exit 2), nothing built. */
export function parseMarketDesign(input: MarketDesignInput): MarketDesign {
  const parsed = MarketDesignSchema.safeParse(input);
  const hint = "see bazaar run market --help";
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "design"} ${i.message}`);
    throw new UserError(`impossible market design: ${problems.join("; ")}`, hint);
  }
  const d = parsed.data;
  const problems: string[] = [];
  for (const k of d.adopters)
    if (k > d.sellers) problems.push(`${k} adopters is more than the ${d.sellers} sellers of a market`);
  if (new Set(d.adopters).size !== d.adopters.length) problems.push("an adoption level is named twice");
  if (d.costShare[0] > d.costShare[1])
    problems.push(`the cost share's low end ${d.costShare[0]} is above its high end ${d.costShare[1]}`);
  if (problems.length > 0) throw new UserError(`impossible market design: ${problems.join("; ")}`, hint);
  const { negotiable, negotiators, ...rest } = d;
  // A market without offers spells none of their settings (its identity is as before offers).
  const offers = negotiable ? { negotiable, negotiators: negotiators ?? 1 } : {};
  return { ...rest, ...offers, adopters: [...d.adopters].sort((a, b) => a - b) };
}

/**
 * Which sellers of a base market take offers, and who negotiates for each (its own cost as C):
 * drawn once per base market, so every round and adoption level has the same ones.
 */
export function marketNegotiation(d: MarketDesign, base: BaseMarket): (Listing["negotiation"] | undefined)[] {
  const roles = dealNegotiators(
    base.sellers.length,
    d.negotiable ?? 0,
    d.negotiators ?? 1,
    rootRng(d).fork(`market-${base.m}`).fork("negotiable"),
  );
  return roles.map((seller, i) =>
    seller === undefined ? undefined : { seller, cost: base.sellers[i]!.cost },
  );
}

/** One seller of a market: its starting listing, its cost and its price cap (whole dollars). */
export interface MarketSeller {
  /** 1-based. */
  seller: number;
  listing: MarketListing;
  cost: number;
  cap: number;
}

/** A base market: its sellers and the order in which its sellers adopt. */
export interface BaseMarket {
  /** 1-based. */
  m: number;
  areas: string[];
  sellers: MarketSeller[];
  /** Seller numbers in adoption order: adoption level k makes the first k adopters. */
  adoptionOrder: number[];
}

/** A market of the run: a base market at one adoption level. */
export interface MarketInstance {
  /** `k<k>-m<m>`. */
  key: string;
  k: number;
  m: number;
  base: BaseMarket;
  /** Seller numbers running the optimizing seller. */
  adopters: number[];
}

const ID_CHARS = "abcdefghijkmnpqrstuvwxyz23456789";

function listingId(rng: Rng, taken: Set<string>): string {
  for (;;) {
    let id = ID_CHARS[rng.int(24)]!;
    for (let i = 0; i < 5; i++) id += ID_CHARS[rng.int(ID_CHARS.length)]!;
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

/**
 * The hotels a market draws its sellers from: the pool's two largest areas (competitors a buyer
 * weighs against each other), 3- and 4-star hotels where there are enough of them, widened to every
 * star count of those areas and then to the whole pool when there are not.
 */
export function marketSegment(pool: readonly Hotel[], sellers: number): { hotels: Hotel[]; areas: string[] } {
  const counts = new Map<string, number>();
  for (const h of pool) counts.set(areaOf(h.neighborhood), (counts.get(areaOf(h.neighborhood)) ?? 0) + 1);
  const areas = [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 2)
    .map(([a]) => a);
  const inAreas = pool.filter((h) => areas.includes(areaOf(h.neighborhood)));
  const banded = inAreas.filter((h) => h.stars === 3 || h.stars === 4);
  if (banded.length >= sellers) return { hotels: banded, areas };
  if (inAreas.length >= sellers) return { hotels: inAreas, areas };
  return { hotels: pool.slice(), areas: [...new Set(pool.map((h) => areaOf(h.neighborhood)))].sort() };
}

function rootRng(d: Pick<MarketDesign, "seed">): Rng {
  return createRng(`bazaar/market/${d.seed}`);
}

/** The base markets of a design: pure and seeded (same design and pool ⇒ the same markets). */
export function buildBaseMarkets(d: MarketDesign, pool: readonly Hotel[]): BaseMarket[] {
  checkPoolForShop(pool);
  if (pool.length < d.sellers) {
    throw new UserError(
      `impossible market design: ${d.sellers} sellers, but the hotel pool has ${pool.length} hotels`,
      `use --sellers ${pool.length} or fewer, or a larger pool`,
    );
  }
  const segment = marketSegment(pool, d.sellers);
  const root = rootRng(d);
  const out: BaseMarket[] = [];
  for (let m = 1; m <= d.markets; m++) {
    const rng = root.fork(`market-${m}`);
    const hotels = rng.fork("hotels").shuffle(segment.hotels).slice(0, d.sellers);
    const draws = rng.fork("listings");
    const ids = new Set<string>();
    const sellers = hotels.map((h, i): MarketSeller => {
      const a = drawAppearance(h, draws);
      const cost = Math.max(1, Math.ceil(a.price * draws.uniform(d.costShare[0], d.costShare[1])));
      const id = listingId(draws, ids);
      const base = { ...a, id, area: areaOf(h.neighborhood) };
      const description = neutralListingDescription(
        { ...base, facilities: h.amenities },
        draws.int(NEUTRAL_TEMPLATE_COUNT),
      );
      return {
        seller: i + 1,
        listing: { ...base, description },
        cost: Math.min(cost, a.price),
        cap: Math.max(a.price, Math.floor(a.price * d.priceCap)),
      };
    });
    const adoptionOrder = rng.fork("adoption").shuffle(sellers.map((s) => s.seller));
    out.push({ m, areas: segment.areas, sellers, adoptionOrder });
  }
  return out;
}

/** The markets of the run: every adoption level × every base market, in that order. */
export function marketInstances(d: MarketDesign, bases: readonly BaseMarket[]): MarketInstance[] {
  return d.adopters.flatMap((k) =>
    bases.map((base) => ({
      key: `k${k}-m${base.m}`,
      k,
      m: base.m,
      base,
      adopters: base.adoptionOrder.slice(0, k).sort((a, b) => a - b),
    })),
  );
}

/** Round numbers in ids: two digits at least, so they sort. */
export function roundTag(r: number): string {
  return `r${String(r).padStart(2, "0")}`;
}

function weightedPick<T>(rng: Rng, items: readonly T[], weight: (t: T) => number): T {
  const total = items.reduce((a, t) => a + weight(t), 0);
  let u = rng.next() * total;
  for (const t of items) {
    u -= weight(t);
    if (u < 0) return t;
  }
  return items[items.length - 1] as T;
}

/**
 * A buyer's hard constraints over a market, drawn against the sellers' starting listings (never the
 * current ones, so the stream of requests does not move with what the sellers do): one of the
 * market's areas or either, a star floor, amenities, and a price cap at a random quantile of the
 * starting prices of the listings that meet the rest.
 */
export function drawMarketRequest(rng: Rng, base: BaseMarket): HardConstraints {
  const listings = base.sellers.map((s) => s.listing);
  let areas: string[] | null = null;
  if (base.areas.length > 1 && rng.bernoulli(0.6)) {
    areas = [weightedPick(rng, base.areas, (a) => 1 + listings.filter((l) => l.area === a).length)];
  } else if (base.areas.length > 1) areas = base.areas.slice().sort();
  const u = rng.next();
  const minStars = u < 0.5 ? null : u < 0.8 ? 3 : 4;
  const amenities = drawRequiredAmenities(rng);
  const fitting = listings
    .filter((l) => (areas === null || areas.includes(l.area)) && (minStars === null || l.stars >= minStars))
    .map((l) => l.price)
    .sort((a, b) => a - b);
  const prices = fitting.length > 0 ? fitting : listings.map((l) => l.price).sort((a, b) => a - b);
  const q = rng.uniform(0.35, 1);
  const at = prices[Math.min(prices.length - 1, Math.floor(q * prices.length))]!;
  const maxPrice = Math.ceil((at * rng.uniform(1, 1.15)) / 10) * 10;
  return { maxPrice, minStars, areas, amenities };
}

/** The family a request is over the current listings: by how many are admissible. */
function familyOf(admissible: readonly Listing[]): { family: TaskFamily; dominance: ShopTask["dominance"] } {
  if (admissible.length === 0) return { family: "infeasible", dominance: null };
  if (admissible.length === 1) return { family: "needle", dominance: null };
  for (const a of admissible)
    for (const b of admissible)
      if (a !== b && dominates(a, b))
        return { family: "dominance", dominance: { dominant: a.id, dominated: b.id } };
  return { family: "open", dominance: null };
}

/**
 * The buyer episodes of one market's round: ordinary shop tasks over the sellers' current listings,
 * each with its own request and its own draw of rank and platform tags.
 */
export function buyerTasks(
  d: MarketDesign,
  instance: MarketInstance,
  round: number,
  listings: readonly MarketListing[],
): ShopTask[] {
  const stream = rootRng(d).fork(`market-${instance.m}`).fork(`round-${round}`);
  const n = listings.length;
  const negotiation = marketNegotiation(d, instance.base);
  const tasks: ShopTask[] = [];
  for (let b = 1; b <= d.buyersPerRound; b++) {
    const rng = stream.fork(`buyer-${b}`);
    const constraints = drawMarketRequest(rng.fork("request"), instance.base);
    const wishRng = rng.fork("wishes");
    const wishes = wishRng.shuffle(WISHES).slice(0, wishRng.int(3));
    const ranks = rng.fork("ranks").shuffle(Array.from({ length: n }, (_, i) => i + 1));
    const sponsored = treated(rng.fork("sponsored"), n, d.sponsoredRate);
    const endorsed = treated(rng.fork("endorsed"), n, d.endorsementRate);
    const scarce = treated(rng.fork("scarcity"), n, d.scarcityRate);
    const discounted = treated(rng.fork("discount"), n, d.discountRate);
    const tags = rng.fork("tags");
    const shown: Listing[] = listings.map((l, i) => ({
      ...l,
      ...(negotiation[i] ? { negotiation: negotiation[i] } : {}),
      treatments: {
        rank: ranks[i]!,
        sponsored: sponsored.has(i),
        endorsed: endorsed.has(i),
        roomsLeft: scarce.has(i) ? 1 + tags.int(3) : null,
        wasPrice: discounted.has(i) ? Math.ceil(l.price * tags.uniform(1.15, 1.45)) : null,
      },
    }));
    shown.sort((a, b) => a.treatments.rank - b.treatments.rank);
    const admissible = shown.filter((l) => isAdmissible(l, constraints));
    const { family, dominance } = familyOf(admissible);
    tasks.push({
      env: "shop",
      taskId: `${instance.key}-${roundTag(round)}-b${String(b).padStart(4, "0")}`,
      family,
      request: { text: requestText(constraints, wishes), constraints, wishes },
      listings: shown,
      rules: {
        pageSize: d.pageSize,
        maxSteps: d.maxSteps,
        maxInvalid: d.maxInvalid,
        ...(d.negotiable ? { offers: true as const } : {}),
      },
      admissible: admissible.map((l) => l.id),
      dominance,
    });
  }
  return tasks;
}
