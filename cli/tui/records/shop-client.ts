/**
 * The client of a shop episode (specs/client.md) as the terminal shows it: who played it and its
 * persona, every message of the conversation in order (the opening first, at step 0; each later
 * one at the shopper's step it belongs to), the auditor's faults on the reply that has them, and
 * the finished episode's score — surplus, the best admissible listing, regret, the hidden
 * requirements uncovered or met by luck, burden. Records without a client have none of these
 * fields and get `null`. This module names the record's client fields; nothing else does.
 */
import { z } from "zod";
import { formatPrice } from "../../../environments/choice/prompt.ts";
import { orList } from "../../../environments/shop/areas.ts";
import { AMENITY_LABEL } from "../../../environments/shop/prompt.ts";
import { usd } from "../format.ts";
import type { TrialRecord } from "./types.ts";

const FaultSchema = z.looseObject({ kind: z.string(), detail: z.string() });

const MessageSchema = z.looseObject({
  step: z.number().int(),
  from: z.enum(["agent", "client"]),
  text: z.string(),
  topics: z.array(z.string()),
  machine: z.boolean().optional(),
  faults: z.array(FaultSchema).optional(),
});

/** The client fields of a shop record: all absent in a shop without a client. */
export const ClientFieldsSchema = z.looseObject({
  client: z
    .looseObject({
      spec: z.string(),
      persona: z.string(),
      patience: z.number(),
      opening: z.string(),
    })
    .optional(),
  shopper: z.string().optional(),
  conversation: z.array(MessageSchema).optional(),
  surplus: z.number().optional(),
  bestAdmissible: z.looseObject({ id: z.string(), surplus: z.number() }).nullable().optional(),
  regret: z.number().optional(),
  uncovered: z
    .looseObject({
      hidden: z.array(z.string()),
      learned: z.array(z.string()),
      metByLuck: z.array(z.string()),
    })
    .optional(),
  burden: z.looseObject({ messages: z.number(), repeats: z.number(), patienceOut: z.boolean() }).optional(),
  clientFaults: z.array(z.looseObject({ step: z.number(), kind: z.string(), detail: z.string() })).optional(),
});
type ClientFields = z.infer<typeof ClientFieldsSchema>;

/** One message of the conversation as the view draws it. */
export interface ShopMessage {
  /** The shopper's step (tool call) it belongs to; 0 for the client's opening. */
  step: number;
  /** `machine`: the machine's line once the client's patience ran out, said in the client's place. */
  from: "agent" | "client" | "machine";
  text: string;
  /** The auditor's findings on a client's reply (kind and what it read). */
  faults: { kind: string; detail: string }[];
}

/** What the finished episode was worth to the client, and what it cost it. */
export interface ShopClientScore {
  /** The outcome's surplus, dollars a night (0 without an acceptable booking). */
  surplus: number;
  /** The admissible listing the client would have liked best; null when nothing is admissible. */
  best: { id: string; name: string; surplus: number } | null;
  regret: number;
  /** The hidden requirements, each ("price ≤ $260") with how the episode went on it. */
  requirements: { topic: string; label: string; status: "learned" | "met by luck" | "not learned" }[];
  messages: number;
  repeats: number;
  patienceOut: boolean;
  faults: number;
}

export interface ShopClientModel {
  /** Who played the client: its spec (`sim:terse`, `openai:gpt-4o-mini`). */
  by: string;
  persona: string;
  patience: number;
  /** The shopper's own label (the episode's agent is "<shopper> for <client>"). */
  shopper: string;
  /** Every message in order, the opening first. */
  messages: ShopMessage[];
  /** Null in flight: an episode not over has no score yet. */
  score: ShopClientScore | null;
  /** In flight: the step of the message the client is answering now. */
  answering: number | null;
}

/** A topic in words: "free cancellation", "breakfast included", "price". */
export function topicLabel(topic: string): string {
  return (AMENITY_LABEL as Readonly<Record<string, string>>)[topic] ?? topic.replaceAll("_", " ");
}

