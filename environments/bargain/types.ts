import { z } from "zod";
import { PRICE_HISTORY_CATEGORIES } from "../../datasets/price-history/schema.ts";

export const BUYER = "buyer";
export const SELLER = "seller";
export const BARGAIN_ROLES = [BUYER, SELLER] as const;
export type BargainRole = (typeof BARGAIN_ROLES)[number];

export const INTERESTS = ["MI", "CI"] as const;
/** Mutual interest (cost ≤ budget: a deal can profit both) or conflicting interest (cost > budget). */
export type Interest = (typeof INTERESTS)[number];

/**
 * One bargaining session, fully specified: the product, the three prices derived from its price
 * history by the scenario rules, and the turn limit. Money is US dollars; `budget` keeps the exact
 * product of factor and listed price (the reference scores with it), prompts show it in cents.
 */
export const BargainTaskSchema = z.object({
  env: z.literal("bargain"),
  taskId: z.string(),
  /** The product's codename, which is also how the actions name the item. */
  scenarioId: z.string(),
  product: z.object({
    id: z.string(),
    title: z.string(),
    category: z.enum(PRICE_HISTORY_CATEGORIES),
    description: z.string(),
  }),
  /** L = max(highest price, list price). */
  listedPrice: z.number().positive(),
  /** B = budgetFactor × L, the buyer's private value. */
  budget: z.number().nonnegative(),
  /** C = costFactor × lowest price, the seller's private value. */
  cost: z.number().nonnegative(),
  interest: z.enum(INTERESTS),
  /** At most this many buyer messages and as many seller replies. */
  maxTurns: z.number().int().positive(),
});
export type BargainTask = z.infer<typeof BargainTaskSchema>;

/** What a move does, whatever the protocol it arrived in (a tool call or a paper-format reply). */
export const MOVE_TYPES = ["offer", "deal", "reject", "quit"] as const;
export type MoveType = (typeof MOVE_TYPES)[number];

/** One accepted move as both sides' history holds it. */
export interface BargainMove {
  role: BargainRole;
  type: MoveType;
  /** Dollars for an offer or a deal; null for reject and quit. */
  price: number | null;
  /** What the side said to the other (one line). */
  talk: string;
}

/**
 * What a negotiator observes besides the messages: its own side of the scenario (never the other
 * side's private value) and every move so far. `limit` is the private value as its prompt shows it:
 * the budget rounded down to cents for the buyer, the cost rounded up to cents for the seller.
 */
export interface BargainView {
  role: BargainRole;
  codename: string;
  title: string;
  description: string;
  listedPrice: number;
  limit: number;
  maxTurns: number;
  history: readonly BargainMove[];
}

/** How a session ended. */
export const END_REASONS = ["deal", "quit", "turn-limit", "action-error", "fake-deal"] as const;
export type EndReason = (typeof END_REASONS)[number];
export type SessionOutcome = "deal" | "no-deal" | "invalid";

/** One message of the session, in order, as the trial record keeps it for replay. */
export interface TranscriptEntry {
  /** 1-based turn: a turn is one buyer message and the seller's reply. */
  turn: number;
  role: BargainRole;
  /** The move (a fake deal shows as the "deal" it claimed to be), or "invalid" for an unreadable action. */
  action: MoveType | "invalid";
  price: number | null;
  talk: string;
  /** The reply's Thought line (paper text protocol), never shown to the other side. */
  thought?: string;
  /** The agent's answer as given, for text replies and for invalid actions. */
  raw?: string;
  /** Model tokens of this message (LLM agents and the LLM narrator). */
  tokens?: { input: number; output: number };
  /** Wall-clock milliseconds the agent took for this message (left out below 0.05 ms). */
  ms?: number;
  /** Anything the agent reports about how it produced the message (e.g. a narrator fallback). */
  note?: string;
}

export interface BargainOutcome {
  outcome: SessionOutcome;
  endedBy: EndReason;
  /** The side whose action ended the session (null at the turn limit). */
  endedBySide: BargainRole | null;
  /** The side whose action made the session invalid (action error or fake deal), else null. */
  invalidSide: BargainRole | null;
  /** Why the action was invalid, e.g. "no Action line", "[SELL] is not a buyer action". */
  invalidReason: string | null;
  /** The deal price D; null without a valid deal. */
  dealPrice: number | null;
  /** Buyer messages sent (a turn started counts). */
  turns: number;
  transcript: TranscriptEntry[];
}
