/**
 * How the agent searched: calls, searches, pages and views per episode, the filters and orders it
 * used, where its booking sat (rank and page), and whether it satisficed — booked the first
 * admissible listing it saw.
 */
import { SORTS, type Sort } from "../../environments/shop/types.ts";
import type { ShopEpisode } from "./records.ts";

export const SEARCH_FILTERS = ["area", "maxPrice", "minStars", "amenities"] as const;
export type SearchFilter = (typeof SEARCH_FILTERS)[number];

export interface SearchBehaviour {
  episodes: number;
  /** Per-episode means; null without episodes (an agent whose every episode failed). */
  meanCalls: number | null;
  meanMessages: number | null;
  meanSearches: number | null;
  meanViews: number | null;
  /** Share of agent messages that made more than one tool call. */
  parallelMessageShare: number | null;
  /** Per filter, the share of episodes with at least one search that used it. */
  filters: Record<SearchFilter, number | null>;
  /** Share of the searches run in each order. */
  sorts: Record<Sort, number | null>;
  booked: {
    episodes: number;
    /** Mean position in the results where the booked listing was first shown: (page − 1) × page size + rank. */
    meanPosition: number | null;
    firstPage: number | null;
    rankOne: number | null;
    /** Booked the first admissible listing it was shown. */
    satisficing: number | null;
  };
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const shareOf = <T>(xs: readonly T[], hit: (x: T) => boolean) =>
  xs.length ? xs.filter(hit).length / xs.length : null;

export function searchBehaviour(episodes: readonly ShopEpisode[]): SearchBehaviour {
  const searchesOf = (e: ShopEpisode) =>
    e.trajectory.filter((t) => t.tool === "search" && t.ok && t.step !== null);
  const allSearches = episodes.flatMap(searchesOf);
  const messageSizes = episodes.flatMap((e) => {
    const sizes = new Map<number, number>();
    for (const t of e.trajectory) sizes.set(t.turn, (sizes.get(t.turn) ?? 0) + 1);
    return [...sizes.values()];
  });
  const booked = episodes.filter((e) => e.booked !== null);
  const argsOf = (t: { args: unknown }) => (t.args ?? {}) as Record<string, unknown>;
  const used = (a: Record<string, unknown>, f: SearchFilter) =>
    f === "amenities"
      ? Array.isArray(a.amenities) && a.amenities.length > 0
      : a[f] !== undefined && a[f] !== null;
  return {
    episodes: episodes.length,
    meanCalls: mean(episodes.map((e) => e.steps)),
    meanMessages: mean(episodes.map((e) => e.turns)),
    meanSearches: mean(episodes.map((e) => searchesOf(e).length)),
    meanViews: mean(episodes.map((e) => e.trajectory.filter((t) => t.tool === "view" && t.ok).length)),
    parallelMessageShare: shareOf(messageSizes, (n) => n > 1),
    filters: Object.fromEntries(
      SEARCH_FILTERS.map((f) => [f, shareOf(episodes, (e) => searchesOf(e).some((t) => used(argsOf(t), f)))]),
    ) as Record<SearchFilter, number | null>,
    sorts: Object.fromEntries(
      SORTS.map((s) => [s, shareOf(allSearches, (t) => (argsOf(t).sort ?? "recommended") === s)]),
    ) as Record<Sort, number | null>,
    booked: {
      episodes: booked.length,
      meanPosition: booked.length
        ? mean(booked.map((e) => (e.booked!.page - 1) * e.rules.pageSize + e.booked!.rank))
        : null,
      firstPage: shareOf(booked, (e) => e.booked!.page === 1),
      rankOne: shareOf(booked, (e) => e.booked!.page === 1 && e.booked!.rank === 1),
      satisficing: shareOf(
        booked.filter((e) => e.shown.some((s) => s.admissible)),
        (e) => e.shown.find((s) => s.admissible)!.id === e.booked!.id,
      ),
    },
  };
}
