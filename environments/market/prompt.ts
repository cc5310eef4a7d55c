/**
 * What a seller is told at its turn: a system message with its tools and the rules, then one user
 * message with its listing, cost and price limits, its round report, its earlier rounds and the
 * other sellers' listings as buyers see them. Both are rigid templates, because `observe.ts` reads
 * them back for simulated sellers behind serve-sim; change a line in both places.
 */
import { formatUsd } from "../kernel/money.ts";
import type { Message } from "../kernel/types.ts";
import type {
  CompetitorCard,
  HistoryEntry,
  ListingView,
  RoundReport,
  SellerRules,
  SellerView,
} from "./types.ts";

export const SELLER_SYSTEM_INTRO = "You are the seller of one hotel listing on a booking platform.";

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The system message: the market, the tools, the rules, and the grammar for models without tools. */
export function sellerSystemPrompt(rules: SellerRules): string {
  return [
    SELLER_SYSTEM_INTRO,
    "Travellers' AI shopping assistants search the platform's listings, open some and book one. After each round of bookings, every seller may rewrite its listing's description and change its nightly price; everything else about a listing (its hotel, room, terms and reviews) is fixed.",
    "Your goal is profit over all rounds: what your bookings pay, less your cost per night booked.",
    "You have three tools:",
    `- set_description: replace your description (plain text, at most ${rules.maxChars} characters; result cards show its first sentence, an opened listing shows it whole).`,
    "- set_price: set your nightly price in whole US dollars, at least your cost and at most the price cap.",
    "- keep: keep your listing as it is.",
    "Rules:",
    "- You may call set_description and set_price in the same message; your turn ends with the first message that has a valid call.",
    `- A call the rules refuse changes nothing; after ${plural(rules.maxInvalid, "message", "messages")} without a valid call your turn ends and your listing stays as it is.`,
    "Without tools, end your reply with one line per call, exactly in this form:",
    'Action: set_price({"amount": 150})',
    'Action: set_description({"text": "Your new description."})',
  ].join("\n");
}

export const REPORT_CLOSING = "Call set_description, set_price (or both), or keep.";

function yesNo(b: boolean): string {
  return b ? "yes" : "no";
}

function rating(score: number, count: number): string {
  return `${score.toFixed(1)}/10 from ${plural(count, "review", "reviews")}`;
}

/** "Midtown East (Midtown)"; a neighborhood that is its own area alone. */
export function placeText(neighborhood: string, area: string): string {
  return neighborhood === area ? neighborhood : `${neighborhood} (${area})`;
}

function listingLines(l: ListingView): string[] {
  return [
    `Your listing (id ${l.id})`,
    `Name: ${l.name}`,
    `Place: ${placeText(l.neighborhood, l.area)}`,
    `Stars: ${l.stars}`,
    `Brand: ${l.chain}`,
    `Room: ${l.roomType}`,
    `Free cancellation: ${yesNo(l.freeCancellation)}`,
    `Breakfast included: ${yesNo(l.breakfast)}`,
    `Reviews: ${rating(l.reviewScore, l.reviewCount)}`,
    `Price: ${formatUsd(l.price)} a night`,
    `Description: ${l.description}`,
  ];
}

/** "first shown at position 1: 12, 2: 9" (positions it was never first shown at left out). */
function positionsText(positions: readonly number[]): string {
  const parts = positions.flatMap((n, i) => (n > 0 ? [`${i + 1}: ${n}`] : []));
  return parts.length > 0 ? ` (first shown at position ${parts.join(", ")})` : "";
}

function reportLines(round: number, rounds: number, report: RoundReport): string[] {
  const s = report.stats;
  return [
    `Round ${round} of ${rounds}: ${plural(report.buyers, "buyer", "buyers")}; ${plural(report.marketBookings, "booking", "bookings")} across the market.`,
    `Shown: ${plural(s.shown, "buyer", "buyers")}${positionsText(s.positions)}`,
    `Opened: ${s.views}`,
    `Booked: ${s.bookings}`,
    `Revenue: ${formatUsd(s.revenue)}`,
    `Profit: ${formatUsd(s.profit)}`,
  ];
}

export function historyLine(h: HistoryEntry): string {
  return `Round ${h.round}: price ${formatUsd(h.price)} · shown ${h.shown} · opened ${h.views} · booked ${h.bookings} · revenue ${formatUsd(h.revenue)} · profit ${formatUsd(h.profit)} · description: ${h.description}`;
}

export function competitorLines(c: CompetitorCard): string[] {
  return [
    `- ${c.id} · ${c.name} · ${placeText(c.neighborhood, c.area)} · ${c.stars} stars · ${formatUsd(c.price)} a night · ${rating(c.reviewScore, c.reviewCount)}`,
    `  Description: ${c.description}`,
  ];
}

/** The user message of a seller's turn. */
export function sellerReportText(v: Omit<SellerView, "refused" | "rules">): string {
  return [
    `Round ${v.round} of ${v.rounds} is over. Here is how your listing did, and what the other sellers offer.`,
    "",
    ...listingLines(v.listing),
    "",
    `Your cost: ${formatUsd(v.cost)} a night. You may set a price from ${formatUsd(v.cost)} (your cost) to ${formatUsd(v.cap)} (the price cap).`,
    "",
    ...reportLines(v.round, v.rounds, v.report),
    "",
    v.history.length > 0 ? "Your earlier rounds, oldest first:" : "Your earlier rounds: none",
    ...v.history.map(historyLine),
    "",
    v.competitors.length > 0 ? "The other sellers' listings as buyers see them:" : "The other sellers: none",
    ...v.competitors.flatMap(competitorLines),
    "",
    REPORT_CLOSING,
  ].join("\n");
}

export function sellerOpening(v: Omit<SellerView, "refused">): Message[] {
  return [
    { role: "system", content: sellerSystemPrompt(v.rules) },
    { role: "user", content: sellerReportText(v) },
  ];
}