function messagesOf(conversation: NonNullable<ClientFields["conversation"]>): ShopMessage[] {
  return conversation.map((m) => ({
    step: m.step,
    from: m.from === "client" && m.machine === true ? "machine" : m.from,
    text: m.text,
    faults: (m.faults ?? []).map((f) => ({ kind: f.kind, detail: f.detail })),
  }));
}

/** The hidden constraints as the record keeps them (`request.constraints`). */
export interface HiddenConstraints {
  maxPrice: number | null;
  minStars: number | null;
  areas: string[] | null;
  amenities: string[];
}

/** A hidden requirement in a few words: "price ≤ $260", "≥ 3★", "Midtown or Uptown", "breakfast included". */
export function requirementLabel(topic: string, c: HiddenConstraints | null): string {
  if (topic === "price" && c?.maxPrice != null) return `price ≤ ${formatPrice(c.maxPrice)}`;
  if (topic === "stars" && c?.minStars != null) return `≥ ${c.minStars}★`;
  if (topic === "area" && c?.areas) return orList(c.areas);
  return topicLabel(topic);
}

function scoreOf(
  f: ClientFields,
  names: ReadonlyMap<string, string>,
  constraints: HiddenConstraints | null,
): ShopClientScore | null {
  if (f.regret === undefined || f.surplus === undefined || !f.uncovered || !f.burden) return null;
  const { hidden, learned, metByLuck } = f.uncovered;
  const best = f.bestAdmissible ?? null;
  return {
    surplus: f.surplus,
    best: best ? { id: best.id, name: names.get(best.id) ?? "", surplus: best.surplus } : null,
    regret: f.regret,
    requirements: hidden.map((topic) => ({
      topic,
      label: requirementLabel(topic, constraints),
      status: learned.includes(topic) ? "learned" : metByLuck.includes(topic) ? "met by luck" : "not learned",
    })),
    messages: f.burden.messages,
    repeats: f.burden.repeats,
    patienceOut: f.burden.patienceOut,
    faults: f.clientFaults?.length ?? 0,
  };
}

/**
 * The client of a record, or null without one. `names`: listing names by id (the record's
 * admissible and shown listings), so the best admissible listing is named.
 */
export function clientModel(
  r: TrialRecord,
  names: ReadonlyMap<string, string>,
  constraints: HiddenConstraints | null,
): ShopClientModel | null {
  const p = ClientFieldsSchema.safeParse(r);
  if (!p.success || !p.data.client) return null;
  const f = p.data;
  const c = f.client!;
  const agent = typeof r.agent === "string" ? r.agent : "";
  return {
    by: c.spec,
    persona: c.persona,
    patience: c.patience,
    shopper: f.shopper ?? agent,
    messages: messagesOf(f.conversation ?? [{ step: 0, from: "client", text: c.opening, topics: [] }]),
    score: scoreOf(f, names, constraints),
    answering: null,
  };
}

/** "client sim:faulty (terse persona, patience 6)": who the shopper works for. */
export function clientLine(c: ShopClientModel): string {
  return `client ${c.by} (${c.persona ? `${c.persona} persona, patience ${c.patience}` : "persona not yet known"})`;
}

/** A call, or a message of the conversation, in the order the episode had them. */
export type ShopStreamItem<C> =
  | { kind: "call"; call: C; messages: ShopMessage[] }
  | { kind: "message"; message: ShopMessage };

/**
 * The calls and the conversation in one order: the opening first, then each call followed by the
 * messages of its step (a message to the client and its reply). A call that carried a message
 * keeps it in `messages` (the view draws the message in the call's place); messages of a step
 * with no call yet (in flight: the message the client is answering) come last.
 */
