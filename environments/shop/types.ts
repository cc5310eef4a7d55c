import { z } from "zod";
import { CHAINS } from "../../datasets/hotels/schema.ts";
import {
  ClientProfileSchema,
  type ClientSide,
  type ConversationEntry,
  type PersonaName,
} from "./client/types.ts";
import { type Amenity, HardConstraintsSchema } from "./constraints.ts";

export { AMENITIES, type Amenity, type HardConstraints, HardConstraintsSchema } from "./constraints.ts";

/** The shopper's single role in a shop episode. */
export const SHOP_SHOPPER = "shopper";

/**
 * The four task families of specs/shop.md: `open` has several admissible listings (it reveals
 * preferences), `dominance` two admissible listings one of which is cheaper and better (a
 * rationality check), `needle` exactly one admissible listing ranked low in the default order
 * (search diligence), `infeasible` none (the right move is to give up).
 */
export const TASK_FAMILIES = ["open", "dominance", "needle", "infeasible"] as const;
export type TaskFamily = (typeof TASK_FAMILIES)[number];

/** Result orders of `search`; `recommended` is the platform's default (randomized) order. */
export const SORTS = ["recommended", "price_low", "price_high", "rating"] as const;
export type Sort = (typeof SORTS)[number];

/** The hard-constraint types a request can carry, in the order tables list them. */
export const CONSTRAINT_TYPES = ["price", "stars", "area", "amenities"] as const;
export type ConstraintType = (typeof CONSTRAINT_TYPES)[number];

/**
 * The randomized platform treatments of one listing, each drawn independently of the listing's
 * attributes and of each other: its rank in the default ("recommended") order, a sponsored tag, an
 * endorsement badge ("Guest favourite"), a scarcity tag ("Only 2 rooms left") and a shown was-price.
 */
export const TreatmentsSchema = z.object({
  /** 1-based position in the default order. */
  rank: z.number().int().positive(),
  sponsored: z.boolean(),
  endorsed: z.boolean(),
  /** Rooms left shown by the scarcity tag; null without the tag. */
  roomsLeft: z.number().int().positive().nullable(),
  /** The struck-through "was" price in dollars; null without a discount. */
  wasPrice: z.number().positive().nullable(),
});
export type Treatments = z.infer<typeof TreatmentsSchema>;

/**
 * The description arms of specs/market.md Part 1: `neutral` is the control (project templates over
 * the listing's own attributes); the others are persuasion aimed at the buyer (`social-proof`,
 * `authority`, `urgency`, `loss-aversion`), text aimed at the buyer's AI assistant
 * (`injection-basic`, `injection-strong`), and a claim the listing's terms deny (`false-claim`).
 */
export const DESCRIPTION_ARMS = [
  "neutral",
  "social-proof",
  "authority",
  "urgency",
  "loss-aversion",
  "injection-basic",
  "injection-strong",
  "false-claim",
] as const;
export type DescriptionArm = (typeof DESCRIPTION_ARMS)[number];

/** A listing's description, written by its seller: at most 600 characters; its arm and wording. */
export const DescriptionSchema = z.object({
  arm: z.enum(DESCRIPTION_ARMS),
  /** The library wording it came from (`<arm>/<n>`), or null for text a seller agent wrote. */
  wording: z.string().nullable(),
  text: z.string().max(600),
  /** `false-claim`: the amenity the text claims and the listing's terms deny; else null. */
  claims: z.enum(["free_cancellation", "breakfast"]).nullable(),
});
export type Description = z.infer<typeof DescriptionSchema>;

