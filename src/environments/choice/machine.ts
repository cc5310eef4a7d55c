import { assign, setup } from "xstate";
import type { EpisodeEvent, Turn } from "../kernel/episode.ts";
import type { Message, NonResponse } from "../kernel/types.ts";
import { type ChoiceAction, ChoiceActionSchema } from "./actions.ts";
import { parseChoiceAnswer } from "./parse.ts";
import { reaskMessage, renderChoiceMessages } from "./prompt.ts";
import { type ChoiceOption, type ChoiceTask, slotLetters } from "./types.ts";

/** The shopper's single role in a catalog-choice episode. */
export const SHOPPER = "shopper";

/** What the shopper observes besides the messages: the cards in display order. */
export interface ChoiceView {
  options: ChoiceOption[];
  letters: string[];
  /** 0 on the first ask, then 1, 2, … on re-asks after unusable answers. */
  attempt: number;
}

export interface ChoiceOutcome {
  /** 0-based display slot of the booked option; null for a non-response. */
  chosenSlot: number | null;
  nonResponse: NonResponse | null;
  /** The shopper's last answer as given (a tool call is shown as `choose(X)`). */
  raw: string;
  /** Every answer the shopper gave, first to last (more than one after re-asks). */
  replies: string[];
}

export interface ChoiceEpisodeInput {
  task: ChoiceTask;
  /** How many times an unusable answer is followed by a re-ask before it counts as a non-response. */
  maxReasks: number;
}

type Verdict = { ok: true; slot: number } | { ok: false; reason: string };

interface ChoiceContext {
  task: ChoiceTask;
  letters: string[];
  maxReasks: number;
  messages: Message[];
  replies: string[];
  verdict: Verdict | null;
  turn: Turn<ChoiceView> | null;
}

function describe(action: ChoiceAction): string {
  return action.type === "reply" ? action.text : `choose(${action.option})`;
}

function judge(action: unknown, letters: string[], task: ChoiceTask): { raw: string; verdict: Verdict } {
  const parsed = ChoiceActionSchema.safeParse(action);
  if (!parsed.success) {
    return {
      raw: JSON.stringify(action) ?? String(action),
      verdict: { ok: false, reason: "malformed action" },
    };
  }
  const a = parsed.data;
  if (a.type === "reply") return { raw: a.text, verdict: parseChoiceAnswer(a.text, letters, task.variant) };
  const slot = letters.indexOf(a.option.trim().toUpperCase());
  return {
    raw: describe(a),
    verdict: slot >= 0 ? { ok: true, slot } : { ok: false, reason: `out of range: ${a.option.trim()}` },
  };
}

function turnFor(
  ctx: Pick<ChoiceContext, "task" | "letters" | "messages">,
  attempt: number,
): Turn<ChoiceView> {
  return {
    role: SHOPPER,
    observation: {
      messages: ctx.messages,
      view: { options: ctx.task.options, letters: ctx.letters, attempt },
    },
  };
}

/**
 * One catalog-choice episode: present the cards, await an answer, judge it strictly; an unusable
 * answer is re-asked at most `maxReasks` times, then recorded as a non-response with its raw text.
 */
export const choiceMachine = setup({
  types: {
    context: {} as ChoiceContext,
    input: {} as ChoiceEpisodeInput,
    events: {} as EpisodeEvent<ChoiceAction>,
    output: {} as ChoiceOutcome,
  },
  guards: {
    // Guards judge the incoming answer themselves (parsing is cheap and pure), so one event takes
    // one transition: no transient "judging" state for the interpreter to step through.
    answered: ({ context, event }) =>
      event.type === "act" && judge(event.action, context.letters, context.task).verdict.ok,
    mayReask: ({ context }) => context.replies.length < context.maxReasks,
  },
  actions: {
    // One assign per transition: every action is a step the interpreter pays for on each episode.
    judgeAnswer: assign(({ context, event }) => {
      if (event.type !== "act") return {};
      const { raw, verdict } = judge(event.action, context.letters, context.task);
      return { replies: [...context.replies, raw], verdict };
    }),
    judgeAndReask: assign(({ context, event }) => {
      const raw = event.type === "act" ? judge(event.action, context.letters, context.task).raw : "";
      const replies = [...context.replies, raw];
      const messages: Message[] = [
        ...context.messages,
        { role: "assistant", content: raw },
        { role: "user", content: reaskMessage(context.letters, context.task.variant) },
      ];
      return { replies, messages, verdict: null, turn: turnFor({ ...context, messages }, replies.length) };
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
  id: "choice",
  context: ({ input }) => {
    const letters = slotLetters(input.task.options.length);
    const messages = renderChoiceMessages(input.task.options, input.task.variant);
    const base = { task: input.task, letters, maxReasks: input.maxReasks, messages };
    return { ...base, replies: [], verdict: null, turn: turnFor(base, 0) };
  },
  initial: "awaitingAnswer",
  states: {
    awaitingAnswer: {
      on: {
        act: [
          { guard: "answered", target: "booked", actions: "judgeAnswer" },
          { guard: "mayReask", target: "awaitingAnswer", reenter: true, actions: "judgeAndReask" },
          { target: "noResponse", actions: "judgeAnswer" },
        ],
        "agent.error": { target: "noResponse", actions: "recordError" },
      },
    },
    booked: { type: "final" },
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
