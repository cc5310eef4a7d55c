/**
 * The rules of a shop episode, as pure functions of the episode so far and the agent's next message:
 * every call is validated (zod), only listings the agent has been shown can be viewed or booked, the
 * step budget and the invalid-call limit end the episode, and the calls of one message run one by
 * one in order — a `book` or `give_up` among them ends the episode after the calls before it, and
 * the rest are answered "episode over" without running. The machine wraps these in xstate.
 */
import type { z } from "zod";
import { META_KEY } from "../bargain/actions.ts";
import { formatPrice } from "../choice/prompt.ts";
import { formatUsd } from "../kernel/money.ts";
import { MESSAGE_CLIENT, type ShopTool, shopTools, TOOL_CALL_BATCH, TOOL_SCHEMAS } from "./actions.ts";
import {
  type ClientState,
  clientAnswers,
  clientAsked,
  clientOpens,
  initialClient,
} from "./client/episode.ts";
import { parseActionLines, type TextCall } from "./grammar.ts";
import {
  type AwaitedOffer,
  answerOffer,
  bookedPrice,
  isDeadlock,
  type NegotiationState,
  offerCall,
  publicNegotiation,
  sellerAnswer,
} from "./negotiation.ts";
import { cardOf, detailOf, knownPlaces, runSearch, searchQuery } from "./search.ts";
import type {
  Card,
  EndReason,
  Listing,
  ListingDetail,
  ShopCall,
  ShopOutcome,
  ShopTask,
  ShopTurn,
  ShownListing,
  ToolResult,
  TrajectoryEntry,
} from "./types.ts";

/** What an episode keeps between agent messages. Never mutated: each message makes a new one. */
export interface EpisodeState {
  turns: ShopTurn[];
  /** Where each listing was first shown (its `viewed` flag is filled in from `viewed` at the end). */
  shown: ShownListing[];
  /** Ids opened, in order. */
  viewed: string[];
  steps: number;
  invalidStreak: number;
  invalidCalls: number;
  trajectory: TrajectoryEntry[];
  end: EpisodeEnd | null;
  /** Negotiations, in the order of each listing's first offer (a design with offers). */
  negotiations: NegotiationState[];
  /** The agent message being run, while one of its offers waits for the seller's answer (or a message for the client's). */
  open: OpenMessage | null;
  /** With a client: its persona, the conversation, what it has said; null without one. */
  client: ClientState | null;
}

/**
 * An agent message part-way through: its calls, those already answered, and the offer whose
 * seller is due to answer (the machine hands the turn to that seller and resumes with its answer).
 */
export interface OpenMessage {
  mode: ShopTurn["mode"];
  text: string | null;
  calls: TextCall[];
  /** The index of the next call to run. */
  next: number;
  executed: ShopTurn["calls"];
  awaiting: AwaitedOffer | null;
}

export interface EpisodeEnd {
  reason: EndReason;
  bookedId: string | null;
  giveUpReason: string | null;
  nonResponse: { reason: string; raw: string } | null;
}

/** What rules need of a task besides the task, built once per task object. */
export interface TaskIndex {
  byId: Map<string, Listing>;
  /** Each listing's card and detail, built on first use: results share them (never mutated). */
  card(l: Listing): Card;
  detail(l: Listing): ListingDetail;
  places: Set<string>;
  areas: string[];
}

const indexes = new WeakMap<ShopTask, TaskIndex>();

function memo<T>(make: (l: Listing) => T): (l: Listing) => T {
  const made = new Map<string, T>();
  return (l) => {
    let x = made.get(l.id);
    if (x === undefined) {
      x = make(l);
      made.set(l.id, x);
    }
    return x;
  };
}

export function taskIndex(task: ShopTask): TaskIndex {
  let index = indexes.get(task);
  if (!index) {
    const areas = [
      ...new Set([...task.listings.map((l) => l.area), ...(task.request.constraints.areas ?? [])]),
    ].sort();
    index = {
      byId: new Map(task.listings.map((l) => [l.id, l])),
      card: memo(cardOf),
      detail: memo(detailOf),
      places: knownPlaces(task.listings, areas),
      areas,
    };
    indexes.set(task, index);
  }
  return index;
}