/** One listing of an episode's catalog: a hotel appearance (as in catalog choice) and its treatments. */
export const ListingSchema = z.object({
  /** The id the agent sees and names in `view` and `book`. */
  id: z.string(),
  hotelId: z.number().int(),
  name: z.string(),
  stars: z.number().int().min(1).max(5),
  neighborhood: z.string(),
  /** The area the neighborhood belongs to (Midtown, Downtown, Brooklyn, …). */
  area: z.string(),
  chain: z.enum(CHAINS),
  /** Nightly price in US dollars (whole dollars, as listings show them). */
  price: z.number().positive(),
  roomType: z.string(),
  freeCancellation: z.boolean(),
  breakfast: z.boolean(),
  reviewScore: z.number().min(0).max(10),
  reviewCount: z.number().int().nonnegative(),
  treatments: TreatmentsSchema,
  /** The seller's description: `view` shows it whole, a result card its first sentence. */
  description: DescriptionSchema,
  /**
   * A listing that takes offers (specs/market.md Part 3): the role of the seller negotiator who
   * answers them (`seller-1`, `seller-2`, … — the run's `--seller-negotiator` list, in order) and
   * the seller's private cost C in dollars. Absent on a listing sold only at its price.
   */
  negotiation: z
    .object({ seller: z.string().regex(/^seller-[1-9][0-9]*$/), cost: z.number().nonnegative() })
    .optional(),
});
export type Listing = z.infer<typeof ListingSchema>;

/** The role of the `k`-th seller negotiator (1-based), as a negotiable listing names it. */
export function sellerRole(k: number): string {
  return `seller-${k}`;
}

export const ShopRequestSchema = z.object({
  /** The request as the shopper's user message states it. */
  text: z.string(),
  constraints: HardConstraintsSchema,
  /** Soft wishes, shown to the agent, judged by nothing. */
  wishes: z.array(z.string()),
});
export type ShopRequest = z.infer<typeof ShopRequestSchema>;

/** The rules of an episode: results per page, the step budget, the invalid-call limit. */
export const ShopRulesSchema = z.object({
  pageSize: z.number().int().positive(),
  /** Tool calls an episode may make before it ends as out of steps. */
  maxSteps: z.number().int().positive(),
  /** Invalid calls in a row that end the episode as invalid. */
  maxInvalid: z.number().int().positive(),
  /**
   * The design has listings that take offers: the shopper is given the `offer` tool (on every task
   * of the run, whether or not its catalog drew a negotiable listing). Absent in a plain shop.
   */
  offers: z.literal(true).optional(),
  /**
   * Offers the shopper may send to one listing's seller (`--offer-rounds`): the pair's turn limit,
   * the seller's time scale. Once its seller has answered that many without a deal, the shopper can
   * still take one of the seller's counters (offer exactly it) or book at the list price; any other
   * offer to it is refused. Absent: the step budget is the limit, as before the option existed.
   */
  offerRounds: z.number().int().positive().optional(),
});
export type ShopRules = z.infer<typeof ShopRulesSchema>;

/**
 * One shop episode, fully specified: the request, the catalog in the default order (rank 1 first),
 * the rules; `admissible` lists the ids meeting every hard constraint and `dominance` names the
 * designed dominance pair of a dominance task.
 */
export const ShopTaskSchema = z.object({
  env: z.literal("shop"),
  taskId: z.string(),
  family: z.enum(TASK_FAMILIES),
  request: ShopRequestSchema,
  listings: z.array(ListingSchema).min(1),
  rules: ShopRulesSchema,
  admissible: z.array(z.string()),
  dominance: z.object({ dominant: z.string(), dominated: z.string() }).nullable(),
  /**
   * The client the shopper works for (specs/client.md): its hidden utility; its hidden requirements
   * are `request.constraints` and its wishes `request.wishes`, and the shopper is told only what it
   * says. Absent in a shop without a client, whose tasks are exactly as before clients existed.
   */
  client: ClientProfileSchema.optional(),
});
export type ShopTask = z.infer<typeof ShopTaskSchema>;

/** A search as the machine runs it: every filter resolved to a value or null. */
export interface SearchQuery {
  area: string | null;
  maxPrice: number | null;
  minStars: number | null;
  amenities: Amenity[];
  sort: Sort;
  page: number;
}

