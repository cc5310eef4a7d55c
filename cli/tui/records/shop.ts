/**
 * Shop episodes (`env: "shop"`, environments/shop/record.ts) as the terminal shows them: the
 * request with its constraints, each tool call with a one-line result, and the booked listing with
 * ✓/✗ per constraint; in a design with offers, every negotiation with its price ladder (each
 * listing's seller, list price, the buyer's cap and the seller's private cost). `ShopRecordSchema`
 * is the only place that names record fields.
 */
import { z } from "zod";
import { formatPrice } from "../../../environments/choice/prompt.ts";
import { formatUsd } from "../../../environments/kernel/money.ts";
import { emptyUsage } from "../../../environments/kernel/types.ts";
import { SHOP_CLIENT } from "../../../environments/shop/client/types.ts";
import { requirementLines } from "../../../environments/shop/prompt.ts";
import { shopTrialRecord } from "../../../environments/shop/record.ts";
import {
  applyAgentError,
  applyClientAnswer,
  applyClientOpening,
  applyMessage,
  applySellerAnswer,
  type EpisodeState,
  initialState,
  outcomeOf,
} from "../../../environments/shop/rules.ts";
import { SHOP_SHOPPER, type ShopTask } from "../../../environments/shop/types.ts";
import { count, pct, usd } from "../format.ts";
import type { BargainMessage } from "./bargain.ts";
import {
  clientCue,
  clientModel,
  clientPlainHeader,
  interleave,
  messagePlainLines,
  type ShopClientModel,
  scorePlainLines,
} from "./shop-client.ts";
import {
  agentErrorOf,
  type EnvAdapter,
  type EpisodeBase,
  type EpisodeSummary,
  type LiveEpisodeState,
  nonResponseOf,
  str,
  type TrialRecord,
} from "./types.ts";

const NegotiationMoveSchema = z.looseObject({
  step: z.number().int(),
  side: z.enum(["buyer", "seller"]),
  move: z.string(),
  price: z.number().nullable(),
  message: z.string().optional(),
  answer: z.string().optional(),
});

const NegotiationSchema = z.looseObject({
  id: z.string(),
  seller: z.string(),
  listPrice: z.number(),
  cost: z.number(),
  cap: z.number().nullable(),
  offers: z.array(NegotiationMoveSchema),
  deal: z.number().nullable(),
  closed: z.boolean(),
  sellerInvalid: z.number(),
});

const ShopRecordSchema = z.looseObject({
  seq: z.number().int(),
  agent: z.string(),
  taskId: z.string(),
  family: z.string(),
  request: z.looseObject({
    constraints: z.object({
      maxPrice: z.number().nullable(),
      minStars: z.number().nullable(),
      areas: z.array(z.string()).nullable(),
      amenities: z.array(z.enum(["free_cancellation", "breakfast"])),
    }),
    wishes: z.array(z.string()).optional(),
  }),
  booked: z
    .looseObject({
      id: z.string(),
      name: z.string(),
      price: z.number(),
      stars: z.number(),
      area: z.string(),
      page: z.number(),
      rank: z.number(),
    })
    .nullable(),
  endReason: z.string(),
  success: z.boolean(),
  constraints: z.record(z.string(), z.boolean()).nullable(),
  admissibleCount: z.number(),
  cheapestAdmissible: z.number().nullable(),
  shown: z.array(
    z.looseObject({ id: z.string().optional(), name: z.string().optional(), viewed: z.boolean() }),
  ),
  trajectory: z.array(
    z.looseObject({
      step: z.number().nullable(),
      turn: z.number(),
      tool: z.string(),
      args: z.unknown(),
      ok: z.boolean(),
      summary: z.string(),
    }),
  ),
  giveUpReason: z.string().nullable().optional(),
  nonResponse: z.object({ reason: z.string(), raw: z.string() }).nullable().optional(),
  // A design with offers only (a plain shop's records have none of the three).
  negotiations: z.array(NegotiationSchema).optional(),
  /** Who plays each seller role (the replay adds it from the run's design). */
  roleNames: z.record(z.string(), z.string()).optional(),
  paid: z.number().nullable().optional(),
  deadlock: z.boolean().optional(),
});

