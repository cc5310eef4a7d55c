import { assign, setup } from "xstate";
import type { EpisodeEvent, Turn } from "../kernel/episode.ts";
import type { Message, NonResponse } from "../kernel/types.ts";
import { ChoiceActionSchema } from "./actions.ts";
import { parseChoiceAnswer } from "./parse.ts";
import { reaskMessage } from "./prompt.ts";
import type { PromptVariant } from "./types.ts";

/** The outcome of any lettered forced choice (catalog choice, cue injection). */
export interface ForcedChoiceOutcome {
  /** 0-based display slot of the chosen option; null for a non-response. */
  chosenSlot: number | null;
  nonResponse: NonResponse | null;
  /** The shopper's last answer as given (a tool call is shown as `choose(X)`). */
  raw: string;
  /** Every answer, first to last (more than one after re-asks). */
  replies: string[];
}

type Verdict = { ok: true; slot: number } | { ok: false; reason: string };

/** What an environment supplies: the opening messages, the view (without `attempt`), its wording. */
export interface ForcedChoiceSpec<Input extends { maxReasks: number }, View extends { attempt: number }> {
  id: string;
  role: string;
  letters(input: Input): readonly string[];
  variant(input: Input): PromptVariant;
  messages(input: Input): Message[];
  view(input: Input): Omit<View, "attempt">;
  /** The follow-up after an unusable answer; null or absent: bazaar's own for the variant. */
  reask?(input: Input): string | null;
}

interface Context<View> {
  letters: readonly string[];
  variant: PromptVariant;
  reask: string;
  maxReasks: number;
  view: Omit<View, "attempt">;
  messages: Message[];
  replies: string[];
  verdict: Verdict | null;
  turn: Turn<View> | null;
}

/** Judges an action by the choice rules: the strict letter parser, or a `choose` tool call. */
function judge(
  action: unknown,
  letters: readonly string[],
  variant: PromptVariant,
): { raw: string; verdict: Verdict } {
  const parsed = ChoiceActionSchema.safeParse(action);
  if (!parsed.success) {
    return {
      raw: JSON.stringify(action) ?? String(action),
      verdict: { ok: false, reason: "malformed action" },
    };
  }
  const a = parsed.data;
  if (a.type === "reply") return { raw: a.text, verdict: parseChoiceAnswer(a.text, letters, variant) };
  const option = a.option.trim();
  const slot = letters.indexOf(option.toUpperCase());
  return {
    raw: `choose(${a.option})`,
    verdict: slot >= 0 ? { ok: true, slot } : { ok: false, reason: `out of range: ${option}` },
  };
}

/**
 * A lettered forced choice as an xstate machine: present the options, await an answer, judge it
 * strictly; an unusable answer is re-asked at most `maxReasks` times, then recorded as a non-response
 * with its raw text. One assign per transition, and guards judge the answer themselves, so an
 * episode is two macrosteps (the interpreter's cost dominates the episode).
 */
export function forcedChoiceMachine<Input extends { maxReasks: number }, View extends { attempt: number }>(
  spec: ForcedChoiceSpec<Input, View>,
) {
  const turnFor = (view: Omit<View, "attempt">, messages: Message[], attempt: number): Turn<View> => ({
    role: spec.role,
    observation: { messages, view: { ...view, attempt } as View },
  });
  return setup({
    types: {
      context: {} as Context<View>,
      input: {} as Input,
      events: {} as EpisodeEvent<unknown>,
      output: {} as ForcedChoiceOutcome,
    },
    guards: {
      answered: ({ context, event }) =>
        event.type === "act" && judge(event.action, context.letters, context.variant).verdict.ok,
      mayReask: ({ context }) => context.replies.length < context.maxReasks,
    },
    actions: {
      judgeAnswer: assign(({ context, event }) => {
        if (event.type !== "act") return {};
        const { raw, verdict } = judge(event.action, context.letters, context.variant);
        return { replies: [...context.replies, raw], verdict };
      }),
      judgeAndReask: assign(({ context, event }) => {
        const raw = event.type === "act" ? judge(event.action, context.letters, context.variant).raw : "";
        const replies = [...context.replies, raw];
        const messages: Message[] = [
          ...context.messages,
          { role: "assistant", content: raw },
          { role: "user", content: context.reask },
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
    id: spec.id,
    context: ({ input }) => {
      const view = spec.view(input);
      const messages = spec.messages(input);
      const letters = spec.letters(input);
      const variant = spec.variant(input);
      return {
        letters,
        variant,
        reask: spec.reask?.(input) ?? reaskMessage(letters, variant),
        maxReasks: input.maxReasks,
        view,
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
}
