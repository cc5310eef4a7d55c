/**
 * The client's part of a shop episode's rules, as pure functions the shop's rules call: the
 * opening, a message to the client (one step of the budget: answered by the client, or by the
 * machine once the client's patience has run out, or ending the episode when the client has
 * already asked to just book), and the client's reply — read (`reader.ts`), audited (`audit.ts`)
 * and added to what the shopper knows the client has said.
 */

import type { HardConstraints } from "../types.ts";
import { auditReply } from "./audit.ts";
import { PERSONAS } from "./personas.ts";
import { nothingStated, readClientText, topicsStated, withReading } from "./reader.ts";
import { topicsAsked } from "./topics.ts";
import type { ClientProfile } from "./types.ts";
import {
  ClientOpenActionSchema,
  type ClientSide,
  type ConversationEntry,
  type PersonaRef,
  type StatedRequest,
} from "./types.ts";
import { JUST_BOOK, NO_REPLY } from "./wording.ts";

/** The client's part of an episode's state. Never mutated: each change makes a new one. */
export interface ClientState {
  /** Null until the client has opened. */
  persona: PersonaRef | null;
  /** Who plays the client (its spec), from its opening. */
  by: string;
  conversation: ConversationEntry[];
  stated: StatedRequest;
  /** Messages the client itself answered. */
  answered: number;
  /** The client has asked to just book (the machine's line): a further message ends the episode. */
  patienceOut: boolean;
  /** A message waiting for the client's reply: its step and text. */
  asking: { step: number; text: string } | null;
}

export function initialClient(): ClientState {
  return {
    persona: null,
    by: "",
    conversation: [],
    stated: nothingStated(),
    answered: 0,
    patienceOut: false,
    asking: null,
  };
}

/** The client's opening: its persona and first message, read like any reply (never audited: it is the persona's). */
export function clientOpens(client: ClientState, action: unknown, areas: readonly string[]): ClientState {
  const parsed = ClientOpenActionSchema.safeParse(action);
  if (!parsed.success)
    // A client is always bazaar's own (a sim, or the LLM client's template opening): this is a bug.
    throw new Error(`the client's opening is not an open action: ${JSON.stringify(action)?.slice(0, 200)}`);
  const { persona, by, text } = parsed.data;
  const reading = readClientText(text, areas);
  return {
    ...client,
    persona,
    by,
    conversation: [{ step: 0, from: "client", text, topics: topicsStated(reading) }],
    stated: withReading(client.stated, reading),
  };
}

/** What a message to the client does: wait for the client's reply, get the machine's line, or end the episode. */
export type ClientAsked =
  | { kind: "ask"; client: ClientState }
  | { kind: "answered"; client: ClientState; text: string }
  | { kind: "ended"; client: ClientState };

/**
 * The shopper's message to the client at `step` (`places`: the catalog's areas and neighborhoods,
 * any of which names the area topic).
 */
export function clientAsked(
  client: ClientState,
  step: number,
  text: string,
  places: readonly string[],
): ClientAsked {
  const entry: ConversationEntry = { step, from: "agent", text, topics: topicsAsked(text, places) };
  const conversation = [...client.conversation, entry];
  if (client.patienceOut) return { kind: "ended", client: { ...client, conversation } };
  if (client.answered >= (client.persona?.patience ?? 0)) {
    const line: ConversationEntry = { step, from: "client", text: JUST_BOOK, topics: [], machine: true };
    return {
      kind: "answered",
      client: { ...client, conversation: [...conversation, line], patienceOut: true },
      text: JUST_BOOK,
    };
  }
  return { kind: "ask", client: { ...client, conversation, asking: { step, text } } };
}

/** The text of a client's reply action (`say`, or an LLM's `reply`); null when it is neither. */
function replyText(action: unknown): string | null {
  if (action === null || typeof action !== "object") return null;
  const a = action as { type?: unknown; text?: unknown };
  return (a.type === "say" || a.type === "reply") && typeof a.text === "string" ? a.text : null;
}

/**
 * The client's reply to the message it was asked (or its failure to reply: `error`): read, audited
 * against the profile, added to what it has said. What the shopper reads is returned as `text`.
 */
export function clientAnswers(
  client: ClientState,
  action: unknown,
  profile: { requirements: HardConstraints; client: ClientProfile },
  where: { areas: readonly string[]; places: readonly string[] },
  error?: string,
): { client: ClientState; text: string } {
  const asking = client.asking;
  if (!asking) return { client, text: NO_REPLY };
  const said = error === undefined ? (replyText(action) ?? "") : "";
  const text = said.trim();
  const reading = readClientText(text, where.areas);
  const persona = PERSONAS[client.persona?.name ?? "terse"];
  const faults = auditReply(text, reading, {
    requirements: profile.requirements,
    utility: profile.client.utility,
    persona,
    message: asking.text,
    known: client.stated.known,
    places: where.places,
  });
  if (error !== undefined) faults[0] = { kind: "silent", detail: `the client failed: ${error}` };
  const entry: ConversationEntry = {
    step: asking.step,
    from: "client",
    text,
    topics: topicsStated(reading),
    ...(faults.length > 0 ? { faults } : {}),
  };
  return {
    client: {
      ...client,
      conversation: [...client.conversation, entry],
      stated: withReading(client.stated, reading),
      answered: client.answered + 1,
      asking: null,
    },
    text: text === "" ? NO_REPLY : text,
  };
}

/** The shopper's view of its client. */
export function clientSide(client: ClientState): ClientSide {
  return {
    persona: client.persona?.name ?? null,
    conversation: client.conversation,
    stated: client.stated,
    patienceOut: client.patienceOut,
  };
}
