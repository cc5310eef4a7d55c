import { assign, setup } from "xstate";
import type { EpisodeEvent, Turn } from "../kernel/episode.ts";
import { ceilCents, floorCents, samePrice } from "../kernel/money.ts";
import type { Message, Observation } from "../kernel/types.ts";
import type { BargainAction } from "./actions.ts";
import { type Judgement, judgeAction } from "./judge.ts";
import { buyerIntro, openingMessages, sellerIntro } from "./prompt.ts";
import { renderAction, renderMessage } from "./text.ts";
import {
  type BargainMove,
  type BargainOutcome,
  type BargainRole,
  type BargainTask,
  type BargainView,
  BUYER,
  type EndReason,
  SELLER,
  type TranscriptEntry,
} from "./types.ts";

export interface BargainEpisodeInput {
  task: BargainTask;
}

interface SessionEnd {
  endedBy: EndReason;
  endedBySide: BargainRole | null;
  invalidReason: string | null;
  dealPrice: number | null;
}

type StaticView = Omit<BargainView, "history">;

interface BargainContext {
  task: BargainTask;
  views: Record<BargainRole, StaticView>;
  /** Each side's opening messages (system prompt and scenario); the rest are rendered from the history. */
  opening: Record<BargainRole, Message[]>;
  history: BargainMove[];
  transcript: TranscriptEntry[];
  /** Buyer messages so far: the turn number of the current turn. */
  buyerTurns: number;
  end: SessionEnd | null;
  turn: Turn<BargainView> | null;
}

type BargainEvent = EpisodeEvent<BargainAction>;

/**
 * A transition's guard and its action see the same event object, one right after the other inside
 * one synchronous `transition` call: a one-entry cache judges each event once.
 */
let lastEvent: BargainEvent | null = null;
let lastCodename = "";
let lastJudgement: Judgement | null = null;

function judgementOf(context: BargainContext, event: BargainEvent): Judgement {
  const codename = context.task.scenarioId;
  if (event === lastEvent && codename === lastCodename && lastJudgement) return lastJudgement;
  const action = event.type === "act" ? event.action : null;
  lastJudgement = judgeAction(action, event.role as BargainRole, codename);
  lastEvent = event;
  lastCodename = codename;
  return lastJudgement;
}

function other(role: BargainRole): BargainRole {
  return role === BUYER ? SELLER : BUYER;
}

/** Whether `price` is one the other side offered earlier (the reference's ±$0.01). */
function offeredByOther(history: readonly BargainMove[], role: BargainRole, price: number): boolean {
  for (const m of history)
    if (m.role !== role && m.type === "offer" && samePrice(m.price!, price)) return true;
  return false;
}

function entry(turn: number, role: BargainRole, j: Judgement): TranscriptEntry {
  const e: TranscriptEntry = j.ok
    ? { turn, role, action: j.type, price: j.price, talk: j.talk }
    : { turn, role, action: "invalid", price: null, talk: j.talk };
  if (j.thought) e.thought = j.thought;
  if (j.raw !== undefined) e.raw = j.raw;
  if (j.meta) {
    if (j.meta.tokens) e.tokens = j.meta.tokens;
    if (j.meta.ms !== undefined) e.ms = j.meta.ms;
    if (j.meta.note) e.note = j.meta.note;
  }
  return e;
}

/**
 * The session end a judged move causes, or null when the negotiation goes on. `buyerTurns` counts
 * the buyer messages including this move.
 */
function endOf(
  context: BargainContext,
  buyerTurns: number,
  role: BargainRole,
  j: Judgement,
): SessionEnd | null {
  if (!j.ok) return { endedBy: "action-error", endedBySide: role, invalidReason: j.reason, dealPrice: null };
  if (j.type === "deal") {
    return offeredByOther(context.history, role, j.price!)
      ? { endedBy: "deal", endedBySide: role, invalidReason: null, dealPrice: j.price }
      : {
          endedBy: "fake-deal",
          endedBySide: role,
          invalidReason: `no earlier ${other(role)} offer at this price`,
          dealPrice: null,
        };
  }
  if (j.type === "quit") return { endedBy: "quit", endedBySide: role, invalidReason: null, dealPrice: null };
  if (role === SELLER && buyerTurns >= context.task.maxTurns)
    return { endedBy: "turn-limit", endedBySide: null, invalidReason: null, dealPrice: null };
  return null;
}

/**
 * The conversation as `view.role` sees it: its opening, then every move so far, its own as
 * `assistant` (Talk and Action lines) and the other side's as `user`.
 */
export function conversation(opening: readonly Message[], view: BargainView): Message[] {
  const out = opening.slice();
  for (const m of view.history) {
    const said = renderMessage(m.talk, renderAction(m.role, m.type, m.price, view.codename));
    out.push({ role: m.role === view.role ? "assistant" : "user", content: said });
  }
  return out;
}

/**
 * An observation whose messages are rendered only when an agent reads them: simulated and rule
 * agents read the view alone, and rendering every message of every session for them would cost
 * more than the rules.
 */
export class BargainObservation implements Observation<BargainView> {
  private rendered: Message[] | undefined;

  constructor(
    private readonly opening: readonly Message[],
    readonly view: BargainView,
  ) {}

