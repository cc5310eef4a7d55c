/** Catalog choice (`env: "choice"`, environments/choice/record.ts) as the terminal shows it. */

import { formatPrice, renderChoiceMessages } from "../../../environments/choice/prompt.ts";
import type { ChoiceTrialRecord } from "../../../environments/choice/record.ts";
import {
  type ChoiceOption,
  PROMPT_VARIANTS,
  type PromptVariant,
  slotLetters,
} from "../../../environments/choice/types.ts";
import { count, pct } from "../format.ts";
import {
  agentErrorOf,
  type EnvAdapter,
  type EpisodeBase,
  type EpisodeSummary,
  nonResponseOf,
  type StatsView,
  type TrialRecord,
} from "./types.ts";

export interface ChoiceCard {
  letter: string;
  /** The card's lines exactly as the agent read them, "Option A" first. */
  lines: string[];
  /** One line for narrow views: name, price, stars, rating. */
  brief: string;
}

export interface ChoiceEpisodeModel extends EpisodeBase {
  kind: "choice";
  taskId: string;
  taskKind: string;
  variant: string;
  system: string;
  intro: string;
  instruction: string;
  cards: ChoiceCard[];
  chosenSlot: number | null;
  replies: string[];
  nonResponse: { reason: string; raw: string } | null;
}

const KINDS = ["binary", "ternary", "five"] as const;

function asChoice(r: TrialRecord): ChoiceTrialRecord | null {
  const c = r as unknown as ChoiceTrialRecord;
  if (!Array.isArray(c.options) || c.options.length < 1 || !Array.isArray(c.replies)) return null;
  return c;
}

function brief(o: ChoiceOption): string {
  return `${o.name} · ${formatPrice(o.price)} · ${o.stars}★ · ${o.reviewScore.toFixed(1)}/10`;
}

/**
 * The cards come from the environment's own renderer, so the view shows the agent's prompt to the
 * character; the user message is intro, cards and instruction separated by blank lines.
 */
function choiceModel(r: TrialRecord): ChoiceEpisodeModel | { mismatch: string } {
  const c = asChoice(r);
  if (!c) return { mismatch: "a choice record needs options[] and replies[]" };
  const variant: PromptVariant = (PROMPT_VARIANTS as readonly string[]).includes(c.variant)
    ? c.variant
    : "plain";
  const [system, user] = renderChoiceMessages(c.options, variant);
  const blocks = (user?.content ?? "").split("\n\n");
  const letters = slotLetters(c.options.length);
  const cards = blocks.slice(1, -1).map((block, i) => ({
    letter: letters[i] ?? "?",
    lines: block.split("\n"),
    brief: c.options[i] ? brief(c.options[i]) : "",
  }));
  return {
    kind: "choice",
    seq: c.seq,
    agent: c.agent,
    env: "choice",
    steps: Math.max(1, c.replies.length),
    taskId: c.taskId,
    taskKind: c.kind,
    variant,
    system: system?.content ?? "",
    intro: blocks[0] ?? "",
    instruction: blocks.at(-1) ?? "",
    cards,
    chosenSlot: c.chosenSlot,
    replies: c.replies,
    nonResponse: c.nonResponse,
  };
}

function choiceSummary(r: TrialRecord): EpisodeSummary {
  const c = asChoice(r);
  const slot = c?.chosenSlot ?? null;
  const reason = c?.nonResponse?.reason ?? null;
  return {
    seq: Number(r.seq),
    agent: String(r.agent ?? ""),
    outcome: slot === null ? "no answer" : (slotLetters(slot + 1)[slot] ?? "?"),
    detail:
      slot === null || !c
        ? `${c?.kind ?? ""} · ${reason ?? ""}`
        : `${c.kind} · ${c.options[slot]?.name ?? ""} ${formatPrice(c.options[slot]?.price ?? 0)}`,
    nonResponse: slot === null,
    steps: Math.max(1, c?.replies.length ?? 1),
    error: agentErrorOf(reason),
  };
}

/** Per task kind: answers by display slot; the first-slot rate is slot A's share. */
export interface ChoiceStats {
  nonResponses: number;
  slots: Record<string, number[]>;
}

export function choiceStatsView(s: ChoiceStats): StatsView {
  const lines = [];
  let answered = 0;
  for (const k of KINDS) answered += (s.slots[k] ?? []).reduce((a, b) => a + b, 0);
  lines.push({
    label: "answered",
    value: `${count(answered)} of ${count(answered + s.nonResponses)} (${count(s.nonResponses)} non-responses)`,
  });
  const first: string[] = [];
  for (const k of KINDS) {
    const slots = s.slots[k];
    if (!slots) continue;
    const n = slots.reduce((a, b) => a + b, 0);
    if (n === 0) continue;
    first.push(`${k} ${pct((slots[0] ?? 0) / n)}`);
    const letters = slotLetters(slots.length);
    lines.push({
      label: `shares ${k}`,
      value: `${slots.map((x, i) => `${letters[i]} ${pct(x / n)}`).join(" · ")} (n=${count(n)})`,
    });
  }
  lines.splice(1, 0, { label: "first-slot rate", value: first.length ? first.join(" · ") : "—" });
  return { title: "running choice shares", lines };
}

export const choiceAdapter: EnvAdapter<ChoiceEpisodeModel, ChoiceStats> = {
  env: "choice",
  model: choiceModel,
  summary: choiceSummary,
  status: (r) => ({
    nonResponse: typeof r.chosenSlot !== "number",
    error: agentErrorOf(nonResponseOf(r)?.reason),
  }),
  stats: {
    init: () => ({ nonResponses: 0, slots: {} }),
    add(s, r) {
      const slot = r.chosenSlot;
      if (typeof slot !== "number") {
        s.nonResponses++;
        return;
      }
      const kind = String(r.kind);
      const n = Array.isArray(r.options) ? r.options.length : slot + 1;
      let slots = s.slots[kind];
      if (!slots) {
        slots = new Array<number>(n).fill(0);
        s.slots[kind] = slots;
      }
      slots[slot] = (slots[slot] ?? 0) + 1;
    },
    clone: (s) => ({
      nonResponses: s.nonResponses,
      slots: Object.fromEntries(Object.entries(s.slots).map(([k, v]) => [k, [...v]])),
    }),
    view: (s) => choiceStatsView(s),
  },
  facets: [
    {
      key: "outcome",
      hotkey: "o",
      label: "booked slot",
      values: [
        ...slotLetters(5).map((letter, i) => ({
          value: letter,
          label: `slot ${letter}`,
          conditions: [{ json: "result" as const, path: "$.outcome.chosenSlot", op: "=" as const, value: i }],
        })),
      ],
    },
    {
      key: "kind",
      hotkey: "k",
      label: "task kind",
      values: KINDS.map((k) => ({
        value: k,
        label: k,
        conditions: [{ json: "task" as const, path: "$.kind", op: "=" as const, value: k }],
      })),
    },
  ],
};