/** A listing as a result card shows it: no room type, no cancellation or breakfast terms, the description's first sentence. */
export interface Card {
  id: string;
  name: string;
  neighborhood: string;
  area: string;
  stars: number;
  price: number;
  wasPrice: number | null;
  reviewScore: number;
  reviewCount: number;
  sponsored: boolean;
  endorsed: boolean;
  roomsLeft: number | null;
  /** The listing takes offers (its card says so). */
  negotiable: boolean;
  /** The first sentence of the description (at most 120 characters; "" when it has none). */
  snippet: string;
}

/** A listing as `view` shows it: the card and the rest of its attributes. */
export interface ListingDetail extends Card {
  chain: (typeof CHAINS)[number];
  roomType: string;
  freeCancellation: boolean;
  breakfast: boolean;
  /** The whole description, on one line (its whitespace collapsed). */
  description: string;
}

/** What a tool call returned, structured (the text the agent reads is rendered from it). */
export type ToolResult =
  | { kind: "results"; query: SearchQuery; total: number; pages: number; cards: Card[] }
  | { kind: "listing"; listing: ListingDetail }
  | { kind: "error"; message: string }
  | { kind: "booked"; id: string; price: number }
  | OfferResult
  | { kind: "gave-up"; reason: string }
  /** The client's reply to a message (`machine`: the machine's line once its patience ran out). */
  | { kind: "client"; text: string; machine?: boolean }
  /** A message after the client asked to just book: it ends the conversation, and the episode. */
  | { kind: "client-left" }
  /** A call after the episode ended (a parallel call behind a booking), never executed. */
  | { kind: "episode-over" };

/**
 * How a seller answered an offer: `accept` (a deal at the offered price), `counter` (its own price),
 * `reject`, `quit` (it ends the negotiation), `invalid` (its answer could not be read: answered to
 * the shopper as a rejection, counted against the seller); `deal`: the shopper offered exactly the
 * seller's own earlier counter, which is a deal without asking the seller again.
 */
export const OFFER_ANSWERS = ["accept", "counter", "reject", "quit", "invalid", "deal"] as const;
export type OfferAnswer = (typeof OFFER_ANSWERS)[number];

export interface OfferResult {
  kind: "offer";
  id: string;
  /** The shopper's offer, dollars a night. */
  price: number;
  answer: OfferAnswer;
  /** The seller's counter price (`counter`), else null. */
  counter: number | null;
  /** What the seller said ("" when nothing, or when the shopper's offer met its counter). */
  message: string;
  /** The agreed price when this offer made a deal, else null. */
  deal: number | null;
}

/**
 * One move of a negotiation as the export keeps it: the shopper's offers (with the seller's
 * `answer`) and the seller's own moves (`counter`, `accept`, `reject`, `quit`, `invalid`), in order.
 */
export interface NegotiationMove {
  /** The shopper's tool call (1-based step) this move belongs to. */
  step: number;
  side: "buyer" | "seller";
  move: "offer" | Exclude<OfferAnswer, "deal">;
  /** Dollars: the offer, the counter, or the accepted price; null for reject, quit, invalid. */
  price: number | null;
  message: string;
  /** On a shopper's offer: how it was answered. */
  answer?: OfferAnswer;
  /**
   * On a shopper's offer: the bookkeeping note its message carried for this call (`meta.note`, never
   * an argument of the tool and never shown to the model) — e.g. the OG-Narrator's template
   * fallback. Absent when the call carried none.
   */
  note?: string;
}

/** One listing's negotiation in an episode: who sold, its private cost, the moves and the result. */
export interface Negotiation {
  id: string;
  /** The seller negotiator's role (`seller-1`, …). */
  seller: string;
  listPrice: number;
  cost: number;
  /** The request's price cap (the buyer's budget B), null when it has none. */
  cap: number | null;
  offers: NegotiationMove[];
  /** The agreed price, null without a deal. */
  deal: number | null;
  /** The seller ended it (quit). */
  closed: boolean;
  /** Seller answers that could not be read (an action error, a deal at a price never offered). */
  sellerInvalid: number;
  /**
   * The seller answered the run's `offerRounds` offers without a deal: the pair is at its turn limit
   * (only its counters can still be taken). Absent otherwise, and in runs without the limit.
   */
  atTurnLimit?: true;
}

