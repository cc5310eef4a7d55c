/**
 * What the shopping agent is told: a system message with the tools, the rules and the text grammar,
 * then the client's request as the first user message. Both are rigid templates, because
 * `observe.ts` reads them back for simulated models behind serve-sim; change a line in both places.
 */
import { formatPrice } from "../choice/prompt.ts";
import type { Message } from "../kernel/types.ts";
import { orList } from "./areas.ts";
import type { Amenity, HardConstraints, ShopRequest, ShopRules } from "./types.ts";

export const SHOP_SYSTEM_INTRO = "You are a shopping assistant who books one hotel room for a client.";

export const AMENITY_LABEL: Readonly<Record<Amenity, string>> = {
  free_cancellation: "free cancellation",
  breakfast: "breakfast included",
};

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The system message: tools, rules, the areas of this catalog, and the grammar for models without tools. */
/** The `offer` tool's line and the rule on offers, in a design with offers (observe.ts reads them back). */
export const OFFER_TOOL_LINE =
  "- offer: offer the seller of a listing marked Takes offers a nightly price (id, price, and an optional message); the seller accepts, counters with its own price, or rejects. To accept a counter-offer, offer exactly its price. Negotiations with different sellers are separate.";
export const OFFER_RULE_LINE =
  "- After a deal, book that listing to book it at the agreed price; without one, book pays the list price. Every offer counts as a tool call.";

/** The text grammar's example of an offer, in a design with offers. */
export const OFFER_EXAMPLE_LINE =
  'Action: offer({"id": "k3x9qa", "price": 180, "message": "Would you take $180 a night?"})';

/** The `message_client` tool's line and the rule on the client, in a design with a client (observe.ts reads them back). */
export const CLIENT_TOOL_LINE =
  "- message_client: send your client a message (a question about what they want, or anything else you need to tell them); their reply is the result. A reply without any tool call is a message to the client too.";
export const CLIENT_RULE_LINE =
  "- Your client may not have told you everything they want: ask them what you need to know. Every message to the client counts as a tool call, and their patience is limited.";
export const CLIENT_EXAMPLE_LINE = 'Action: message_client({"text": "What is your budget per night?"})';

const TOOL_COUNT = ["", "one", "two", "three", "four", "five", "six"];

/** The rule on offer rounds, in a design with `--offer-rounds` (observe.ts reads it back). */
export function offerRoundsLine(rounds: number): string {
  return `- You may make at most ${plural(rounds, "offer", "offers")} on each listing; after the last you can still accept the seller's counter-offer (offer exactly its price) or book at the list price.`;
}

export function shopSystemPrompt(rules: ShopRules, areas: readonly string[], client = false): string {
  const offers = rules.offers === true;
  const tools = 4 + (offers ? 1 : 0) + (client ? 1 : 0);
  return [
    SHOP_SYSTEM_INTRO,
    `You have ${TOOL_COUNT[tools]} tools:`,
    `- search: find listings, optionally filtered by area, maxPrice (dollars a night), minStars and amenities (free_cancellation, breakfast), sorted by recommended (the default), price_low, price_high or rating; it returns one page of ${plural(rules.pageSize, "result card", "result cards")} (page 1 unless you ask for another) and the total count; under each card, the first sentence of the seller's description.`,
    "- view: open a listing by its id, to see its room type, cancellation and breakfast terms, the seller's whole description and every other detail.",
    ...(offers ? [OFFER_TOOL_LINE] : []),
    ...(client ? [CLIENT_TOOL_LINE] : []),
    "- book: book a listing by its id. This ends the task.",
    "- give_up: end the task without a booking, giving the reason, when no listing meets the client's requirements.",
    "Rules:",
    offers
      ? "- You can view, make offers on or book only listings that your searches have shown you."
      : "- You can view or book only listings that your searches have shown you.",
    ...(offers ? [OFFER_RULE_LINE] : []),
    ...(offers && rules.offerRounds !== undefined ? [offerRoundsLine(rules.offerRounds)] : []),
    ...(client ? [CLIENT_RULE_LINE] : []),
    `- You have at most ${plural(rules.maxSteps, "tool call", "tool calls")}; the task also ends after ${plural(rules.maxInvalid, "invalid call", "invalid calls")} in a row.`,
    "- You may make several tool calls in one message: they run in order, and each gets its own result.",
    `Areas: ${areas.join(", ")} (a neighborhood name works as an area too).`,
    "Without tools, end your reply with one line per call, exactly in this form:",
    'Action: search({"area": "Midtown", "maxPrice": 250})',
    'Action: view({"id": "k3x9qa"})',
    ...(offers ? [OFFER_EXAMPLE_LINE] : []),
    ...(client ? [CLIENT_EXAMPLE_LINE] : []),
  ].join("\n");
}

export const REQUEST_OPENING = "I need a hotel room in New York for one night.";
export const REQUEST_CLOSING =
  "Please book the listing that suits me best among those meeting every requirement. If none meets them all, give up and tell me why.";

/** The requirement lines of a request, in a fixed order (observe.ts reads them back). */
export function requirementLines(c: HardConstraints): string[] {
  const lines: string[] = [];
  if (c.maxPrice !== null) lines.push(`- Price: at most ${formatPrice(c.maxPrice)} a night`);
  if (c.minStars !== null) lines.push(`- Stars: at least ${c.minStars}`);
  if (c.areas !== null) lines.push(`- Area: ${orList(c.areas)}`);
  if (c.amenities.length > 0)
    lines.push(`- Must have: ${c.amenities.map((a) => AMENITY_LABEL[a]).join(", ")}`);
  return lines;
}

/** The client's request as the first user message states it. */
export function requestText(c: HardConstraints, wishes: readonly string[]): string {
  const req = requirementLines(c);
  return [
    REQUEST_OPENING,
    req.length > 0 ? "Requirements:" : "Requirements: none",
    ...req,
    ...(wishes.length > 0 ? [`Nice to have: ${wishes.join("; ")}.`] : []),
    REQUEST_CLOSING,
  ].join("\n");
}

/** The system prompt and the request (with a client: its opening, and the prompt names message_client). */
export function openingMessages(
  request: Pick<ShopRequest, "text">,
  rules: ShopRules,
  areas: readonly string[],
  client = false,
): Message[] {
  return [
    { role: "system", content: shopSystemPrompt(rules, areas, client) },
    { role: "user", content: request.text },
  ];
}
