/**
 * A client's hidden utility, drawn per task from its own seeded stream (so adding clients to a
 * design changes nothing else of a task), and the dollar values it puts on listings: the surplus of
 * a listing is its value less the price paid, and the best admissible listing maximizes it over
 * the listings meeting every hidden requirement.
 *
 * The ranges (whole dollars a night, uniform; README "Clients"):
 * - review: 10–40 per point of guest rating above or below 8;
 * - stars: 10–50 per star above or below 3;
 * - free cancellation 0–30, breakfast 0–25 (what the amenity is worth when the listing has it);
 * - each acceptable area (each area of the catalog when the client names none) 0–40;
 * - base: the price cap × 1.05–1.30 (the catalog's median price when there is no cap), so that
 *   a listing at the cap with an 8.0 rating and 3 stars is worth a little more than it costs.
 */

import { roundCents } from "../../kernel/money.ts";
import type { Rng } from "../../kernel/rng.ts";
import type { HardConstraints, Listing } from "../types.ts";
import type { ClientProfile, ClientUtility } from "./types.ts";

/** The reference attributes the weights are measured from. */
export const REFERENCE_REVIEW = 8;
export const REFERENCE_STARS = 3;

/** The ranges the weights are drawn from, whole dollars a night (inclusive). */
export const UTILITY_RANGES = {
  review: [10, 40],
  stars: [10, 50],
  free_cancellation: [0, 30],
  breakfast: [0, 25],
  area: [0, 40],
  baseOverCap: [1.05, 1.3],
} as const;

function whole(rng: Rng, [lo, hi]: readonly [number, number]): number {
  return lo + rng.int(hi - lo + 1);
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The client's utility for a task with these requirements and this catalog. */
export function drawClientProfile(
  requirements: HardConstraints,
  listings: readonly Pick<Listing, "price" | "area">[],
  rng: Rng,
): ClientProfile {
  const review = whole(rng, UTILITY_RANGES.review);
  const stars = whole(rng, UTILITY_RANGES.stars);
  const free_cancellation = whole(rng, UTILITY_RANGES.free_cancellation);
  const breakfast = whole(rng, UTILITY_RANGES.breakfast);
  const named = requirements.areas ?? [...new Set(listings.map((l) => l.area))].sort();
  const areas: Record<string, number> = {};
  for (const a of named) areas[a] = whole(rng, UTILITY_RANGES.area);
  const anchor = requirements.maxPrice ?? median(listings.map((l) => l.price));
  const base = Math.round(anchor * rng.uniform(UTILITY_RANGES.baseOverCap[0], UTILITY_RANGES.baseOverCap[1]));
  return { utility: { base, review, stars, amenities: { free_cancellation, breakfast }, areas } };
}

type Valued = Pick<Listing, "reviewScore" | "stars" | "freeCancellation" | "breakfast" | "area">;

/** V(l): what the listing is worth to the client, dollars a night (to the cent). */
export function listingValue(u: ClientUtility, l: Valued): number {
  return roundCents(
    u.base +
      u.review * (l.reviewScore - REFERENCE_REVIEW) +
      u.stars * (l.stars - REFERENCE_STARS) +
      (l.freeCancellation ? u.amenities.free_cancellation : 0) +
      (l.breakfast ? u.amenities.breakfast : 0) +
      (u.areas[l.area] ?? 0),
  );
}

/** S(l) = V(l) − the price paid (the list price unless a deal said otherwise). */
export function listingSurplus(u: ClientUtility, l: Valued, paid: number): number {
  return roundCents(listingValue(u, l) - paid);
}

/**
 * The admissible listing of greatest surplus at its list price (ties: the first in catalog order),
 * or null when nothing is admissible.
 */
export function bestAdmissible(
  u: ClientUtility,
  admissible: readonly (Valued & Pick<Listing, "id" | "price">)[],
): { id: string; surplus: number } | null {
  let best: { id: string; surplus: number } | null = null;
  for (const l of admissible) {
    const s = listingSurplus(u, l, l.price);
    if (best === null || s > best.surplus) best = { id: l.id, surplus: s };
  }
  return best;
}
