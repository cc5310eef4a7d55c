import { assign, setup } from "xstate";
import { parseChoiceAnswer } from "../choice/parse.ts";
import { reaskMessage } from "../choice/prompt.ts";
import type { EpisodeEvent, Turn } from "../kernel/episode.ts";
import type { Message, NonResponse } from "../kernel/types.ts";
import { type CueAction, CueActionSchema } from "./actions.ts";
import { renderCueMessages } from "./prompt.ts";
import { CUE_LETTERS, type CueCard, type CueOption, type CueTask } from "./types.ts";

/** The shopper's single role in a cue episode. */
export const CUE_SHOPPER = "shopper";

/**
 * What the shopper observes besides the messages: the two cards as shown (never which one is cued),
 * what it is buying, and which ask this is.
 */
export interface CueView {
  cards: [CueCard, CueCard];
  letters: readonly string[];
  category: string;
  item: string;
  /** 0 on the first ask, then 1, 2, … on re-asks after unusable answers. */
  attempt: number;
}

export interface CueOutcome {
  /** 0-based display slot of the chosen product; null for a non-response. */
  chosenSlot: number | null;
  nonResponse: NonResponse | null;
  /** The shopper's last answer as given (a tool call is shown as `choose(X)`). */
  raw: string;
  /** Every answer, first to last (more than one after re-asks). */
  replies: string[];
}

export interface CueEpisodeInput {
  task: CueTask;
  /** Re-asks after an unusable answer before it counts as a non-response. */
  maxReasks: number;
}

type Verdict = { ok: true; slot: number } | { ok: false; reason: string };

interface CueContext {
  task: CueTask;
  view: Omit<CueView, "attempt">;
  maxReasks: number;
  messages: Message[];
  replies: string[];
  verdict: Verdict | null;
  turn: Turn<CueView> | null;
}

/** A card as shown: the task's option without the fields the shopper must not see. */
export function shownCard(o: CueOption): CueCard {
  return {
    name: o.name,
    price: o.price,
    rating: o.rating,
    ratingCount: o.ratingCount,
    specs: o.specs,
    description: o.description,
  };
}

function judge(action: unknown): { raw: string; verdict: Verdict } {
  const parsed = CueActionSchema.safeParse(action);
  if (!parsed.success) {
    return {
      raw: JSON.stringify(action) ?? String(action),
      verdict: { ok: false, reason: "malformed action" },
    };
  }
  const a: CueAction = parsed.data;
  if (a.type === "reply") return { raw: a.text, verdict: parseChoiceAnswer(a.text, CUE_LETTERS) };
  const option = a.option.trim();
  const slot = CUE_LETTERS.indexOf(option.toUpperCase());
  return {
    raw: `choose(${a.option})`,
    verdict: slot >= 0 ? { ok: true, slot } : { ok: false, reason: `out of range: ${option}` },
  };
}

function turnFor(view: Omit<CueView, "attempt">, messages: Message[], attempt: number): Turn<CueView> {
  return { role: CUE_SHOPPER, observation: { messages, view: { ...view, attempt } } };
}

/**
 * One cue episode, a two-card forced choice: show the cards, await an answer, judge it with catalog
 * choice's strict parser; an unusable answer is re-asked at most `maxReasks` times, then recorded as
 * a non-response with its raw text and reason.
 */
export const cueMachine = setup({
  types: {
    context: {} as CueContext,
    input: {} as CueEpisodeInput,
    events: {} as EpisodeEvent<CueAction>,
    output: {} as CueOutcome,
  },
  guards: {
    answered: ({ event }) => event.type === "act" && judge(event.action).verdict.ok,
    mayReask: ({ context }) => context.replies.length < context.maxReasks,
  },
  actions: {
    judgeAnswer: assign(({ context, event }) => {
      if (event.type !== "act") return {};
      const { raw, verdict } = judge(event.action);
      return { replies: [...context.replies, raw], verdict };
    }),
    judgeAndReask: assign(({ context, event }) => {
      const raw = event.type === "act" ? judge(event.action).raw : "";
      const replies = [...context.replies, raw];
      const messages: Message[] = [
        ...context.messages,
        { role: "assistant", content: raw },
        { role: "user", content: reaskMessage(CUE_LETTERS, "plain") },
      ];
      return { replies, messages, verdict: null, turn: turnFor(context.view, messages, replies.length) };
    }),
    // The agent layer has already retried what can be retried; asking again would repeat the failure.
    recordError: assign(({ context, event }) => {
      if (event.type !== "agent.error") return {};
      return {
        replies: [...context.replies, ""],
        verdict: { ok: false, reason: `agent error: ${event.error}` } as Verdict,
      };
    }),
  },
}).createMachine({
  id: "cue",
  context: ({ input }) => {
    const { task } = input;
    const cards: [CueCard, CueCard] = [shownCard(task.options[0]), shownCard(task.options[1])];
    const view = { cards, letters: CUE_LETTERS, category: task.category, item: task.item };
    const messages = renderCueMessages(cards, task.item, task.instruction);
    return {
      task,
      view,
      maxReasks: input.maxReasks,
      messages,
      replies: [],
      verdict: null,
      turn: turnFor(view, messages, 0),
    };
  },
  initial: "awaitingAnswer",
  states: {
    awaitingAnswer: {
      on: {
        act: [
          { guard: "answered", target: "chosen", actions: "judgeAnswer" },
          { guard: "mayReask", target: "awaitingAnswer", reenter: true, actions: "judgeAndReask" },
          { target: "noResponse", actions: "judgeAnswer" },
        ],
        "agent.error": { target: "noResponse", actions: "recordError" },
      },
    },
    chosen: { type: "final" },
    noResponse: { type: "final" },
  },
  output: ({ context }) => {
    const raw = context.replies.at(-1) ?? "";
    const v = context.verdict;
    return v?.ok
      ? { chosenSlot: v.slot, nonResponse: null, raw, replies: context.replies }
      : {
          chosenSlot: null,
          nonResponse: { reason: v?.reason ?? "no answer", raw },
          raw,
          replies: context.replies,
        };
  },
});