  get messages(): Message[] {
    if (!this.rendered) this.rendered = conversation(this.opening, this.view);
    return this.rendered;
  }
}

function turnOf(
  context: Pick<BargainContext, "views" | "opening">,
  role: BargainRole,
  history: BargainMove[],
) {
  const view: BargainView = { ...context.views[role], history };
  return { role, observation: new BargainObservation(context.opening[role], view) };
}

/** The whole effect of one move on the context (one assign per transition). */
function applyMove(context: BargainContext, role: BargainRole, j: Judgement): Partial<BargainContext> {
  const buyerTurns = role === BUYER ? context.buyerTurns + 1 : context.buyerTurns;
  const transcript = [...context.transcript, entry(buyerTurns, role, j)];
  const end = endOf(context, buyerTurns, role, j);
  if (end || !j.ok) return { buyerTurns, transcript, end, turn: null };
  const move: BargainMove = { role, type: j.type, price: j.price, talk: j.talk };
  const history = [...context.history, move];
  return { buyerTurns, transcript, history, turn: turnOf(context, other(role), history) };
}

/**
 * What every session of a task starts from (views and opening messages), built once per task
 * object: a run plays each task with every pairing and replicate. Never mutated (moves copy).
 */
const openings = new WeakMap<BargainTask, Pick<BargainContext, "views" | "opening">>();

export function initialBargainContext(task: BargainTask): BargainContext {
  let opening = openings.get(task);
  if (!opening) {
    opening = openingOf(task);
    openings.set(task, opening);
  }
  const history: BargainMove[] = [];
  return {
    task,
    views: opening.views,
    opening: opening.opening,
    history,
    transcript: [],
    buyerTurns: 0,
    end: null,
    turn: turnOf(opening, BUYER, history),
  };
}

function openingOf(task: BargainTask): Pick<BargainContext, "views" | "opening"> {
  const item = {
    codename: task.scenarioId,
    title: task.product.title,
    description: task.product.description,
    listedPrice: task.listedPrice,
  };
  const budgetShown = floorCents(task.budget);
  const costShown = ceilCents(task.cost);
  const base = { ...item, maxTurns: task.maxTurns };
  const views = {
    buyer: { ...base, role: BUYER, limit: budgetShown },
    seller: { ...base, role: SELLER, limit: costShown },
  } as Record<BargainRole, StaticView>;
  const opening = {
    buyer: openingMessages(BUYER, buyerIntro(item, budgetShown, task.maxTurns)),
    seller: openingMessages(SELLER, sellerIntro(item, costShown, task.maxTurns)),
  };
  return { views, opening };
}

/**
 * One bargaining session: the buyer opens, the sides alternate, and every move is judged by the same
 * rules whoever makes it: an unreadable or malformed action ends the session as that side's action
 * error; DEAL ends it, valid only at a price the other side offered (else a fake deal); QUIT ends it;
 * after `maxTurns` buyer messages and replies it ends at the turn limit. Prices beyond a side's own
 * budget or cost are not refused: they are scored, as in the paper.
 */
export const bargainMachine = setup({
  types: {
    context: {} as BargainContext,
    input: {} as BargainEpisodeInput,
    events: {} as BargainEvent,
    output: {} as BargainOutcome,
  },
  guards: {
    endsSession: ({ context, event }) => {
      const role = event.role as BargainRole;
      const buyerTurns = role === BUYER ? context.buyerTurns + 1 : context.buyerTurns;
      return endOf(context, buyerTurns, role, judgementOf(context, event)) !== null;
    },
  },
  actions: {
    move: assign(({ context, event }) =>
      applyMove(context, event.role as BargainRole, judgementOf(context, event)),
    ),
    agentError: assign(({ context, event }) => {
      const role = event.role as BargainRole;
      const reason = `agent error: ${event.type === "agent.error" ? event.error : "unknown"}`;
      return applyMove(context, role, { ok: false, reason, raw: "", talk: "" });
    }),
  },
}).createMachine({
  id: "bargain",
  context: ({ input }) => initialBargainContext(input.task),
  initial: "negotiating",
  states: {
    negotiating: {
      on: {
        act: [{ guard: "endsSession", target: "ended", actions: "move" }, { actions: "move" }],
        "agent.error": { target: "ended", actions: "agentError" },
      },
    },
    ended: { type: "final" },
  },
  output: ({ context }) => outcomeOf(context),
});

export function outcomeOf(
  context: Pick<BargainContext, "end" | "buyerTurns" | "transcript">,
): BargainOutcome {
  const end = context.end ?? {
    endedBy: "turn-limit",
    endedBySide: null,
    invalidReason: null,
    dealPrice: null,
  };
  const invalid = end.endedBy === "action-error" || end.endedBy === "fake-deal";
  return {
    outcome: invalid ? "invalid" : end.endedBy === "deal" ? "deal" : "no-deal",
    endedBy: end.endedBy,
    endedBySide: end.endedBySide,
    invalidSide: invalid ? end.endedBySide : null,
    invalidReason: end.invalidReason,
    dealPrice: end.dealPrice,
    turns: context.buyerTurns,
    transcript: context.transcript,
  };
}
