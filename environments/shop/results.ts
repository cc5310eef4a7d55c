/**
 * Tool results as the agent reads them: result cards one per line, a listing's details one label
 * per line, errors on an `Error:` line, each followed by the budget used. Strings are built by
 * concatenation (this runs for every call an LLM reads). `observe.ts` reads these back; change a
 * format in both places.
 */
import { formatPrice, thousands } from "../choice/prompt.ts";
import { formatUsd } from "../kernel/money.ts";
import type { Card, ListingDetail, OfferResult, ShopTurn, ToolResult } from "./types.ts";

/** Separates the fields of a result card; names and neighborhoods may not contain it (design checks). */
export const CARD_SEPARATOR = " · ";
export const ENDORSEMENT_TAG = "Guest favourite";
export const SPONSORED_TAG = "Sponsored";
/** A listing whose seller answers offers (a design with offers). */
export const NEGOTIABLE_TAG = "Takes offers";

/** How the client's reply to a message reads (observe.ts reads it back). */
export const CLIENT_PREFIX = "Client: ";

export function scarcityTag(roomsLeft: number): string {
  return roomsLeft === 1 ? "Only 1 room left" : `Only ${roomsLeft} rooms left`;
}

export function ratingText(score: number, count: number): string {
  return `${score.toFixed(1)}/10 from ${thousands(count)} ${count === 1 ? "review" : "reviews"}`;
}

function priceText(price: number, wasPrice: number | null): string {
  return formatPrice(price) + (wasPrice === null ? "" : ` (was ${formatPrice(wasPrice)})`);
}

function placeText(c: Pick<Card, "neighborhood" | "area">): string {
  return `${c.neighborhood} (${c.area})`;
}

export function tagsOf(c: Pick<Card, "sponsored" | "endorsed" | "roomsLeft" | "negotiable">): string[] {
  const tags: string[] = [];
  if (c.negotiable) tags.push(NEGOTIABLE_TAG);
  if (c.sponsored) tags.push(SPONSORED_TAG);
  if (c.endorsed) tags.push(ENDORSEMENT_TAG);
  if (c.roomsLeft !== null) tags.push(scarcityTag(c.roomsLeft));
  return tags;
}

/** How a card's description line starts: it is indented under its card. */
export const SNIPPET_INDENT = "   ";

/**
 * One result card: position on the page, id, name, place, stars, price, rating, tags; then, on an
 * indented line of its own, the first sentence of its description (when it has one).
 */
export function cardLine(c: Card, position: number): string {
  let line =
    position +
    ". " +
    c.id +
    CARD_SEPARATOR +
    c.name +
    CARD_SEPARATOR +
    placeText(c) +
    CARD_SEPARATOR +
    c.stars +
    "★" +
    CARD_SEPARATOR +
    priceText(c.price, c.wasPrice) +
    " a night" +
    CARD_SEPARATOR +
    ratingText(c.reviewScore, c.reviewCount);
  for (const t of tagsOf(c)) line += CARD_SEPARATOR + t;
  if (c.snippet !== "") line += "\n" + SNIPPET_INDENT + c.snippet;
  return line;
}

export function searchHeader(
  total: number,
  page: number,
  pages: number,
  pageSize: number,
  sort: string,
): string {
  if (total === 0) return "Found 0 listings.";
  const found = `Found ${total} ${total === 1 ? "listing" : "listings"}`;
  if (page > pages) return `${found}; there is no page ${page} (${pages} ${pages === 1 ? "page" : "pages"}).`;
  return `${found} (page ${page} of ${pages}, ${pageSize} per page, sorted by ${sort}):`;
}