export interface ShopCallLine {
  step: number | null;
  turn: number;
  tool: string;
  /** The arguments as one line of JSON. */
  args: string;
  ok: boolean;
  summary: string;
}

/** One move of a negotiation: the shopper's offer (with how it was answered) or the seller's move. */
export interface ShopMoveLine {
  /** The shopper's tool call (step) the move belongs to. */
  step: number;
  side: "buyer" | "seller";
  /** offer, accept, counter, reject, quit, invalid. */
  move: string;
  price: number | null;
  message: string;
  /** On the shopper's offer: accept, counter, reject, quit, invalid, or deal (its own counter met). */
  answer: string | null;
}

/** One listing's negotiation as the panel shows it. */
export interface ShopNegotiationModel {
  id: string;
  /** The listing's name ("" when the record does not carry it). */
  name: string;
  /** The seller negotiator's role (`seller-1`, …). */
  seller: string;
  listPrice: number;
  /** The seller's private cost C: the watcher sees it, the shopper does not. */
  cost: number;
  /** The request's price cap (the buyer's budget B), null when it has none. */
  cap: number | null;
  moves: ShopMoveLine[];
  /**
   * The moves as the bargaining ladder draws them, one message per move (same order): a round is
   * one offer of the shopper and the seller's answer, in one column.
   */
  ladder: BargainMessage[];
  deal: number | null;
  closed: boolean;
  sellerInvalid: number;
  /** The listing the episode booked. */
  booked: boolean;
  /** In flight: an offer sent to the seller, whose answer has not come yet. */
  pending: { step: number; price: number } | null;
}

export interface ShopEpisodeModel extends EpisodeBase {
  kind: "shop";
  taskId: string;
  family: string;
  /** The request's requirement lines ("- Price: at most $250 a night", …) and wishes. */
  request: string[];
  calls: ShopCallLine[];
  endReason: string;
  success: boolean;
  booked: {
    id: string;
    name: string;
    price: number;
    stars: number;
    area: string;
    page: number;
    rank: number;
    /** Per constraint of the request: whether the booking meets it. */
    checks: { label: string; met: boolean }[];
  } | null;
  giveUpReason: string | null;
  nonResponse: { reason: string; raw: string } | null;
  admissibleCount: number;
  cheapestAdmissible: number | null;
  shown: number;
  viewed: number;
  /** A design with offers: every negotiation, in the order of each listing's first offer; null in a plain shop. */
  negotiations: ShopNegotiationModel[] | null;
  /** With offers: the nightly price paid (the agreed price where there was a deal); null without a booking. */
  paid: number | null;
  /** With offers: out of steps while a negotiation was open. */
  deadlock: boolean;
  /** In flight: what the episode waits for ("seller-2 is answering an offer of $180 to L07"). */
  waiting: string | null;
  /** With a client: who played it, the conversation, the score; null in a shop without one. */
  client: ShopClientModel | null;
}

const CHECK_LABELS: Readonly<Record<string, string>> = {
  price: "price cap",
  stars: "min stars",
  area: "area",
  amenities: "amenities",
};

function oneLine(args: unknown): string {
  try {
    return JSON.stringify(args) ?? "";
  } catch {
    return String(args);
  }
}

/** The paper's action names for a move, so the ladder marks it as the bargaining view does. */
function ladderAction(m: ShopMoveLine): string {
  if (m.side === "buyer") return m.answer === "deal" ? "DEAL" : "BUY";
  if (m.move === "accept") return "DEAL";
  if (m.move === "counter") return "SELL";
  return m.move.toUpperCase();
}

