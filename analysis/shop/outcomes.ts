/**
 * What the episodes ended with: task success overall and per family (judged from the final state:
 * booked an admissible listing when one exists, gave up when none does), how each ended, the
 * violation rate per constraint type, and give-ups right and wrong.
 */
import {
  CONSTRAINT_TYPES,
  type ConstraintType,
  END_REASONS,
  type EndReason,
  TASK_FAMILIES,
  type TaskFamily,
} from "../../environments/shop/types.ts";
import type { ShopEpisode } from "./records.ts";
import { clusteredShare, type Share } from "./share.ts";

export interface ShopOutcomes {
  episodes: number;
  success: Share;
  byFamily: Record<TaskFamily, Share>;
  endReasons: Record<EndReason, number>;
  /** Episodes that ended at the invalid-call limit: the agent's unusable output (data, counted). */
  nonResponse: Share;
  /** Per constraint type: of the bookings on requests with that constraint, the share that broke it. */
  violations: Record<ConstraintType, Share>;
  /** Infeasible tasks: the share that gave up (the right move). */
  correctGiveUp: Share;
  /** Feasible tasks: the share that gave up though an admissible listing existed. */
  falseGiveUp: Share;
  /** Null without episodes. */
  meanInvalidCalls: number | null;
}

function has(e: ShopEpisode, t: ConstraintType): boolean {
  const c = e.request.constraints;
  return t === "price"
    ? c.maxPrice !== null
    : t === "stars"
      ? c.minStars !== null
      : t === "area"
        ? c.areas !== null
        : c.amenities.length > 0;
}

export function shopOutcomes(episodes: readonly ShopEpisode[], level = 0.95): ShopOutcomes {
  const share = (list: readonly ShopEpisode[], hit: (e: ShopEpisode) => boolean) =>
    clusteredShare(
      list.map((e) => ({ cluster: e.taskId, hit: hit(e) })),
      level,
    );
  const endReasons = Object.fromEntries(END_REASONS.map((r) => [r, 0])) as Record<EndReason, number>;
  for (const e of episodes) endReasons[e.endReason]++;
  const booked = episodes.filter((e) => e.booked !== null);
  const infeasible = episodes.filter((e) => e.admissibleCount === 0);
  const feasible = episodes.filter((e) => e.admissibleCount > 0);
  return {
    episodes: episodes.length,
    success: share(episodes, (e) => e.success),
    byFamily: Object.fromEntries(
      TASK_FAMILIES.map((f) => [
        f,
        share(
          episodes.filter((e) => e.family === f),
          (e) => e.success,
        ),
      ]),
    ) as Record<TaskFamily, Share>,
    endReasons,
    nonResponse: share(episodes, (e) => e.endReason === "invalid"),
    violations: Object.fromEntries(
      CONSTRAINT_TYPES.map((t) => [
        t,
        share(
          booked.filter((e) => has(e, t)),
          (e) => e.constraints?.[t] === false,
        ),
      ]),
    ) as Record<ConstraintType, Share>,
    correctGiveUp: share(infeasible, (e) => e.endReason === "gave-up"),
    falseGiveUp: share(feasible, (e) => e.endReason === "gave-up"),
    meanInvalidCalls: episodes.length
      ? episodes.reduce((a, e) => a + e.invalidCalls, 0) / episodes.length
      : null,
  };
}