export function interleave<C extends { step: number | null }>(
  calls: readonly C[],
  messages: readonly ShopMessage[],
): ShopStreamItem<C>[] {
  const byStep = new Map<number, ShopMessage[]>();
  for (const m of messages) {
    const list = byStep.get(m.step) ?? [];
    list.push(m);
    byStep.set(m.step, list);
  }
  const out: ShopStreamItem<C>[] = [];
  const drawn = new Set<number>();
  const flush = (upTo: number) => {
    for (const [step, list] of byStep) {
      if (step > upTo || drawn.has(step)) continue;
      drawn.add(step);
      for (const message of list) out.push({ kind: "message", message });
    }
  };
  for (const call of calls) {
    if (call.step === null) {
      out.push({ kind: "call", call, messages: [] });
      continue;
    }
    flush(call.step - 1);
    const own = drawn.has(call.step) ? [] : (byStep.get(call.step) ?? []);
    drawn.add(call.step);
    out.push({ kind: "call", call, messages: own });
  }
  flush(Number.POSITIVE_INFINITY);
  return out;
}

/** The regret line's parts: regret, surplus and the best admissible listing (named), or that none was. */
export function scoreSegments(s: ShopClientScore): string[] {
  const share = s.best && s.best.surplus > 0 ? ` (${((100 * s.surplus) / s.best.surplus).toFixed(1)}%)` : "";
  return [
    `regret ${usd(s.regret)} a night`,
    `surplus ${usd(s.surplus)}${share}`,
    s.best
      ? `best admissible ${s.best.id}${s.best.name ? ` ${s.best.name}` : ""} ${usd(s.best.surplus)}`
      : "nothing admissible: no regret possible",
  ];
}

/** The hidden requirements' parts: "hidden: price ≤ $260 learned", "Midtown or Uptown met by luck", …. */
export function requirementSegments(s: ShopClientScore): string[] {
  if (s.requirements.length === 0) return ["no hidden requirement"];
  return s.requirements.map((r, i) => `${i === 0 ? "hidden: " : ""}${r.label} ${r.status}`);
}

/** The burden's parts: messages, repeats, patience, faults. */
export function burdenSegments(s: ShopClientScore): string[] {
  return [
    `${s.messages} message${s.messages === 1 ? "" : "s"} to the client`,
    `${s.repeats} repeat${s.repeats === 1 ? "" : "s"}`,
    s.patienceOut ? "patience ran out" : "patience held",
    s.faults === 0 ? "no client fault" : `${s.faults} client fault${s.faults === 1 ? "" : "s"}`,
  ];
}

/** A speaker's label in the conversation. */
export function speakerLabel(m: Pick<ShopMessage, "from" | "step">): string {
  if (m.from === "machine") return "machine (patience out)";
  return m.from === "agent" ? "agent" : m.step === 0 ? "client (opening)" : "client";
}

/**
 * The list line's client cue, short ("regret $15.60 · 5 messages · 2 faults"), or "" without a
 * client: regret first, as it is what the run measures.
 */
export function clientCue(r: TrialRecord): string {
  if (r.client === undefined) return "";
  const b = r.burden as { messages?: unknown } | undefined;
  const n = typeof b?.messages === "number" ? b.messages : 0;
  const faults = Array.isArray(r.clientFaults) ? r.clientFaults.length : 0;
  return [
    ...(typeof r.regret === "number" ? [`regret ${usd(r.regret)}`] : []),
    `${n} message${n === 1 ? "" : "s"}`,
    ...(faults > 0 ? [`${faults} fault${faults === 1 ? "" : "s"}`] : []),
  ].join(" · ");
}

/** Who played the client, for the plain lines (`watch` without a terminal). */
export function clientPlainHeader(c: ShopClientModel): string[] {
  return [`${clientLine(c)} · shopper ${c.shopper}`];
}

/** A message as one plain line (never cut: a pipe has no width), its faults on lines of their own. */
export function messagePlainLines(m: ShopMessage): string[] {
  return [
    `  ${speakerLabel(m)}: ${m.text.replace(/\s*\n\s*/g, " ")}`,
    ...m.faults.map((f) => `    fault ${f.kind}: ${f.detail}`),
  ];
}

export function scorePlainLines(s: ShopClientScore): string[] {
  return [scoreSegments(s).join(" · "), requirementSegments(s).join(" · "), burdenSegments(s).join(" · ")];
}
