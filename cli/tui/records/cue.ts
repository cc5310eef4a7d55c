/**
 * Cue injection (`env: "cue"`, environments/cue/record.ts) as the terminal shows it: the two
 * cards rendered by the environment's own `renderCard`, so they read exactly as the agent saw them.
 */

import { slotLetters } from "../../../environments/choice/types.ts";
import { renderCard } from "../../../environments/cue/prompt.ts";
import type { CueTrialRecord } from "../../../environments/cue/record.ts";
import { count, pct } from "../format.ts";
import {
  agentErrorOf,
  type EnvAdapter,
  type EpisodeBase,
  type EpisodeSummary,
  nonResponseOf,
  num,
  str,
  type TrialRecord,
} from "./types.ts";

export interface CueCard {
  letter: string;
  /** The card's lines as the agent read them, "Option A" first. */
  lines: string[];
  cued: boolean;
}

export interface CueEpisodeModel extends EpisodeBase {
  kind: "cue";
  condition: string;
  category: string;
  /** Relative premium on the cued product (0.12 = 12%). */
  premium: number | null;
  cards: CueCard[];
  chosenSlot: number | null;
  choseCued: boolean | null;
  replies: string[];
  nonResponse: { reason: string; raw: string } | null;
}

function asCue(r: TrialRecord): CueTrialRecord | null {
  const c = r as unknown as CueTrialRecord;
  return Array.isArray(c.options) && c.options.length > 0 ? c : null;
}

function cueModel(r: TrialRecord): CueEpisodeModel | { mismatch: string } {
  const c = asCue(r);
  if (!c) return { mismatch: "a cue record needs options[]" };
  const letters = slotLetters(c.options.length);
  let cards: CueCard[];
  try {
    cards = c.options.map((o, i) => ({
      letter: letters[i]!,
      lines: renderCard(o, letters[i]!).split("\n"),
      cued: o.cued === true,
    }));
  } catch (err) {
    return { mismatch: `cue options: ${(err as Error).message}` };
  }
  const replies = Array.isArray(c.replies) ? c.replies : [c.raw ?? ""];
  return {
    kind: "cue",
    seq: c.seq,
    agent: c.agent,
    env: "cue",
    steps: Math.max(1, replies.length),
    condition: c.condition,
    category: c.category,
    premium: typeof c.premium === "number" ? c.premium : null,
    cards,
    chosenSlot: c.chosenSlot,
    choseCued: c.choseCued,
    replies,
    nonResponse: c.nonResponse,
  };
}

function cueSummary(r: TrialRecord): EpisodeSummary {
  const slot = num(r, "chosenSlot");
  const reason = nonResponseOf(r)?.reason ?? null;
  return {
    seq: Number(r.seq),
    agent: str(r, "agent"),
    outcome:
      slot === null ? "no answer" : `${slotLetters(slot + 1)[slot]} (${r.choseCued ? "cued" : "not cued"})`,
    detail: `${str(r, "condition")} · ${str(r, "category")}${slot === null ? ` · ${reason ?? ""}` : ""}`,
    nonResponse: slot === null,
    steps: Math.max(1, Array.isArray(r.replies) ? r.replies.length : 1),
    error: agentErrorOf(reason),
  };
}

/** Per condition: answers, answers for the cued product, answers for the first slot. */
export interface CueStats {
  nonResponses: number;
  byCondition: Record<string, { n: number; cued: number; first: number }>;
}

export const cueAdapter: EnvAdapter<CueEpisodeModel, CueStats> = {
  env: "cue",
  model: cueModel,
  summary: cueSummary,
  status: (r) => ({
    nonResponse: typeof r.chosenSlot !== "number",
    error: agentErrorOf(nonResponseOf(r)?.reason),
  }),
  stats: {
    init: () => ({ nonResponses: 0, byCondition: {} }),
    add(s, r) {
      const slot = num(r, "chosenSlot");
      if (slot === null) {
        s.nonResponses++;
        return;
      }
      const c = str(r, "condition") || "?";
      const g = s.byCondition[c] ?? { n: 0, cued: 0, first: 0 };
      s.byCondition[c] = g;
      g.n++;
      if (r.choseCued === true) g.cued++;
      if (slot === 0) g.first++;
    },
    clone: (s) => ({
      nonResponses: s.nonResponses,
      byCondition: Object.fromEntries(Object.entries(s.byCondition).map(([k, v]) => [k, { ...v }])),
    }),
    view: (s, current) => {
      const groups = Object.entries(s.byCondition);
      const n = groups.reduce((a, [, g]) => a + g.n, 0);
      const first = groups.reduce((a, [, g]) => a + g.first, 0);
      const cued = groups.reduce((a, [, g]) => a + g.cued, 0);
      const here = current ? s.byCondition[str(current, "condition")] : undefined;
      return {
        title: "running cue shares",
        lines: [
          { label: "answered", value: `${count(n)} (${count(s.nonResponses)} non-responses)` },
          { label: "first-slot rate", value: pct(first / n) },
          { label: "cued share (all)", value: `${pct(cued / n)} · B ${pct(1 - first / n)} second slot` },
          ...(here && current
            ? [
                {
                  label: `cued share ${str(current, "condition")}`,
                  value: `${pct(here.cued / here.n)} (n=${count(here.n)})`,
                },
              ]
            : []),
          { label: "conditions seen", value: count(groups.length) },
        ],
      };
    },
  },
  facets: [
    {
      key: "outcome",
      hotkey: "o",
      label: "chose",
      values: [
        {
          value: "cued",
          label: "the cued product",
          conditions: [{ json: "result", path: "$.outcome.chosenSlot", op: "is not null" }],
          test: (r) => r.choseCued === true,
        },
        {
          value: "other",
          label: "the other product",
          conditions: [{ json: "result", path: "$.outcome.chosenSlot", op: "is not null" }],
          test: (r) => r.choseCued === false,
        },
      ],
    },
  ],
};