/** The state before the first move (with a client when the task has one: it opens first). */
export function initialState(task?: Pick<ShopTask, "client">): EpisodeState {
  return {
    turns: [],
    shown: [],
    viewed: [],
    steps: 0,
    invalidStreak: 0,
    invalidCalls: 0,
    trajectory: [],
    end: null,
    negotiations: [],
    open: null,
    client: task?.client ? initialClient() : null,
  };
}

export const NO_CALL_MESSAGE =
  'your message has no tool call. Call search, view, book or give_up (without tools, end your reply with a line such as Action: search({"maxPrice": 200}))';
export const NO_CALL_MESSAGE_OFFERS =
  'your message has no tool call. Call search, view, offer, book or give_up (without tools, end your reply with a line such as Action: search({"maxPrice": 200}))';

/** The keys of the bargaining `ActionMeta`: a `meta` with any other key is not bookkeeping. */
const META_KEYS: ReadonlySet<string> = new Set(["tokens", "ms", "note"]);

/**
 * The bookkeeping an agent put beside a call (the bargaining `meta` convention), or null when
 * `meta` is not that: a plain object with only `tokens`, `ms` and a string `note`. Only its note
 * is kept; the rest is the agent's and nobody reads it here.
 */
function bookkeeping(meta: unknown): { note?: string } | null {
  if (meta === null || typeof meta !== "object" || Array.isArray(meta)) return null;
  const m = meta as Record<string, unknown>;
  if (!Object.keys(m).every((k) => META_KEYS.has(k))) return null;
  if (m.note !== undefined && typeof m.note !== "string") return null;
  return typeof m.note === "string" ? { note: m.note } : {};
}

/**
 * An agent message read as calls, whatever form it came in. Bookkeeping beside a call is read off
 * and never passed to the argument check: a batch's `calls[i].meta` (beside the call's `args`, so
 * nothing a model writes can land there), or a single call's top-level `meta` — the bargaining
 * convention; a single call is flat (its arguments and `type`), so there `meta` is taken as
 * bookkeeping only in its exact shape, and anything else under that key stays an argument the
 * tool's strict schema refuses, as before.
 */
export function decodeMessage(
  action: unknown,
  offers = false,
  client = false,
): {
  mode: ShopTurn["mode"];
  text: string | null;
  calls: TextCall[];
} {
  const noCall = offers ? NO_CALL_MESSAGE_OFFERS : NO_CALL_MESSAGE;
  if (action !== null && typeof action === "object" && !Array.isArray(action)) {
    const a = action as Record<string, unknown>;
    if (a.type === TOOL_CALL_BATCH && Array.isArray(a.calls)) {
      const calls = a.calls.map((c): TextCall => {
        const o = (c ?? {}) as { name?: unknown; args?: unknown; [META_KEY]?: unknown };
        if (typeof o.name !== "string")
          return { tool: "", args: c, problem: "a tool call without a tool name" };
        return { tool: o.name, args: o.args, ...bookkeeping(o[META_KEY]) };
      });
      return calls.length > 0
        ? { mode: "tools", text: null, calls }
        : { mode: "tools", text: null, calls: [{ tool: "", args: action, problem: noCall }] };
    }
    if (a.type === "reply") {
      const text = typeof a.text === "string" ? a.text : String(a.text ?? "");
      const calls = parseActionLines(text);
      // With a client, a reply without any call is a message to it (τ²-bench's convention).
      if (client && calls.length === 0)
        return { mode: "message", text, calls: [{ tool: MESSAGE_CLIENT, args: { text } }] };
      return {
        mode: "text",
        text,
        calls: calls.length > 0 ? calls : [{ tool: "", args: text, problem: noCall }],
      };
    }
    if (typeof a.type === "string") {
      const { type, ...args } = a;
      const meta = bookkeeping(args[META_KEY]);
      if (meta) delete args[META_KEY];
      return { mode: "tools", text: null, calls: [{ tool: type, args, ...meta }] };
    }
  }
  return { mode: "tools", text: null, calls: [{ tool: "", args: action, problem: "not a tool call" }] };
}

