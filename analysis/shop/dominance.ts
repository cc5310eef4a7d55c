/**
 * Rationality checks: on dominance tasks, how often the agent booked the designed dominated listing
 * (an admissible one that another admissible listing beats on price, rating, stars and amenities);
 * on every task, how often its booking was dominated by an admissible listing it had been shown.
 */
import type { ShopEpisode } from "./records.ts";
import { clusteredShare, type Share } from "./share.ts";

export interface DominanceChecks {
  /** Dominance tasks with a booking: the share that booked the dominated listing. */
  bookedDominated: Share;
  /** Of those, the share that booked the dominant one. */
  bookedDominant: Share;
  /** Every admissible booking: the share dominated by another admissible listing shown. */
  dominatedBookings: Share;
}

type Item = ShopEpisode["shown"][number];

/** `a` is cheaper and better rated than `b`, with at least its stars and every amenity it has. */
export function dominates(a: Item, b: Item): boolean {
  return (
    a.price < b.price &&
    a.reviewScore > b.reviewScore &&
    a.stars >= b.stars &&
    (a.freeCancellation || !b.freeCancellation) &&
    (a.breakfast || !b.breakfast)
  );
}

export function dominanceChecks(episodes: readonly ShopEpisode[], level = 0.95): DominanceChecks {
  const onDominance = episodes.filter((e) => e.family === "dominance" && e.dominance && e.booked);
  const booked = episodes.filter((e) => e.booked?.admissible);
  const item = (e: ShopEpisode, hit: boolean) => ({ cluster: e.taskId, hit });
  return {
    bookedDominated: clusteredShare(
      onDominance.map((e) => item(e, e.booked!.id === e.dominance!.dominated)),
      level,
    ),
    bookedDominant: clusteredShare(
      onDominance.map((e) => item(e, e.booked!.id === e.dominance!.dominant)),
      level,
    ),
    dominatedBookings: clusteredShare(
      booked.map((e) => {
        const b = e.shown.find((s) => s.id === e.booked!.id);
        return item(
          e,
          b !== undefined && e.shown.some((s) => s.admissible && s.id !== b.id && dominates(s, b)),
        );
      }),
      level,
    ),
  };
}
