/**
 * The client of a shop episode (specs/client.md): the person the shopping assistant works for. Its
 * profile is part of the task (hidden requirements — the task's hard constraints — and a utility
 * in dollars a night); its persona (what it says at first, what an open question draws out, how
 * many messages it answers) belongs to whoever plays it, and reaches the machine with its opening.
 */
import { z } from "zod";
import { AMENITIES, type Amenity, type HardConstraints } from "../constraints.ts";

/** The client's role in a shop episode, beside the shopper (and any seller negotiators). */
export const SHOP_CLIENT = "client";

/**
 * What a message can be about: the four requirement topics of the shop's hard constraints — each
 * amenity a topic of its own — and the trade-off between price and quality (the utility).
 */
export const TOPICS = ["price", "stars", "area", "free_cancellation", "breakfast", "tradeoff"] as const;
export type Topic = (typeof TOPICS)[number];

/** The topics a hidden requirement can be on (every topic but the trade-off). */
export const REQUIREMENT_TOPICS = ["price", "stars", "area", "free_cancellation", "breakfast"] as const;
export type RequirementTopic = (typeof REQUIREMENT_TOPICS)[number];

export function isRequirementTopic(t: Topic): t is RequirementTopic {
  return t !== "tradeoff";
}

/** The amenity a topic is about, or null. */
export function amenityOf(t: Topic): Amenity | null {
  return (AMENITIES as readonly string[]).includes(t) ? (t as Amenity) : null;
}

/**
 * The client's value of a listing, in dollars a night: `base` plus a weight on each attribute's
 * distance from a reference (review score 8, 3 stars, no amenity, an area not named), so
 * `V(l) = base + review·(score − 8) + stars·(stars − 3) + Σ amenities[a]·has(a) + areas[area]`.
 * Every weight is whole dollars and non-negative (the profile's answers say them exactly).
 */
export const ClientUtilitySchema = z.object({
  base: z.number().nonnegative(),
  /** Dollars a night per point of guest rating. */
  review: z.number().nonnegative(),
  /** Dollars a night per star. */
  stars: z.number().nonnegative(),
  amenities: z.object({ free_cancellation: z.number().nonnegative(), breakfast: z.number().nonnegative() }),
  /** Dollars a night for being in an area; an area not named is worth 0. */
  areas: z.record(z.string(), z.number().nonnegative()),
});
export type ClientUtility = z.infer<typeof ClientUtilitySchema>;

/** The hidden part of a client the task carries: its utility (its requirements are the request's constraints). */
export const ClientProfileSchema = z.object({ utility: ClientUtilitySchema });
export type ClientProfile = z.infer<typeof ClientProfileSchema>;

/** The three personas of specs/client.md. */
export const PERSONA_NAMES = ["complete", "partial", "terse"] as const;
export type PersonaName = (typeof PERSONA_NAMES)[number];

/** A persona as the machine needs it: its name, and how many messages it answers before it asks to just book. */
export const PersonaSchema = z.object({
  name: z.enum(PERSONA_NAMES),
  patience: z.number().int().positive(),
});
export type PersonaRef = z.infer<typeof PersonaSchema>;

/**
 * The client's actions: its opening (the persona and the first message) and its replies. A
 * `reply` (an LLM client's text answer) is a `say`.
 */
export const ClientOpenActionSchema = z.object({
  type: z.literal("open"),
  persona: PersonaSchema,
  /** Who plays the client (its spec: `sim:terse`, `openai:gpt-4o-mini`), as records name it. */
  by: z.string().min(1),
  text: z.string().min(1),
});
export const ClientSayActionSchema = z.object({ type: z.literal("say"), text: z.string() });
export const ClientReplyActionSchema = z.object({ type: z.literal("reply"), text: z.string() });
export const ClientActionSchema = z.discriminatedUnion("type", [
  ClientOpenActionSchema,
  ClientSayActionSchema,
  ClientReplyActionSchema,
]);
export type ClientAction = z.infer<typeof ClientActionSchema>;

/** The faults a client's reply can commit (specs/client.md, "Client faults"). */
export const CLIENT_FAULTS = [
  /** States a value the profile contradicts. */
  "contradicts",
  /** Reveals a requirement the persona keeps back until asked. */
  "reveals",
  /** Invents a requirement the profile does not have. */
  "invents",
  /** Speaks as the assistant. */
  "as-assistant",
  /** Ends the conversation before the agent has booked. */
  "ends-early",
  /** Gave no usable reply (an empty answer, or an error). */
  "silent",
] as const;
export type ClientFaultKind = (typeof CLIENT_FAULTS)[number];

export interface ClientFault {
  kind: ClientFaultKind;
  /** What the auditor read (e.g. "price: said $300, the profile's cap is $250"). */
  detail: string;
}

/** One message of the conversation between the shopper and its client. */
export interface ConversationEntry {
  /** The shopper's step (tool call) it belongs to; 0 for the client's opening. */
  step: number;
  from: "agent" | "client";
  text: string;
  /** Agent: the topics it asks about. Client: the topics it states (a value or no preference). */
  topics: Topic[];
  /** Client: said by the machine, not the client (the patience line). */
  machine?: boolean;
  /** Client: the auditor's findings on this reply (absent when none). */
  faults?: ClientFault[];
}

/**
 * What the client has said so far, as the shopper may use it: the topics it spoke to (a value or
 * "no preference"), the requirements those state (null where unknown or none), the wishes it named.
 */
export interface StatedRequest {
  known: Topic[];
  constraints: HardConstraints;
  wishes: string[];
}

/** The shopper's view of its client (ShopView.client): the conversation and what it has said. */
export interface ClientSide {
  /** Null where the view was read back from a conversation (serve-sim), which does not say it. */
  persona: PersonaName | null;
  conversation: ConversationEntry[];
  stated: StatedRequest;
  /** The client has asked to just book: it answers nothing new, and a further message ends the episode. */
  patienceOut: boolean;
}

/**
 * What the client sees at its turn: its profile (requirements, utility, wishes), the catalog's
 * areas, the conversation so far, and the shopper's message to answer (null for the opening).
 */
export interface ClientView {
  requirements: HardConstraints;
  utility: ClientUtility;
  wishes: string[];
  /** The catalog's areas (what an area requirement names). */
  areas: string[];
  /** The catalog's areas and neighborhoods, lower-cased (naming one asks about the area). */
  places: string[];
  conversation: ConversationEntry[];
  message: string | null;
}