/** One tool call as the agent made it: its tool name and arguments, as given. */
export interface ShopCall {
  tool: string;
  args: unknown;
}

/** One agent message: its calls (native tool calls, or Action lines of a text reply) and their results. */
export interface ShopTurn {
  /**
   * `tools`: native tool calls, one result message each; `text`: a reply read by the text grammar;
   * `message`: with a client, a reply without any call — a message to the client, answered by its
   * reply in one message.
   */
  mode: "tools" | "text" | "message";
  /** The reply as written (text mode). */
  text: string | null;
  calls: { call: ShopCall; result: ToolResult; step: number }[];
}

/**
 * What the shopper observes besides the messages: the request, the rules, every earlier message with
 * its results, and the budget used. Simulated shoppers read this; LLMs read the rendered messages,
 * and `observe.ts` reads those back into exactly this.
 */
export interface ShopView {
  request: ShopRequest;
  rules: ShopRules;
  /** The areas the catalog's listings are in (the system prompt lists them). */
  areas: string[];
  turns: ShopTurn[];
  /** Tool calls executed so far. */
  steps: number;
  /** Invalid calls in a row at the end of the last message. */
  invalidStreak: number;
  /**
   * With a client: the conversation and what the client has said (then `request` is only that: the
   * opening's text, the requirements stated so far, the wishes named). Absent without a client.
   */
  client?: ClientSide;
}

/** How an episode ended. `invalid`: the invalid-call limit; `agent-error`: the agent failed to answer. */
/** `client-ended`: the client had asked to just book, and the shopper messaged it again. */
export const END_REASONS = [
  "booked",
  "gave-up",
  "out-of-steps",
  "invalid",
  "agent-error",
  "client-ended",
] as const;
export type EndReason = (typeof END_REASONS)[number];

/** A listing the agent was shown: where it first appeared, and whether the agent opened it. */
export interface ShownListing {
  id: string;
  /** The tool call (1-based step) whose results first showed it. */
  step: number;
  page: number;
  /** 1-based position on that page. */
  rank: number;
  viewed: boolean;
}

/** One call of the trajectory: what was asked, and a one-line summary of the answer. */
export interface TrajectoryEntry {
  /** 1-based step of an executed call; null for a call not executed (the episode was over). */
  step: number | null;
  /** The agent message (1-based) the call was part of. */
  turn: number;
  tool: string;
  args: unknown;
  ok: boolean;
  summary: string;
}

export interface ShopOutcome {
  endReason: EndReason;
  bookedId: string | null;
  giveUpReason: string | null;
  /** Tool calls executed. */
  steps: number;
  /** Agent messages (model turns). */
  turns: number;
  invalidCalls: number;
  shown: ShownListing[];
  trajectory: TrajectoryEntry[];
  /** An invalid or failed episode: why, and the last thing the agent sent. */
  nonResponse: { reason: string; raw: string } | null;
  /** With offers in the design (absent in a plain shop): every negotiation, listing by listing. */
  negotiations?: Negotiation[];
  /** With offers: the nightly price paid — the agreed price where there was a deal, else the list price; null without a booking. */
  paid?: number | null;
  /** With offers: out of steps while a negotiation was still open (no deal, not ended by the seller). */
  deadlock?: boolean;
  /** With a client (absent without one): its persona, the conversation, and whether its patience ran out. */
  client?: ClientOutcome;
}

export interface ClientOutcome {
  /** Who played the client (`sim:terse`, `openai:gpt-4o-mini`). */
  by: string;
  persona: PersonaName;
  patience: number;
  /** The client's first message (what the shopper was told at the start). */
  opening: string;
  conversation: ConversationEntry[];
  patienceOut: boolean;
}
