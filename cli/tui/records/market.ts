/**
 * A market seller's turn in the terminal views: the feed and replay lines say what the seller did
 * (a new price, a new description and its arm, or kept), the episode view lists the record's fields
 * (the generic one), and the running panel counts turns that changed the listing, refused calls and
 * the arms written.
 */
import { clip } from "../format.ts";
import { type GenericEpisodeModel, genericModel } from "./generic.ts";
import {
  agentErrorOf,
  type EnvAdapter,
  type EpisodeSummary,
  nonResponseOf,
  num,
  str,
  type TrialRecord,
} from "./types.ts";

function money(x: number | null): string {
  return x === null ? "?" : `$${Math.round(x)}`;
}

/** "$263 → $249 · writes urgency", "kept", "no valid call". */
export function turnOutcome(r: TrialRecord): string {
  const parts: string[] = [];
  const before = (r.before ?? {}) as { price?: unknown };
  if (r.priceChanged === true)
    parts.push(
      `${money(typeof before.price === "number" ? before.price : null)} → ${money(num(r, "price"))}`,
    );
  if (r.descriptionChanged === true) parts.push(`writes ${str(r, "arm")}`);
  if (parts.length === 0) parts.push(str(r, "endReason") === "invalid" ? "no valid call" : "kept");
  return parts.join(" · ");
}

export function marketSummary(r: TrialRecord): EpisodeSummary {
  const nr = nonResponseOf(r);
  const refused = num(r, "invalidCalls") ?? 0;
  return {
    seq: Number(r.seq),
    agent: str(r, "player") || str(r, "agent"),
    outcome: clip(turnOutcome(r), 40),
    detail: `${str(r, "instance")} r${str(r, "round")} seller ${str(r, "seller")} · ${str(r, "name")}${refused > 0 ? ` · ${refused} refused` : ""}`,
    nonResponse: nr !== null,
    steps: 1,
    error: agentErrorOf(nr?.reason),
  };
}

interface MarketStats {
  turns: number;
  changed: number;
  prices: number;
  refused: number;
  arms: Map<string, number>;
}

export const marketAdapter: EnvAdapter<GenericEpisodeModel, MarketStats> = {
  env: "market",
  model: (r) => genericModel(r),
  summary: marketSummary,
  status: (r) => {
    const nr = nonResponseOf(r);
    return { nonResponse: nr !== null, error: agentErrorOf(nr?.reason) };
  },
  stats: {
    init: () => ({ turns: 0, changed: 0, prices: 0, refused: 0, arms: new Map() }),
    add(s, r) {
      s.turns++;
      if (str(r, "endReason") === "changed") s.changed++;
      if (r.priceChanged === true) s.prices++;
      s.refused += num(r, "invalidCalls") ?? 0;
      if (r.descriptionChanged === true) s.arms.set(str(r, "arm"), (s.arms.get(str(r, "arm")) ?? 0) + 1);
    },
    clone: (s) => ({ ...s, arms: new Map(s.arms) }),
    view: (s) => ({
      title: "seller turns",
      lines: [
        { label: "turns", value: `${s.turns} (${s.changed} changed the listing, ${s.prices} the price)` },
        { label: "calls refused", value: String(s.refused) },
        {
          label: "descriptions written",
          value:
            s.arms.size === 0
              ? "none"
              : [...s.arms]
                  .sort((a, b) => b[1] - a[1])
                  .map(([arm, n]) => `${arm} ${n}`)
                  .join(", "),
        },
      ],
    }),
  },
  facets: [],
};