function zodProblem(tool: string, error: z.ZodError): string {
  const issues = error.issues.slice(0, 3).map((i) => {
    const where = i.path.map(String).join(".");
    return where ? `${where}: ${i.message}` : i.message;
  });
  return `invalid arguments for ${tool}: ${issues.join("; ")}`;
}

function notShown(id: string): string {
  return `listing "${id}" is not among the results you have been shown: search, then use an id from the result cards`;
}

interface Executed {
  result: ToolResult;
  ok: boolean;
  /** Listings the call showed for the first time, and a listing it opened. */
  newlyShown?: ShownListing[];
  viewed?: string;
  /** An offer the listing's seller must answer before the message goes on. */
  awaiting?: AwaitedOffer;
  /** A negotiation this call changed without asking the seller (an offer at the seller's counter). */
  negotiation?: NegotiationState;
  /** A message for the client: the text. */
  askClient?: string;
}

function failed(message: string): Executed {
  return { result: { kind: "error", message }, ok: false };
}

function runCall(
  call: TextCall,
  task: ShopTask,
  index: TaskIndex,
  shown: ReadonlySet<string>,
  step: number,
  negotiations: readonly NegotiationState[],
): Executed {
  if (call.problem) return failed(call.problem);
  const tools: readonly string[] = shopTools({ offers: task.rules.offers === true, client: !!task.client });
  if (!tools.includes(call.tool)) {
    return failed(
      `there is no tool "${call.tool}": the tools are ${tools.slice(0, -1).join(", ")} and ${tools.at(-1)}`,
    );
  }
  const tool = call.tool as ShopTool;
  if (
    call.args !== undefined &&
    (call.args === null || typeof call.args !== "object" || Array.isArray(call.args))
  ) {
    return failed(`the arguments of ${tool} must be an object`);
  }
  const parsed = TOOL_SCHEMAS[tool].safeParse({ ...(call.args as object | undefined), type: tool });
  if (!parsed.success) return failed(zodProblem(tool, parsed.error));
  const a = parsed.data as Record<string, unknown>;
  switch (tool) {
    case "search": {
      const query = searchQuery(a);
      if (query.area !== null && !index.places.has(query.area.trim().toLowerCase())) {
        return failed(`unknown area "${query.area}": the areas are ${index.areas.join(", ")}`);
      }
      const page = runSearch(task.listings, query, task.rules.pageSize);
      const newlyShown: ShownListing[] = [];
      const cards: Card[] = new Array(page.listings.length);
      for (let i = 0; i < page.listings.length; i++) {
        const l = page.listings[i] as Listing;
        const id = l.id;
        cards[i] = index.card(l);
        if (!shown.has(id)) newlyShown.push({ id, step, page: query.page, rank: i + 1, viewed: false });
      }
      return {
        result: {
          kind: "results",
          query,
          total: page.total,
          pages: page.pages,
          cards,
        },
        ok: true,
        newlyShown,
      };
    }
    case "view": {
      const id = a.id as string;
      const l = shown.has(id) ? index.byId.get(id) : undefined;
      if (!l) return failed(notShown(id));
      return { result: { kind: "listing", listing: index.detail(l) }, ok: true, viewed: id };
    }
    case "offer": {
      const id = a.id as string;
      const l = shown.has(id) ? index.byId.get(id) : undefined;
      if (!l) return failed(notShown(id));
      const message = (a.message as string | undefined) ?? "";
      const made = offerCall(l, a.price as number, message, step, task, negotiations, call.note);
      if ("problem" in made) return failed(made.problem);
      // Answered when the seller has spoken (`applySellerAnswer`); this result is never read.
      if ("awaiting" in made) return { result: { kind: "episode-over" }, ok: true, awaiting: made.awaiting };
      return { result: made.result, ok: true, negotiation: made.negotiation };
    }
    case "book": {
      const id = a.id as string;
      const l = shown.has(id) ? index.byId.get(id) : undefined;
      if (!l) return failed(notShown(id));
      return { result: { kind: "booked", id, price: bookedPrice(l, negotiations) }, ok: true };
    }
    case "give_up":
      return { result: { kind: "gave-up", reason: a.reason as string }, ok: true };
    case "message_client":
      // Answered by the client (or the machine, once its patience is out): `runCalls` hands it on.
      return { result: { kind: "episode-over" }, ok: true, askClient: a.text as string };
  }
}