/** Each buyer offer opens a round; the seller's answer shares its column. */
function ladderOf(moves: readonly ShopMoveLine[]): BargainMessage[] {
  let round = 0;
  return moves.map((m) => {
    if (m.side === "buyer") round++;
    return {
      turn: Math.max(1, round),
      role: m.side,
      action: ladderAction(m),
      price: m.move === "offer" || m.move === "accept" || m.move === "counter" ? m.price : null,
      talk: m.message,
    };
  });
}

type RecordNegotiation = z.infer<typeof NegotiationSchema>;

function negotiationModels(
  list: readonly RecordNegotiation[],
  names: ReadonlyMap<string, string>,
  bookedId: string | null,
  roleNames?: Readonly<Record<string, string>>,
): ShopNegotiationModel[] {
  return list.map((n) => {
    const moves: ShopMoveLine[] = n.offers.map((m) => ({
      step: m.step,
      side: m.side,
      move: m.move,
      price: m.price,
      message: m.message ?? "",
      answer: m.answer ?? null,
    }));
    return {
      id: n.id,
      name: names.get(n.id) ?? "",
      // The negotiator's spec where the run names it (replay), else its role.
      seller: roleNames?.[n.seller] ? `${roleNames[n.seller]} (${n.seller})` : n.seller,
      listPrice: n.listPrice,
      cost: n.cost,
      cap: n.cap,
      moves,
      ladder: ladderOf(moves),
      deal: n.deal,
      closed: n.closed,
      sellerInvalid: n.sellerInvalid,
      booked: bookedId === n.id,
      pending: null,
    };
  });
}

function shopModel(r: TrialRecord): ShopEpisodeModel | { mismatch: string } {
  const p = ShopRecordSchema.safeParse(r);
  if (!p.success) {
    const i = p.error.issues[0];
    return { mismatch: `shop record field ${i?.path.join(".") || "?"}: ${i?.message ?? "unreadable"}` };
  }
  const s = p.data;
  const wishes = s.request.wishes ?? [];
  const names = new Map(s.shown.flatMap((x) => (x.id && x.name ? [[x.id, x.name] as const] : [])));
  return {
    kind: "shop",
    seq: s.seq,
    agent: s.agent,
    env: "shop",
    steps: Math.max(1, s.trajectory.length),
    taskId: s.taskId,
    family: s.family,
    request: [
      ...requirementLines(s.request.constraints),
      ...(wishes.length > 0 ? [`Nice to have: ${wishes.join("; ")}`] : []),
    ],
    calls: s.trajectory.map((t) => ({ ...t, args: oneLine(t.args) })),
    endReason: s.endReason,
    success: s.success,
    booked: s.booked
      ? {
          id: s.booked.id,
          name: s.booked.name,
          price: s.booked.price,
          stars: s.booked.stars,
          area: s.booked.area,
          page: s.booked.page,
          rank: s.booked.rank,
          checks: Object.entries(s.constraints ?? {}).map(([k, met]) => ({
            label: CHECK_LABELS[k] ?? k,
            met,
          })),
        }
      : null,
    giveUpReason: s.giveUpReason ?? null,
    nonResponse: s.nonResponse ?? null,
    admissibleCount: s.admissibleCount,
    cheapestAdmissible: s.cheapestAdmissible,
    shown: s.shown.length,
    viewed: s.shown.filter((x) => x.viewed).length,
    negotiations: s.negotiations
      ? negotiationModels(s.negotiations, names, s.booked?.id ?? null, s.roleNames)
      : null,
    paid: s.paid ?? null,
    deadlock: s.deadlock ?? false,
    waiting: null,
    client: r.client === undefined ? null : clientModel(r, listingNames(r, names), s.request.constraints),
  };
}

/** Listing names by id: those shown, and every admissible one (the best admissible may never have been shown). */
function listingNames(r: TrialRecord, shown: ReadonlyMap<string, string>): Map<string, string> {
  const names = new Map(shown);
  for (const l of Array.isArray(r.admissible) ? (r.admissible as { id?: unknown; name?: unknown }[]) : [])
    if (typeof l.id === "string" && typeof l.name === "string") names.set(l.id, l.name);
  return names;
}

