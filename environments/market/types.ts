/**
 * The market of specs/market.md Part 2: N sellers' listings over R rounds. Each round, B buyer
 * episodes (ordinary shop episodes over the current listings) and then one turn per seller, in which
 * it sees its round report, its history and its competitors' listings, and may rewrite its
 * description and change its price. A seller's turn is an episode of this environment.
 */
import type { Description, Listing } from "../shop/types.ts";

/**
 * The roles of a seller turn: a market's adopters play the optimizing seller, the rest the static
 * one. Both are sellers with the same tools and rules; the role says which agent of the run's seller
 * entry takes the turn (one entry fields both, as a bargaining entry fields buyer and seller), so a
 * round's seller turns are one run.
 */
export const MARKET_ADOPTER = "adopter";
export const MARKET_STATIC = "static";
export const SELLER_ROLES = [MARKET_ADOPTER, MARKET_STATIC] as const;
export type SellerRole = (typeof SELLER_ROLES)[number];

/** The most characters a description may have (the shop's DescriptionSchema says the same). */
export const DESCRIPTION_LIMIT = 600;

/**
 * A seller's listing as the market keeps it between rounds: the shop listing without the platform
 * treatments (rank and tags are drawn afresh for every buyer episode). Only `price` and
 * `description` ever change; the rest are facts.
 */
export type MarketListing = Omit<Listing, "treatments">;

/** How a seller did in one round, read off the round's buyer episodes. */
export interface SellerRoundStats {
  /** Buyer episodes in which its listing was shown. */
  shown: number;
  /**
   * How often it was first shown at each position of the results (index 0 = position 1; a
   * position on page 2 counts from the first page's size on).
   */
  positions: number[];
  /** Buyer episodes in which it was opened (`view`). */
  views: number;
  bookings: number;
  /** Bookings × the price of the round, dollars. */
  revenue: number;
  /** Revenue − bookings × cost, dollars. */
  profit: number;
}

/** A seller's round report: its own numbers, and the market's size that round. */
export interface RoundReport {
  /** Buyer episodes this round. */
  buyers: number;
  /** Bookings across the whole market this round. */
  marketBookings: number;
  stats: SellerRoundStats;
}

/** A competitor's listing as a buyer's result card and an opened listing show it (no tags). */
export interface CompetitorCard {
  id: string;
  name: string;
  neighborhood: string;
  area: string;
  stars: number;
  price: number;
  reviewScore: number;
  reviewCount: number;
  /** Its whole description, on one line. */
  description: string;
}

/** One earlier round of a seller: what its listing said and cost then, and how it did. */
export interface HistoryEntry {
  round: number;
  price: number;
  description: string;
  shown: number;
  views: number;
  bookings: number;
  revenue: number;
  profit: number;
}

/** The rules of a seller's turn. */
export interface SellerRules {
  /** Characters a description may have. */
  maxChars: number;
  /** Messages without a valid call after which the turn ends with the listing as it was. */
  maxInvalid: number;
}

/**
 * One seller's turn after round `round`: everything the seller is shown, and who it is in the
 * market (`instance`, `seller`, `adopter`), which the record keeps and the seller is not told.
 */
export interface SellerTask {
  env: "market";
  /** `<instance>-r<round>-s<seller>`, e.g. `k1-m2-r03-s05`. */
  taskId: string;
  /** The market run (`market-<hash>`). */
  market: string;
  /** The market within the run: `k<adopters>-m<base market>`. */
  instance: string;
  round: number;
  rounds: number;
  /** 1-based seller number within its market. */
  seller: number;
  /** Whether the seller runs the optimizing agent (the rest are static): its turn's role. */
  adopter: boolean;
  /** The agent that plays it (the label of the run's adopter or static seller), for the record. */
  agent: string;
  /** Its listing as the round's buyers saw it. */
  listing: MarketListing;
  /** Its cost per night, dollars: the lowest price it may set. */
  cost: number;
  /** The highest price it may set, dollars. */
  cap: number;
  report: RoundReport;
  competitors: CompetitorCard[];
  /** Its earlier rounds, oldest first (the current round is `listing` and `report`). */
  history: HistoryEntry[];
  rules: SellerRules;
}

/** A seller tool call as made: tool name and arguments as given. */
export interface SellerCall {
  tool: string;
  args: unknown;
}

/** What a call did: `ok` calls were applied (or were a `keep`); refused ones changed nothing. */
export interface SellerCallResult {
  ok: boolean;
  /** What the seller is told (an error starts with "Error:"). */
  text: string;
}

/** One seller message of a turn: its calls and their results. */
export interface SellerMessage {
  mode: "tools" | "text";
  /** The reply as written (text mode). */
  text: string | null;
  calls: { call: SellerCall; result: SellerCallResult }[];
}

/** A seller's own listing as it is shown to it: every attribute, the description's text. */
export type ListingView = Omit<MarketListing, "hotelId" | "description"> & { description: string };

/** What the seller observes: the task's view, and the messages of this turn so far (all refused). */
export interface SellerView {
  round: number;
  rounds: number;
  listing: ListingView;
  cost: number;
  cap: number;
  report: RoundReport;
  competitors: CompetitorCard[];
  history: HistoryEntry[];
  rules: SellerRules;
  /** The results of this turn's earlier messages, in order (each had no valid call). */
  refused: string[][];
}

/**
 * How a turn ended: `changed` (a valid call changed the description or the price), `kept` (valid
 * calls that changed nothing: `keep`, or the same text or price again), `invalid` (the invalid-message
 * limit: the listing stays), `agent-error` (the agent failed to answer).
 */
export const SELLER_END_REASONS = ["changed", "kept", "invalid", "agent-error"] as const;
export type SellerEndReason = (typeof SELLER_END_REASONS)[number];

/** One call of a turn as the record keeps it. */
export interface SellerCallRecord {
  /** The seller message (1-based) the call was part of. */
  message: number;
  tool: string;
  args: unknown;
  ok: boolean;
  result: string;
}

export interface SellerOutcome {
  endReason: SellerEndReason;
  /** The listing's price and description after the turn (what the next round's buyers see). */
  price: number;
  description: Description;
  priceChanged: boolean;
  descriptionChanged: boolean;
  calls: SellerCallRecord[];
  /** Seller messages (model turns). */
  messages: number;
  /** Calls the rules refused (each kept the listing as it was). */
  invalidCalls: number;
  nonResponse: { reason: string; raw: string } | null;
}