/** A one-line summary of a result for the trajectory. */
export function summarize(result: ToolResult, index: TaskIndex): string {
  switch (result.kind) {
    case "results": {
      if (result.total === 0) return "0 results";
      const ids = result.cards.map((c) => c.id).join(", ");
      return `${result.total} results · page ${result.query.page}/${result.pages}${ids ? ` · ${ids}` : " · past the last page"}`;
    }
    case "listing": {
      const l = result.listing;
      return `${l.name} · ${l.stars}★ · ${formatPrice(l.price)} · ${l.reviewScore.toFixed(1)}/10`;
    }
    case "error":
      return `error: ${result.message}`;
    case "booked": {
      const l = index.byId.get(result.id);
      const deal = l && result.price !== l.price ? ` (list ${formatPrice(l.price)})` : "";
      return `booked ${result.id}${l ? ` · ${l.name} · ${formatUsd(result.price ?? l.price)}${deal}` : ""}`;
    }
    case "offer": {
      const said = `offer ${formatUsd(result.price)} to ${result.id}`;
      switch (result.answer) {
        case "accept":
          return `${said} · accepted: deal at ${formatUsd(result.deal!)}`;
        case "deal":
          return `${said} · the seller's own counter: deal at ${formatUsd(result.deal!)}`;
        case "counter":
          return `${said} · countered at ${formatUsd(result.counter!)}`;
        case "reject":
          return `${said} · rejected`;
        case "quit":
          return `${said} · the seller ended the negotiation`;
        case "invalid":
          return `${said} · no usable answer from the seller`;
      }
      return said;
    }
    case "gave-up":
      return `gave up: ${result.reason}`;
    case "client":
      return `${result.machine ? "the client's patience ran out: " : "client: "}${clip(result.text, 80)}`;
    case "client-left":
      return "the client ended the conversation";
    case "episode-over":
      return "not run: the episode was over";
  }
}

/** `text` on one line, at most `n` characters (an ellipsis where it was cut). */
function clip(text: string, n: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= n ? line : `${line.slice(0, n - 1)}…`;
}

/** The call as the agent sent it, for a non-response's raw text. */
function rawCall(call: ShopCall): string {
  return `${call.tool}(${JSON.stringify(call.args) ?? ""})`;
}

/** The whole effect of one agent message on the episode (up to an offer its seller must answer). */
export function applyMessage(state: EpisodeState, action: unknown, task: ShopTask): EpisodeState {
  const decoded = decodeMessage(action, task.rules.offers === true, !!task.client);
  return runCalls(
    {
      ...state,
      open: {
        mode: decoded.mode,
        text: decoded.text,
        calls: decoded.calls,
        next: 0,
        executed: [],
        awaiting: null,
      },
    },
    task,
  );
}

/**
 * A seller's answer to the offer the open message waits on: judged by the bargaining rules, given
 * to the shopper as that call's result, and the rest of the message run.
 */
export function applySellerAnswer(
  state: EpisodeState,
  action: unknown,
  task: ShopTask,
  error?: string,
): EpisodeState {
  const open = state.open;
  if (!open?.awaiting) return state;
  const w = open.awaiting;
  const answered = answerOffer(w, sellerAnswer(w, action, state.negotiations, error), state.negotiations);
  return resumeAfter({ ...state, negotiations: answered.negotiations }, task, answered.result, w.step);
}

/**
 * The open message after the call it waited on was answered (by a seller, or the client): the
 * answer is that call's result, and the rest of the message runs.
 */
