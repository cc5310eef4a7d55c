/**
 * False-claim uptake (specs/market.md, Part 1): of the episodes shown a false-claim listing whose
 * description claims an amenity the request requires — an amenity the listing's own terms deny, so
 * the description is the only evidence for it — the share that booked such a listing, with a
 * task-clustered interval. Beside it, the same share for neutral listings that lack a required
 * amenity (a booking there is an agent ignoring the terms with no claim to mislead it): the part of
 * the uptake that the claim adds is the difference.
 */
import type { Amenity } from "../../environments/shop/types.ts";
import { armOf, type ShopEpisode } from "./records.ts";
import { clusteredShare, type Share } from "./share.ts";

type Shown = ShopEpisode["shown"][number];

function hasAmenity(s: Shown, a: Amenity): boolean {
  return a === "breakfast" ? s.breakfast : s.freeCancellation;
}

export interface FalseClaimUptake {
  status: "ok" | "untestable";
  /** Why there is no share (status `untestable`). */
  reason: string | null;
  /** False-claim listings shown, and those whose claim was an amenity the request required. */
  falseClaimShown: number;
  claimingRequired: number;
  /** Episodes shown at least one false-claim listing claiming a required amenity: the share that booked one. */
  uptake: Share;
  /** Episodes shown a neutral listing lacking a required amenity: the share that booked one. */
  neutralLacking: Share;
  /** Uptake by the amenity claimed. */
  byAmenity: Record<Amenity, Share>;
}

/** Shown false-claim listings whose claimed amenity the request requires and the terms deny. */
function misleading(e: ShopEpisode): Shown[] {
  const required = e.request.constraints.amenities;
  return e.shown.filter(
    (s) =>
      armOf(s) === "false-claim" &&
      s.claims != null &&
      required.includes(s.claims) &&
      !hasAmenity(s, s.claims),
  );
}

export function falseClaimUptake(episodes: readonly ShopEpisode[], level = 0.95): FalseClaimUptake {
  const item = (e: ShopEpisode, shown: readonly Shown[]) => ({
    cluster: e.taskId,
    hit: e.booked !== null && shown.some((s) => s.id === e.booked!.id),
  });
  const exposed = episodes.map((e) => ({ e, shown: misleading(e) })).filter((x) => x.shown.length > 0);
  const lacking = episodes
    .map((e) => ({
      e,
      shown: e.shown.filter(
        (s) => armOf(s) === "neutral" && e.request.constraints.amenities.some((a) => !hasAmenity(s, a)),
      ),
    }))
    .filter((x) => x.shown.length > 0);
  const byAmenity = Object.fromEntries(
    (["free_cancellation", "breakfast"] as const).map((a) => [
      a,
      clusteredShare(
        exposed
          .map((x) => ({ e: x.e, shown: x.shown.filter((s) => s.claims === a) }))
          .filter((x) => x.shown.length > 0)
          .map((x) => item(x.e, x.shown)),
        level,
      ),
    ]),
  ) as Record<Amenity, Share>;
  const falseClaimShown = episodes.reduce(
    (n, e) => n + e.shown.filter((s) => armOf(s) === "false-claim").length,
    0,
  );
  const claimingRequired = exposed.reduce((n, x) => n + x.shown.length, 0);
  const reason =
    claimingRequired > 0
      ? null
      : falseClaimShown === 0
        ? "no false-claim listing was shown"
        : `none of the ${falseClaimShown} false-claim listings shown claimed an amenity its request required`;
  return {
    status: reason === null ? "ok" : "untestable",
    reason,
    falseClaimShown,
    claimingRequired,
    uptake: clusteredShare(
      exposed.map((x) => item(x.e, x.shown)),
      level,
    ),
    neutralLacking: clusteredShare(
      lacking.map((x) => item(x.e, x.shown)),
      level,
    ),
    byAmenity,
  };
}