export function detailLines(l: ListingDetail): string {
  const tags = tagsOf(l);
  return (
    "Listing " +
    l.id +
    "\nHotel: " +
    l.name +
    "\nBrand: " +
    l.chain +
    "\nStars: " +
    l.stars +
    "\nNeighborhood: " +
    placeText(l) +
    "\nRoom: " +
    l.roomType +
    "\nPrice per night: " +
    priceText(l.price, l.wasPrice) +
    "\nFree cancellation: " +
    (l.freeCancellation ? "Yes" : "No") +
    "\nBreakfast included: " +
    (l.breakfast ? "Yes" : "No") +
    "\nGuest rating: " +
    ratingText(l.reviewScore, l.reviewCount) +
    "\nTags: " +
    (tags.length > 0 ? tags.join(", ") : "none") +
    "\nDescription: " +
    l.description
  );
}

export function budgetLine(step: number, maxSteps: number): string {
  return `[${step} of ${maxSteps} tool calls used]`;
}

/**
 * The answer to an offer, in fixed sentences (`observe.ts` reads them back): the offer, then the
 * seller's answer with its quoted words, then what the shopper can do next.
 */
export function offerText(r: OfferResult): string {
  const head = `Offer to listing ${r.id}: ${formatUsd(r.price)} a night.`;
  const said = r.message === "" ? "" : ` The seller says: ${JSON.stringify(r.message)}`;
  switch (r.answer) {
    case "accept":
      return `${head} The seller accepts.${said}\nDeal at ${formatUsd(r.deal!)} a night: book ${r.id} to book it at this price.`;
    case "deal":
      return `${head} That is the seller's own offer.\nDeal at ${formatUsd(r.deal!)} a night: book ${r.id} to book it at this price.`;
    case "counter":
      return `${head} The seller counters at ${formatUsd(r.counter!)} a night.${said}\nTo accept, offer exactly ${formatUsd(r.counter!)}; you may also offer another price, or book at the list price.`;
    case "reject":
      return `${head} The seller rejects it.${said}\nYou may offer another price, or book at the list price.`;
    case "quit":
      return `${head} The seller ends the negotiation.${said}\nNo more offers on this listing; it can still be booked at the list price.`;
    case "invalid":
      return `${head} The seller gave no usable answer: take it as a rejection.\nYou may offer another price, or book at the list price.`;
  }
}

/** A result as the agent reads it (book, give-up and episode-over results are never shown). */
export function resultText(r: ToolResult, pageSize: number): string {
  switch (r.kind) {
    case "results": {
      const head = searchHeader(r.total, r.query.page, r.pages, pageSize, r.query.sort);
      let text = head;
      r.cards.forEach((c, i) => {
        text += "\n" + cardLine(c, i + 1);
      });
      return text;
    }
    case "listing":
      return detailLines(r.listing);
    case "error":
      return `Error: ${r.message}`;
    case "offer":
      return offerText(r);
    case "booked":
      return `Booked listing ${r.id}.`;
    case "gave-up":
      return "Ended without a booking.";
    case "client":
      return `${CLIENT_PREFIX}${r.text}`;
    case "client-left":
      return "The client ended the conversation.";
    case "episode-over":
      return "Error: the task is over; this call was not run.";
  }
}

/** The label of a call in a text-mode result block ("no call" for a reply without Action lines). */
export function callLabel(tool: string): string {
  return tool === "" ? "no call" : tool;
}

/**
 * The user messages answering one agent message: one per call for native tool calls (each the
 * answer to its call id), one message of numbered blocks for a text reply.
 */
export function resultMessages(turn: ShopTurn, pageSize: number, maxSteps: number): string[] {
  const texts = turn.calls.map((c) => resultText(c.result, pageSize) + "\n" + budgetLine(c.step, maxSteps));
  if (turn.mode !== "text") return texts;
  return [
    texts
      .map((t, i) => `Result of call ${i + 1} (${callLabel(turn.calls[i]!.call.tool)}):\n${t}`)
      .join("\n\n"),
  ];
}

/** The agent's own message as the conversation shows it: its calls as `name({args})` lines, or its text. */
export function echoText(turn: ShopTurn): string {
  if (turn.mode !== "tools") return turn.text ?? "";
  return turn.calls.map((c) => `${c.call.tool}(${JSON.stringify(c.call.args) ?? ""})`).join("\n");
}