function isShopTask(task: unknown): task is ShopTask {
  const t = task as Partial<ShopTask> | null;
  return (
    typeof t === "object" &&
    t !== null &&
    t.env === "shop" &&
    Array.isArray(t.listings) &&
    typeof t.rules === "object" &&
    typeof t.request === "object"
  );
}

/** Whether a turn is the client's (its opening, or its reply to the message it was asked), as the machine decides. */
function clientTurn(state: EpisodeState, role: string): boolean {
  const c = state.client;
  return role === SHOP_CLIENT && c !== null && (c.persona === null || c.asking !== null);
}

/** The episode so far: its turns replayed through the shop's rules, each handed to whoever's turn it was (machine.ts). */
function replayTurns(turns: readonly LiveEpisodeState["turns"][number][], task: ShopTask): EpisodeState {
  let state: EpisodeState = initialState(task);
  for (const t of turns) {
    const seller = t.role !== SHOP_SHOPPER && state.open?.awaiting?.seller === t.role;
    if (seller) state = applySellerAnswer(state, t.error === undefined ? t.action : null, task, t.error);
    else if (clientTurn(state, t.role) && state.client?.persona === null && t.error === undefined)
      state = applyClientOpening(state, t.action, task);
    else if (clientTurn(state, t.role) && state.client?.persona !== null)
      state = applyClientAnswer(state, t.error === undefined ? t.action : null, task, t.error);
    else if (t.error !== undefined) state = applyAgentError(state, t.error);
    else state = applyMessage(state, t.action, task);
  }
  return state;
}

/** The client of an episode in flight: no score yet (its regret would be that of giving up now). */
function liveClient(
  m: ShopClientModel,
  c: NonNullable<EpisodeState["client"]>,
  agent: string,
): ShopClientModel {
  // Before its opening the rules know neither who plays the client nor its persona; the label
  // ("<shopper> for <client>") says who.
  const by = c.by || agent.split(" for ").at(-1) || "the client";
  return {
    ...m,
    by,
    persona: c.persona?.name ?? "",
    patience: c.persona?.patience ?? m.patience,
    shopper: agent.endsWith(` for ${by}`) ? agent.slice(0, -` for ${by}`.length) : m.shopper,
    score: null,
    answering: c.asking?.step ?? null,
  };
}

/** What an episode in flight waits for, in words. */
function waitingFor(state: EpisodeState): string | null {
  const w = state.open?.awaiting;
  if (w) return `${w.seller} is answering an offer of ${formatUsd(w.price)} to ${w.id}`;
  const c = state.client;
  if (c && c.persona === null) return "the client is writing its opening";
  if (c?.asking) return `the client is answering the message of call ${c.asking.step}`;
  return null;
}

/**
 * An episode in flight: its turns so far replayed through the shop's own rules (the machine's
 * steps, as pure functions), so the calls, their results, every negotiation and the conversation
 * with the client are exactly what the episode has — with the offer its seller is still answering
 * marked pending, and the message the client is still answering drawn without its reply.
 */