function resumeAfter(state: EpisodeState, task: ShopTask, result: ToolResult, step: number): EpisodeState {
  const open = state.open!;
  const call = open.calls[open.next - 1]!;
  const executed = [...open.executed, { call: { tool: call.tool, args: call.args }, result, step }];
  const trajectory = state.trajectory.slice();
  trajectory.push({
    step,
    turn: state.turns.length + 1,
    tool: call.tool,
    args: call.args,
    ok: true,
    summary: summarize(result, taskIndex(task)),
  });
  const end: EpisodeEnd | null =
    state.steps >= task.rules.maxSteps
      ? { reason: "out-of-steps", bookedId: null, giveUpReason: null, nonResponse: null }
      : null;
  return runCalls({ ...state, trajectory, end, open: { ...open, executed, awaiting: null } }, task);
}

/** The client's first message: its persona and opening (the shopper's turn comes next). */
export function applyClientOpening(state: EpisodeState, action: unknown, task: ShopTask): EpisodeState {
  if (!state.client) return state;
  return { ...state, client: clientOpens(state.client, action, taskIndex(task).areas) };
}

/** The client's reply (or its failure to reply) to the message the open message waits on. */
export function applyClientAnswer(
  state: EpisodeState,
  action: unknown,
  task: ShopTask,
  error?: string,
): EpisodeState {
  const asking = state.client?.asking;
  if (!state.client || !asking || !task.client) return state;
  const index = taskIndex(task);
  const answered = clientAnswers(
    state.client,
    action,
    { requirements: task.request.constraints, client: task.client },
    { areas: index.areas, places: [...index.places] },
    error,
  );
  return resumeAfter(
    { ...state, client: answered.client },
    task,
    { kind: "client", text: answered.text },
    asking.step,
  );
}

/** Runs the open message's calls from `next` on, until it is done or an offer waits for its seller. */
function runCalls(state: EpisodeState, task: ShopTask): EpisodeState {
  const open = state.open!;
  const index = taskIndex(task);
  const { maxSteps, maxInvalid } = task.rules;
  const turnNumber = state.turns.length + 1;
  let { steps, invalidStreak, invalidCalls, end, negotiations, client } = state;
  let shown = state.shown;
  let viewed = state.viewed;
  let shownIds: Set<string> | null = null;
  // A fresh message copies the trajectory; a resumed one was copied by `applySellerAnswer`.
  const trajectory = open.next === 0 ? state.trajectory.slice() : state.trajectory;
  const executed = open.executed.slice();
  for (let i = open.next; i < open.calls.length; i++) {
    const call = open.calls[i]!;
    if (end) {
      trajectory.push({
        step: null,
        turn: turnNumber,
        tool: call.tool,
        args: call.args,
        ok: false,
        summary: summarize({ kind: "episode-over" }, index),
      });
      continue;
    }
    steps++;
    shownIds ??= new Set(shown.map((s) => s.id));
    let ran = runCall(call, task, index, shownIds, steps, negotiations);
    // An offer's seller, or the client, answers before anything else runs: the turn goes to it, and
    // this message resumes after its answer (`applySellerAnswer`, `applyClientAnswer`), which also
    // records the call.
    const pause = (awaiting: AwaitedOffer | null): EpisodeState => ({
      ...state,
      shown,
      viewed,
      steps,
      invalidStreak: 0,
      invalidCalls,
      trajectory,
      negotiations,
      client,
      end: null,
      open: { ...open, next: i + 1, executed, awaiting },
    });
    if (ran.askClient !== undefined && client) {
      const asked = clientAsked(client, steps, ran.askClient, [...index.places]);
      client = asked.client;
      if (asked.kind === "ask") return pause(null);
      ran = {
        result:
          asked.kind === "ended"
            ? { kind: "client-left" }
            : { kind: "client", text: asked.text, machine: true },
        ok: true,
      };
    }
    if (ran.newlyShown && ran.newlyShown.length > 0) {
      shown = [...shown, ...ran.newlyShown];
      for (const s of ran.newlyShown) shownIds.add(s.id);
    }
    if (ran.viewed !== undefined) viewed = [...viewed, ran.viewed];
    if (ran.awaiting) return pause(ran.awaiting);
    if (ran.negotiation) negotiations = replaceNegotiation(negotiations, ran.negotiation);
    executed.push({ call: { tool: call.tool, args: call.args }, result: ran.result, step: steps });
    trajectory.push({
      step: steps,
      turn: turnNumber,
      tool: call.tool,
      args: call.args,
      ok: ran.ok,
      summary: summarize(ran.result, index),
    });
    if (!ran.ok) {
      invalidCalls++;
      invalidStreak++;
      if (invalidStreak >= maxInvalid) {
        end = invalidEnd(open, call, ran.result, maxInvalid);
        continue;
      }
    } else {
      invalidStreak = 0;
      end = endOfResult(ran.result);
      if (end) continue;
    }
    if (steps >= maxSteps)
      end = { reason: "out-of-steps", bookedId: null, giveUpReason: null, nonResponse: null };
  }
  const turn: ShopTurn = { mode: open.mode, text: open.text, calls: executed };
  return {
    turns: [...state.turns, turn],
    shown,
    viewed,
    steps,
    invalidStreak,
    invalidCalls,
    trajectory,
    end,
    negotiations,
    open: null,
    client,
  };
}

