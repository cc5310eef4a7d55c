import { assign, setup } from "xstate";
import type { EpisodeEvent, Turn } from "../kernel/episode.ts";
import type { Message } from "../kernel/types.ts";
import { sellerOpening } from "./prompt.ts";
import {
  applySellerError,
  applySellerMessage,
  initialTurnState,
  sellerOutcomeOf,
  type TurnState,
} from "./rules.ts";
import {
  MARKET_ADOPTER,
  MARKET_STATIC,
  type SellerMessage,
  type SellerOutcome,
  type SellerTask,
  type SellerView,
} from "./types.ts";

export interface SellerEpisodeInput {
  task: SellerTask;
}

interface SellerContext {
  task: SellerTask;
  state: TurnState;
  turn: Turn<SellerView> | null;
}

/** The environment's echo of a seller message (what the seller said, as the conversation keeps it). */
export function sellerEcho(m: SellerMessage): string {
  if (m.mode === "text") return m.text ?? "";
  return m.calls.map((c) => `${c.call.tool}(${JSON.stringify(c.call.args ?? {})})`).join("\n");
}

/**
 * The results of a message as the seller reads them: one user message per native tool call, or one
 * for all the Action lines of a text reply.
 */
export function resultMessages(m: SellerMessage): string[] {
  const results = m.calls.map((c) => c.result.text);
  return m.mode === "text" ? [results.join("\n")] : results;
}

/** The view a task gives before any message: what the seller is shown. */
export function sellerView(task: SellerTask, refused: string[][] = []): SellerView {
  const { hotelId: _, description, ...listing } = task.listing;
  return {
    round: task.round,
    rounds: task.rounds,
    listing: { ...listing, description: description.text },
    cost: task.cost,
    cap: task.cap,
    report: task.report,
    competitors: task.competitors,
    history: task.history,
    rules: task.rules,
    refused,
  };
}

/** The conversation as the seller sees it: the opening, then per message its echo and its results. */
export function sellerConversation(task: SellerTask, messages: readonly SellerMessage[]): Message[] {
  const out = sellerOpening(sellerView(task));
  for (const m of messages) {
    out.push({ role: "assistant", content: sellerEcho(m) });
    for (const content of resultMessages(m)) out.push({ role: "user", content });
  }
  return out;
}

function turnOf(task: SellerTask, state: TurnState): Turn<SellerView> {
  const view = sellerView(
    task,
    state.messages.map((m) => m.calls.map((c) => c.result.text)),
  );
  let rendered: Message[] | undefined;
  return {
    role: task.adopter ? MARKET_ADOPTER : MARKET_STATIC,
    observation: {
      view,
      // Rendered when read: simulated sellers read the view.
      get messages() {
        rendered ??= sellerConversation(task, state.messages);
        return rendered;
      },
    },
  };
}

function next(task: SellerTask, state: TurnState): Partial<SellerContext> {
  return { state, turn: state.end ? null : turnOf(task, state) };
}

/**
 * One seller turn: the seller's messages arrive one by one, each with one or more calls that the
 * rules of `rules.ts` run in order; the turn ends with the first message holding a valid call, at
 * the invalid-message limit, or on an agent failure. Its output is the outcome.
 */
export const sellerMachine = setup({
  types: {
    context: {} as SellerContext,
    input: {} as SellerEpisodeInput,
    events: {} as EpisodeEvent<unknown>,
    output: {} as SellerOutcome,
  },
  guards: {
    over: ({ context }) => context.state.end !== null,
  },
  actions: {
    message: assign(({ context, event }) =>
      event.type === "act"
        ? next(context.task, applySellerMessage(context.state, event.action, context.task))
        : {},
    ),
    agentError: assign(({ context, event }) =>
      event.type === "agent.error" ? next(context.task, applySellerError(context.state, event.error)) : {},
    ),
  },
}).createMachine({
  id: "market-seller",
  context: ({ input }) => {
    const state = initialTurnState(input.task);
    return { task: input.task, state, turn: turnOf(input.task, state) };
  },
  initial: "deciding",
  states: {
    deciding: {
      always: { guard: "over", target: "ended" },
      on: {
        act: { actions: "message" },
        "agent.error": { actions: "agentError" },
      },
    },
    ended: { type: "final" },
  },
  output: ({ context }) => sellerOutcomeOf(context.state, context.task),
});