function shopLive(e: LiveEpisodeState, task: unknown): ShopEpisodeModel | { mismatch: string } {
  if (!isShopTask(task)) return { mismatch: "no shop task for this episode" };
  // A plain shop's episodes in flight keep the generic list of turns they always had.
  if (!task.rules.offers && !task.client) return { mismatch: "a plain shop lists its turns" };
  let state: EpisodeState;
  try {
    state = replayTurns(e.turns, task);
  } catch (err) {
    // Turns the rules refuse (a store written by another version): the generic list shows them.
    return {
      mismatch: `the turns so far do not replay: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  const record = shopTrialRecord({
    run: "",
    trialKey: "",
    seq: e.seq,
    agent: e.agent,
    replicate: 0,
    task,
    outcome: outcomeOf(state, task),
    usage: emptyUsage(),
  });
  const m = shopModel(record as unknown as TrialRecord);
  if ("mismatch" in m) return m;
  const w = state.open?.awaiting ?? null;
  const negotiations = m.negotiations ?? (task.rules.offers ? [] : null);
  if (w && negotiations) {
    const i = negotiations.findIndex((n) => n.id === w.id);
    // The first offer to this listing opens its negotiation in the view before the seller answers.
    const n: ShopNegotiationModel = negotiations[i] ?? {
      id: w.id,
      name: task.listings.find((l) => l.id === w.id)?.name ?? "",
      seller: w.seller,
      listPrice: w.listPrice,
      cost: w.cost,
      cap: w.cap,
      moves: [],
      ladder: [],
      deal: null,
      closed: false,
      sellerInvalid: 0,
      booked: false,
      pending: null,
    };
    // The offer is made: the ladder draws it in a round of its own, its answer to come.
    const round = n.moves.filter((m) => m.side === "buyer").length + 1;
    const drawn: ShopNegotiationModel = {
      ...n,
      pending: { step: w.step, price: w.price },
      ladder: [...n.ladder, { turn: round, role: "buyer", action: "BUY", price: w.price, talk: w.message }],
    };
    if (i >= 0) negotiations[i] = drawn;
    else negotiations.push(drawn);
  }
  return {
    ...m,
    live: true,
    // The outcome of an episode not yet over reads "out of steps"; only a real end says deadlock.
    deadlock: state.end ? m.deadlock : false,
    negotiations: task.rules.offers ? negotiations : null,
    waiting: waitingFor(state),
    // Not over: no score yet (its regret would be that of giving up now).
    client: m.client && state.client ? liveClient(m.client, state.client, e.agent) : null,
  };
}

/** "booked $249 ✓", "booked $310 ✗", "gave up ✓", "out of steps", "invalid". */
export function shopOutcomeLabel(endReason: string, success: boolean, price: number | null): string {
  const mark = success ? "✓" : "✗";
  if (endReason === "booked") return `booked ${price === null ? "" : `${formatPrice(price)} `}${mark}`;
  if (endReason === "gave-up") return `gave up ${mark}`;
  return endReason.replaceAll("-", " ");
}

/**
 * "2 negotiations, 1 deal" — a design with offers only (plain records have no negotiations). Short:
 * it ends a list line, and the outcome beside it already says what was paid.
 */
function negotiationDetail(r: TrialRecord): string {
  if (!Array.isArray(r.negotiations)) return "";
  const list = r.negotiations as { deal?: unknown }[];
  if (list.length === 0) return " · no offer";
  const deals = list.filter((n) => typeof n.deal === "number").length;
  return ` · ${list.length} negotiation${list.length === 1 ? "" : "s"}, ${deals} deal${deals === 1 ? "" : "s"}${r.deadlock === true ? ", deadlock" : ""}`;
}

function shopSummary(r: TrialRecord): EpisodeSummary {
  const booked = r.booked as { name?: unknown; price?: unknown } | null | undefined;
  const reason = nonResponseOf(r)?.reason ?? null;
  const endReason = str(r, "endReason");
  const trajectory = Array.isArray(r.trajectory) ? r.trajectory.length : 0;
  // With offers, what was paid (an agreed price) rather than the list price.
  const price = typeof r.paid === "number" ? r.paid : typeof booked?.price === "number" ? booked.price : null;
  const cue = clientCue(r);
  return {
    seq: Number(r.seq),
    agent: str(r, "agent"),
    outcome: shopOutcomeLabel(endReason, r.success === true, price),
    // With a client, what it cost the client comes first: a list line ends where the terminal does.
    detail: `${cue ? `${cue} · ` : ""}${str(r, "family")} · ${typeof booked?.name === "string" ? booked.name : (reason ?? str(r, "giveUpReason"))} · ${trajectory} calls${negotiationDetail(r)}`,
    nonResponse: endReason === "invalid" || endReason === "agent-error",
    steps: Math.max(1, trajectory),
    error: agentErrorOf(reason),
  };
}

export interface ShopStats {
  episodes: number;
  successes: number;
  invalid: number;
  calls: number;
  bookings: number;
  rankOne: number;
  byFamily: Record<string, { n: number; ok: number }>;
  /** Episodes with a client: how many, their regret and messages summed, those with a client fault. */
  client: { n: number; regret: number; messages: number; faulted: number };
}

export const shopAdapter: EnvAdapter<ShopEpisodeModel, ShopStats> = {
  env: "shop",
  model: shopModel,
  live: shopLive,
  summary: shopSummary,
  status: (r) => ({
    nonResponse: r.endReason === "invalid" || r.endReason === "agent-error",
    error: agentErrorOf(nonResponseOf(r)?.reason),
  }),
  stats: {
    init: () => ({
      episodes: 0,
      successes: 0,
      invalid: 0,
      calls: 0,
      bookings: 0,
      rankOne: 0,
      byFamily: {},
      client: { n: 0, regret: 0, messages: 0, faulted: 0 },
    }),
    add(s, r) {
      s.episodes++;
      if (r.success === true) s.successes++;
      if (r.endReason === "invalid") s.invalid++;
      if (typeof r.steps === "number") s.calls += r.steps;
      const b = r.booked as { page?: unknown; rank?: unknown } | null | undefined;
      if (b) {
        s.bookings++;
        if (b.page === 1 && b.rank === 1) s.rankOne++;
      }
      const f = String(r.family ?? "?");
      const g = s.byFamily[f] ?? { n: 0, ok: 0 };
      s.byFamily[f] = g;
      g.n++;
      if (r.success === true) g.ok++;
      if (r.client !== undefined && typeof r.regret === "number") {
        s.client.n++;
        s.client.regret += r.regret;
        const b = r.burden as { messages?: unknown } | undefined;
        if (typeof b?.messages === "number") s.client.messages += b.messages;
        if (Array.isArray(r.clientFaults) && r.clientFaults.length > 0) s.client.faulted++;
      }
    },
    clone: (s) => ({
      ...s,
      client: { ...s.client },
      byFamily: Object.fromEntries(Object.entries(s.byFamily).map(([k, v]) => [k, { ...v }])),
    }),
    view: (s) => ({
      title: "running shop success",
      lines: [
        {
          label: "success",
          value: `${pct(s.successes / s.episodes)} of ${count(s.episodes)} episodes (${count(s.invalid)} invalid)`,
        },
        {
          label: "by family",
          value:
            Object.entries(s.byFamily)
              .map(([f, g]) => `${f} ${pct(g.ok / g.n)}`)
              .join(" · ") || "—",
        },
        {
          label: "search",
          value: `${(s.calls / s.episodes || 0).toFixed(1)} calls per episode · rank 1 booked ${pct(s.rankOne / s.bookings)}`,
        },
        // With a client, what it cost the client (a plain shop's panel is as it was).
        ...(s.client.n > 0
          ? [
              {
                label: "client",
                value: `regret ${usd(s.client.regret / s.client.n)} a night · ${(s.client.messages / s.client.n).toFixed(1)} messages · ${count(s.client.faulted)} with a client fault`,
              },
            ]
          : []),
      ],
    }),
  },
  // The stored outcome is the environment's ShopOutcome and the family is part of the task, so
  // SQLite finds the matches.
  facets: [
    {
      key: "outcome",
      hotkey: "o",
      label: "ending",
      values: ["booked", "gave-up", "out-of-steps", "invalid", "agent-error"].map((v) => ({
        value: v,
        label: v,
        conditions: [{ json: "result" as const, path: "$.outcome.endReason", op: "=" as const, value: v }],
      })),
    },
    {
      // `kind` so that `bazaar watch --kind needle` picks a task family.
      key: "kind",
      hotkey: "k",
      label: "family",
      values: ["open", "dominance", "needle", "infeasible"].map((v) => ({
        value: v,
        label: v,
        conditions: [{ json: "task" as const, path: "$.family", op: "=" as const, value: v }],
      })),
    },
  ],
};

/**
 * A negotiation's status in words: the deal, the seller's quit, still open, or — once the episode
 * is over — a deadlock (it ran out of steps with this one open) or no deal.
 */
export function negotiationStatus(
  n: Pick<ShopNegotiationModel, "deal" | "closed" | "booked">,
  o: { over: boolean; deadlock: boolean },
): string {
  if (n.deal !== null) return `deal ${formatUsd(n.deal)}${n.booked ? " · booked" : ""}`;
  if (n.closed) return "closed by the seller";
  if (!o.over) return "open";
  return o.deadlock ? "deadlock" : "no deal";
}

/** A move in a few words: "#3 offer $150 → counter $230". */
function movePlain(m: ShopMoveLine): string {
  const price = m.price === null ? "" : ` ${formatUsd(m.price)}`;
  const said = m.message ? ` “${m.message}”` : "";
  return m.side === "buyer" ? `#${m.step} buyer offers${price}${said}` : `   seller ${m.move}${price}${said}`;
}

/** The episode in full as plain lines (`watch` without a terminal): request, every call, the outcome. */
export function shopPlainLines(m: ShopEpisodeModel): string[] {
  const out = [`task ${m.taskId} · ${m.family}`];
  if (m.client) out.push(...clientPlainHeader(m.client), "hidden requirements (the client's own):");
  out.push(...m.request);
  const callLine = (c: ShopCallLine) =>
    `${c.step === null ? "not run" : `call ${c.step}`} (message ${c.turn}): ${c.tool || "(no call)"}(${c.args}) → ${c.summary}`;
  if (m.client)
    for (const item of interleave(m.calls, m.client.messages)) {
      if (item.kind === "message") out.push(...messagePlainLines(item.message));
      // A message to the client is its text and the reply, below: the call line says no more.
      else if (item.messages.length > 0)
        out.push(
          `call ${item.call.step} (message ${item.call.turn}): ${item.call.tool}`,
          ...item.messages.flatMap(messagePlainLines),
          ...(item.call.summary.startsWith("the client ended") ? [`  ${item.call.summary}`] : []),
        );
      else out.push(callLine(item.call));
    }
  else for (const c of m.calls) out.push(callLine(c));
  for (const n of m.negotiations ?? []) {
    out.push(
      `negotiation ${n.id}${n.name ? ` ${n.name}` : ""} · ${n.seller} · list ${formatUsd(n.listPrice)} · cap ${n.cap === null ? "none" : formatUsd(n.cap)} · cost ${formatUsd(n.cost)}`,
      ...n.moves.map(movePlain),
      `   ${negotiationStatus(n, { over: !m.live, deadlock: m.deadlock })}${n.sellerInvalid > 0 ? ` · ${n.sellerInvalid} unreadable seller answer${n.sellerInvalid === 1 ? "" : "s"}` : ""}`,
    );
  }
  const b = m.booked;
  if (b)
    out.push(
      `booked ${b.id} ${b.name} · ${formatPrice(b.price)}${m.paid !== null && m.paid !== b.price ? ` (paid ${formatUsd(m.paid)} by a deal)` : ""} · ${b.stars}★ · ${b.area} (page ${b.page}, rank ${b.rank}) · ${b.checks.map((c) => `${c.label} ${c.met ? "met" : "NOT met"}`).join(", ") || "no hard constraint"}`,
    );
  else
    out.push(
      `${m.endReason}${m.giveUpReason ? `: ${m.giveUpReason}` : ""}${m.nonResponse ? `: ${m.nonResponse.reason}` : ""}`,
    );
  out.push(`${m.success ? "success" : "failure"} · ${m.admissibleCount} admissible in the catalog`);
  if (m.client?.score) out.push(...scorePlainLines(m.client.score));
  if (m.live && m.waiting) out.push(`in progress: ${m.waiting}`);
  return out;
}