/** The end a call that ran brings: a booking, a give-up, the client leaving; null for any other. */
function endOfResult(result: ToolResult): EpisodeEnd | null {
  const none = { bookedId: null, giveUpReason: null, nonResponse: null };
  switch (result.kind) {
    case "booked":
      return { ...none, reason: "booked", bookedId: result.id };
    case "gave-up":
      return { ...none, reason: "gave-up", giveUpReason: result.reason };
    case "client-left":
      return { ...none, reason: "client-ended" };
    default:
      return null;
  }
}

/** The invalid-call limit reached on `call`: a non-response with the last problem and what was sent. */
function invalidEnd(open: OpenMessage, call: TextCall, result: ToolResult, maxInvalid: number): EpisodeEnd {
  const raw = open.mode === "text" ? (open.text ?? "") : rawCall(call);
  const why = result.kind === "error" ? result.message : "invalid call";
  return {
    reason: "invalid",
    bookedId: null,
    giveUpReason: null,
    nonResponse: { reason: `${maxInvalid} invalid calls in a row (last: ${why})`, raw },
  };
}

function replaceNegotiation(all: readonly NegotiationState[], n: NegotiationState): NegotiationState[] {
  const i = all.findIndex((x) => x.id === n.id);
  return i < 0 ? [...all, n] : all.map((x, j) => (j === i ? n : x));
}

/** An agent that failed to answer (an error after the agent layer's retries) ends the episode. */
export function applyAgentError(state: EpisodeState, error: string): EpisodeState {
  return {
    ...state,
    end: {
      reason: "agent-error",
      bookedId: null,
      giveUpReason: null,
      nonResponse: { reason: `agent error: ${error}`, raw: "" },
    },
  };
}

function viewedFlags(state: EpisodeState): ShownListing[] {
  if (state.viewed.length === 0) return state.shown;
  const opened = new Set(state.viewed);
  return state.shown.map((s) => (opened.has(s.id) ? { ...s, viewed: true } : s));
}

export function outcomeOf(state: EpisodeState, task?: ShopTask): ShopOutcome {
  const end = state.end ?? { reason: "out-of-steps", bookedId: null, giveUpReason: null, nonResponse: null };
  const offers = task?.rules.offers
    ? (() => {
        const negotiations = state.negotiations.map((n) => publicNegotiation(n, task));
        const booked = end.bookedId === null ? undefined : taskIndex(task).byId.get(end.bookedId);
        return {
          negotiations,
          paid: booked ? bookedPrice(booked, state.negotiations) : null,
          deadlock: isDeadlock(end.reason, state.negotiations),
        };
      })()
    : {};
  const c = state.client;
  return {
    endReason: end.reason,
    bookedId: end.bookedId,
    giveUpReason: end.giveUpReason,
    steps: state.steps,
    turns: state.turns.length,
    invalidCalls: state.invalidCalls,
    shown: viewedFlags(state),
    trajectory: state.trajectory,
    nonResponse: end.nonResponse,
    ...offers,
    ...(c
      ? {
          client: {
            by: c.by,
            persona: c.persona?.name ?? "terse",
            patience: c.persona?.patience ?? 0,
            opening: c.conversation[0]?.text ?? "",
            conversation: c.conversation,
            patienceOut: c.patienceOut,
          },
        }
      : {}),
  };
}
