/**
 * The funnel from shown to opened to booked: P(viewed | shown) by position on the page and by tag
 * (tagged beside untagged), and P(booked | viewed).
 */
import type { ShopEpisode } from "./records.ts";

export interface FunnelRow {
  label: string;
  shown: number;
  viewed: number;
  rate: number | null;
}

export interface Funnel {
  /** By 1-based position on the page where a listing was first shown (pages pooled). */
  byRank: (FunnelRow & { rank: number })[];
  /** Per tag: listings shown with it, and the same figures for those shown without it. */
  byTag: { tag: string; tagged: FunnelRow; untagged: FunnelRow }[];
  bookedGivenViewed: { viewed: number; booked: number; rate: number | null };
}

type ShownOf = ShopEpisode["shown"][number];

const TAGS: readonly [string, (s: ShownOf) => boolean][] = [
  ["sponsored", (s) => s.treatments.sponsored],
  ["endorsed", (s) => s.treatments.endorsed],
  ["scarcity", (s) => s.treatments.roomsLeft !== null],
  ["discount", (s) => s.treatments.wasPrice !== null],
];

function row(label: string, shown: readonly ShownOf[]): FunnelRow {
  const viewed = shown.filter((s) => s.viewed).length;
  return { label, shown: shown.length, viewed, rate: shown.length ? viewed / shown.length : null };
}

export function shopFunnel(episodes: readonly ShopEpisode[]): Funnel {
  const shown = episodes.flatMap((e) => e.shown);
  const maxRank = Math.max(0, ...shown.map((s) => s.rank));
  const byRank = Array.from({ length: maxRank }, (_, i) => ({
    rank: i + 1,
    ...row(
      `rank ${i + 1}`,
      shown.filter((s) => s.rank === i + 1),
    ),
  }));
  const byTag = TAGS.map(([tag, has]) => ({
    tag,
    tagged: row(tag, shown.filter(has)),
    untagged: row(
      `not ${tag}`,
      shown.filter((s) => !has(s)),
    ),
  }));
  let viewed = 0;
  let booked = 0;
  for (const e of episodes)
    for (const s of e.shown)
      if (s.viewed) {
        viewed++;
        if (e.booked?.id === s.id) booked++;
      }
  return { byRank, byTag, bookedGivenViewed: { viewed, booked, rate: viewed ? booked / viewed : null } };
}
