import { assign, setup } from "xstate";
import type { EpisodeEvent, Turn } from "../kernel/episode.ts";
import type { Message, Observation } from "../kernel/types.ts";
import { sellerTurn } from "./negotiation.ts";
import { openingMessages } from "./prompt.ts";
import { echoText, resultMessages } from "./results.ts";
import {
  applyAgentError,
  applyMessage,
  applySellerAnswer,
  type EpisodeState,
  initialState,
  outcomeOf,
  taskIndex,
} from "./rules.ts";
import { SHOP_SHOPPER, type ShopOutcome, type ShopTask, type ShopTurn, type ShopView } from "./types.ts";

export interface ShopEpisodeInput {
  task: ShopTask;
}

interface ShopContext {
  task: ShopTask;
  state: EpisodeState;
  /** The shopper's turn, or a seller's while an offer waits for its answer. */
  turn: Turn<unknown> | null;
}

/**
 * The conversation as the shopper sees it: the system prompt and the request, then per agent
 * message its own echo (`assistant`) and the results (`user`, one per native tool call).
 */
export function shopConversation(opening: readonly Message[], view: ShopView): Message[] {
  const out = opening.slice();
  for (const turn of view.turns) for (const m of turnMessages(turn, view)) out.push(m);
  return out;
}

/**
 * A turn's messages, rendered once per turn: every later observation of the episode shows them
 * again (turns are never mutated, and a task's rules do not change within it).
 */
const rendered = new WeakMap<ShopTurn, Message[]>();

function turnMessages(turn: ShopTurn, view: ShopView): Message[] {
  let messages = rendered.get(turn);
  if (!messages) {
    messages = [{ role: "assistant", content: echoText(turn) }];
    for (const content of resultMessages(turn, view.rules.pageSize, view.rules.maxSteps))
      messages.push({ role: "user", content });
    rendered.set(turn, messages);
  }
  return messages;
}

/**
 * An observation whose messages are rendered only when read: simulated shoppers read the view, and
 * rendering every result card for them would cost more than the rules.
 */
class ShopObservation implements Observation<ShopView> {
  private rendered: Message[] | undefined;

  constructor(
    private readonly task: ShopTask,
    readonly view: ShopView,
  ) {}

  get messages(): Message[] {
    if (!this.rendered) this.rendered = shopConversation(openingOf(this.task), this.view);
    return this.rendered;
  }
}

const openings = new WeakMap<ShopTask, Message[]>();

/** The system prompt and request of a task, built once per task object. */
export function openingOf(task: ShopTask): Message[] {
  let opening = openings.get(task);
  if (!opening) {
    opening = openingMessages(task.request, task.rules, taskIndex(task).areas);
    openings.set(task, opening);
  }
  return opening;
}

function turnOf(task: ShopTask, state: EpisodeState): Turn<ShopView> {
  const view: ShopView = {
    request: task.request,
    rules: task.rules,
    areas: taskIndex(task).areas,
    turns: state.turns,
    steps: state.steps,
    invalidStreak: state.invalidStreak,
  };
  return { role: SHOP_SHOPPER, observation: new ShopObservation(task, view) };
}

function next(task: ShopTask, state: EpisodeState): Partial<ShopContext> {
  const w = state.open?.awaiting;
  if (w) return { state, turn: sellerTurn(w, taskIndex(task).byId.get(w.id)!, task, state.negotiations) };
  return { state, turn: state.end ? null : turnOf(task, state) };
}

/** An act or agent error from whoever's turn it was: the shopper, or the seller of an offer. */
function fromSeller(context: ShopContext, role: string): boolean {
  return role !== SHOP_SHOPPER && context.state.open?.awaiting?.seller === role;
}

/**
 * One shop episode: the shopper's messages arrive one by one, each with one or more tool calls that
 * the rules of `rules.ts` run in order; the episode ends with a booking, a give-up, the step budget,
 * the invalid-call limit or an agent failure, and its output is the outcome.
 */
export const shopMachine = setup({
  types: {
    context: {} as ShopContext,
    input: {} as ShopEpisodeInput,
    events: {} as EpisodeEvent<unknown>,
    output: {} as ShopOutcome,
  },
  guards: {
    over: ({ context }) => context.state.end !== null,
  },
  actions: {
    message: assign(({ context, event }) => {
      if (event.type !== "act") return {};
      if (fromSeller(context, event.role))
        return next(context.task, applySellerAnswer(context.state, event.action, context.task));
      return next(context.task, applyMessage(context.state, event.action, context.task));
    }),
    agentError: assign(({ context, event }) => {
      if (event.type !== "agent.error") return {};
      // A seller that failed to answer is the seller's non-answer, not the shopper's.
      if (fromSeller(context, event.role))
        return next(context.task, applySellerAnswer(context.state, null, context.task, event.error));
      return next(context.task, applyAgentError(context.state, event.error));
    }),
  },
}).createMachine({
  id: "shop",
  context: ({ input }) => {
    const state = initialState();
    return { task: input.task, state, turn: turnOf(input.task, state) };
  },
  initial: "shopping",
  states: {
    shopping: {
      always: { guard: "over", target: "ended" },
      on: {
        act: { actions: "message" },
        "agent.error": { actions: "agentError" },
      },
    },
    ended: { type: "final" },
  },
  output: ({ context }) => outcomeOf(context.state, context.task),
});
