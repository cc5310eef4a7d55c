/**
 * The catalog as the tools see it: filtering, sorting and paging for `search`, the hard-constraint
 * checks that decide admissibility, and the card and detail a listing shows. Pure functions of the
 * task's listings; the machine calls them, and so do the design (admissibility) and the record.
 */
import type { z } from "zod";
import { firstSentence, oneLineText } from "../../datasets/descriptions/text.ts";
import type { SearchActionSchema } from "./actions.ts";
import type {
  Amenity,
  Card,
  ConstraintType,
  HardConstraints,
  Listing,
  ListingDetail,
  SearchQuery,
} from "./types.ts";

type SearchArgs = Omit<z.infer<typeof SearchActionSchema>, "type">;

/** A search's filters with the defaults filled in (recommended order, page 1). */
export function searchQuery(args: SearchArgs): SearchQuery {
  return {
    area: args.area ?? null,
    maxPrice: args.maxPrice ?? null,
    minStars: args.minStars ?? null,
    amenities: args.amenities ? [...new Set(args.amenities)] : [],
    sort: args.sort ?? "recommended",
    page: args.page ?? 1,
  };
}

export function hasAmenity(l: Pick<Listing, "freeCancellation" | "breakfast">, a: Amenity): boolean {
  return a === "free_cancellation" ? l.freeCancellation : l.breakfast;
}

/** Whether `place` (an area or a neighborhood, any case) names where the listing is. */
export function inPlace(l: Pick<Listing, "area" | "neighborhood">, place: string): boolean {
  const p = place.trim().toLowerCase();
  return l.area.toLowerCase() === p || l.neighborhood.toLowerCase() === p;
}

/** The places a search may filter on: the catalog's areas and neighborhoods, lower-cased. */
export function knownPlaces(listings: readonly Listing[], areas: readonly string[]): Set<string> {
  const out = new Set(areas.map((a) => a.toLowerCase()));
  for (const l of listings) {
    out.add(l.area.toLowerCase());
    out.add(l.neighborhood.toLowerCase());
  }
  return out;
}

function matches(l: Listing, q: SearchQuery): boolean {
  if (q.area !== null && !inPlace(l, q.area)) return false;
  if (q.maxPrice !== null && l.price > q.maxPrice) return false;
  if (q.minStars !== null && l.stars < q.minStars) return false;
  for (const a of q.amenities) if (!hasAmenity(l, a)) return false;
  return true;
}

/** Sort keys; ties keep the default (recommended) order, so every order is total and stable. */
function compare(sort: SearchQuery["sort"]): (a: Listing, b: Listing) => number {
  const byRank = (a: Listing, b: Listing) => a.treatments.rank - b.treatments.rank;
  switch (sort) {
    case "price_low":
      return (a, b) => a.price - b.price || byRank(a, b);
    case "price_high":
      return (a, b) => b.price - a.price || byRank(a, b);
    case "rating":
      return (a, b) => b.reviewScore - a.reviewScore || byRank(a, b);
    default:
      return byRank;
  }
}

export interface SearchPage {
  total: number;
  pages: number;
  /** The listings on the requested page, in result order (empty past the last page). */
  listings: Listing[];
}

/** One page of a search over the catalog (`listings` in any order). */
export function runSearch(listings: readonly Listing[], q: SearchQuery, pageSize: number): SearchPage {
  const hits = listings.filter((l) => matches(l, q)).sort(compare(q.sort));
  const start = (q.page - 1) * pageSize;
  return {
    total: hits.length,
    pages: Math.ceil(hits.length / pageSize),
    listings: hits.slice(start, start + pageSize),
  };
}

/** Per hard constraint the request has: whether the listing meets it. */
export function constraintsMet(l: Judged, c: HardConstraints): Partial<Record<ConstraintType, boolean>> {
  const out: Partial<Record<ConstraintType, boolean>> = {};
  if (c.maxPrice !== null) out.price = l.price <= c.maxPrice;
  if (c.minStars !== null) out.stars = l.stars >= c.minStars;
  if (c.areas !== null) out.area = c.areas.some((a) => inPlace(l, a));
  if (c.amenities.length > 0) out.amenities = c.amenities.every((a) => hasAmenity(l, a));
  return out;
}

/** What admissibility reads of a listing. */
export type Judged = Pick<
  Listing,
  "price" | "stars" | "area" | "neighborhood" | "freeCancellation" | "breakfast"
>;

/** Meets every hard constraint of the request. */
export function isAdmissible(l: Judged, c: HardConstraints): boolean {
  if (c.maxPrice !== null && l.price > c.maxPrice) return false;
  if (c.minStars !== null && l.stars < c.minStars) return false;
  if (c.areas !== null && !c.areas.some((a) => inPlace(l, a))) return false;
  for (const a of c.amenities) if (!hasAmenity(l, a)) return false;
  return true;
}

export function cardOf(l: Listing): Card {
  return {
    id: l.id,
    name: l.name,
    neighborhood: l.neighborhood,
    area: l.area,
    stars: l.stars,
    price: l.price,
    wasPrice: l.treatments.wasPrice,
    reviewScore: l.reviewScore,
    reviewCount: l.reviewCount,
    sponsored: l.treatments.sponsored,
    endorsed: l.treatments.endorsed,
    roomsLeft: l.treatments.roomsLeft,
    negotiable: l.negotiation !== undefined,
    snippet: firstSentence(l.description.text),
  };
}

export function detailOf(l: Listing): ListingDetail {
  return {
    ...cardOf(l),
    chain: l.chain,
    roomType: l.roomType,
    freeCancellation: l.freeCancellation,
    breakfast: l.breakfast,
    description: oneLineText(l.description.text),
  };
}
