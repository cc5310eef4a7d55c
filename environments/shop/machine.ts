import { assign, setup } from "xstate";
import type { EpisodeEvent, Turn } from "../kernel/episode.ts";
import type { Message, Observation } from "../kernel/types.ts";
import { type ClientState, clientSide } from "./client/episode.ts";
import { clientMessages } from "./client/prompt.ts";
import { type ClientView, SHOP_CLIENT } from "./client/types.ts";
import { sellerTurn } from "./negotiation.ts";
import { openingMessages } from "./prompt.ts";
import { echoText, resultMessages } from "./results.ts";
import {
  applyAgentError,
  applyClientAnswer,
  applyClientOpening,
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
    if (!this.rendered)
      this.rendered = shopConversation(
        openingOf(this.task, this.view.client ? this.view.request.text : undefined),
        this.view,
      );
    return this.rendered;
  }
}

const openings = new WeakMap<ShopTask, Map<string, Message[]>>();

/**
 * The system prompt and request of a task, built once per task object (and, with a client, per
 * opening `clientOpening`: the persona's first message is the request the shopper is given).
 */
export function openingOf(task: ShopTask, clientOpening?: string): Message[] {
  let byOpening = openings.get(task);
  if (!byOpening) {
    byOpening = new Map();
    openings.set(task, byOpening);
  }
  const key = clientOpening ?? "";
  let opening = byOpening.get(key);
  if (!opening) {
    opening =
      clientOpening === undefined
        ? openingMessages(task.request, task.rules, taskIndex(task).areas)
        : openingMessages({ text: clientOpening }, task.rules, taskIndex(task).areas, true);
    byOpening.set(key, opening);
  }
  return opening;
}

function turnOf(task: ShopTask, state: EpisodeState): Turn<ShopView> {
  const c = state.client;
  const view: ShopView = {
    request: c
      ? { text: c.conversation[0]?.text ?? "", constraints: c.stated.constraints, wishes: c.stated.wishes }
      : task.request,
    rules: task.rules,
    areas: taskIndex(task).areas,
    turns: state.turns,
    steps: state.steps,
    invalidStreak: state.invalidStreak,
    ...(c ? { client: clientSide(c) } : {}),
  };
  return { role: SHOP_SHOPPER, observation: new ShopObservation(task, view) };
}

/** The client's observation: its profile and the conversation; messages (an LLM client's) rendered when read. */
class ClientObservation implements Observation<ClientView> {
  private rendered: Message[] | undefined;

  constructor(
    readonly view: ClientView,
    private readonly persona: ClientState["persona"],
  ) {}

  get messages(): Message[] {
    this.rendered ??= clientMessages(this.view, this.persona?.name ?? null);
    return this.rendered;
  }
}

function clientTurn(task: ShopTask, state: EpisodeState): Turn<ClientView> {
  const c = state.client!;
  const view: ClientView = {
    requirements: task.request.constraints,
    utility: task.client!.utility,
    wishes: task.request.wishes,
    areas: taskIndex(task).areas,
    places: [...taskIndex(task).places],
    conversation: c.conversation,
    message: c.asking?.text ?? null,
  };
  return { role: SHOP_CLIENT, observation: new ClientObservation(view, c.persona) };
}

function next(task: ShopTask, state: EpisodeState): Partial<ShopContext> {
  const w = state.open?.awaiting;
  if (w) return { state, turn: sellerTurn(w, taskIndex(task).byId.get(w.id)!, task, state.negotiations) };
  if (state.client && !state.end && (state.client.persona === null || state.client.asking))
    return { state, turn: clientTurn(task, state) };
  return { state, turn: state.end ? null : turnOf(task, state) };
}

/** An act or agent error from whoever's turn it was: the shopper, or the seller of an offer. */
function fromSeller(context: ShopContext, role: string): boolean {
  return role !== SHOP_SHOPPER && context.state.open?.awaiting?.seller === role;
}

/** An act or agent error from the client, whose turn it was (its opening, or a reply). */
function fromClient(context: ShopContext, role: string): boolean {
  const c = context.state.client;
  return role === SHOP_CLIENT && c !== null && (c.persona === null || c.asking !== null);
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
      if (fromClient(context, event.role))
        return next(
          context.task,
          context.state.client?.persona === null
            ? applyClientOpening(context.state, event.action, context.task)
            : applyClientAnswer(context.state, event.action, context.task),
        );
      return next(context.task, applyMessage(context.state, event.action, context.task));
    }),
    agentError: assign(({ context, event }) => {
      if (event.type !== "agent.error") return {};
      // A seller that failed to answer is the seller's non-answer, not the shopper's.
      if (fromSeller(context, event.role))
        return next(context.task, applySellerAnswer(context.state, null, context.task, event.error));
      // A client that failed to reply is the client's silence (a fault), not the shopper's non-answer.
      if (fromClient(context, event.role) && context.state.client?.persona !== null)
        return next(context.task, applyClientAnswer(context.state, null, context.task, event.error));
      return next(context.task, applyAgentError(context.state, event.error));
    }),
  },
}).createMachine({
  id: "shop",
  context: ({ input }) => {
    const state = initialState(input.task);
    return { task: input.task, ...next(input.task, state) } as ShopContext;
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
