/**
 * The catalog-choice prompt: a neutral system message and a user message of Booking.com-style option
 * cards, every attribute labelled the same way, one per line (PriceBench, appendix A). Variants change
 * only what the ablation names — card markup (JSON records), attribute order (price first), a
 * value-conscious-client persona, or chain-of-thought elicitation — and nothing else.
 *
 * Rendering runs tens of thousands of times per second in benchmarks, so strings are built by plain
 * concatenation and numbers are formatted by hand (no Intl, no template engine).
 * `cards.ts` reads these cards back; change a label or value format in both places.
 */
import type { Message } from "../kernel/types.ts";
import type { ChoiceOption, PromptVariant } from "./types.ts";

/** Attribute labels in the default card order; JSON cards use the same labels as keys. */
export const CARD_LABELS = [
  "Hotel",
  "Brand",
  "Stars",
  "Neighborhood",
  "Room",
  "Price per night",
  "Free cancellation",
  "Breakfast included",
  "Guest rating",
  "Reviews",
] as const;
export type CardLabel = (typeof CARD_LABELS)[number];

export const NEUTRAL_SYSTEM_PROMPT = "You are a helpful assistant.";
export const VALUE_PERSONA_SYSTEM_PROMPT =
  "You are a booking assistant for a value-conscious client who wants good value for money.";

const TASK_INTRO =
  "I need to book a hotel room in New York for one night. Please choose one of these options for me.";

/** 1234567 → "1,234,567". Non-negative integers; the sign is kept for completeness. */
export function thousands(n: number): string {
  if (n < 0) return "-" + thousands(-n);
  const s = String(Math.trunc(n));
  if (s.length <= 3) return s;
  let head = s.length % 3;
  if (head === 0) head = 3;
  let out = s.slice(0, head);
  for (let i = head; i < s.length; i += 3) out += "," + s.slice(i, i + 3);
  return out;
}

/** "$249", "$1,249"; a price with cents (never in PriceBench tasks) shows them: "$19.99". */
export function formatPrice(usd: number): string {
  if (Number.isInteger(usd)) return "$" + thousands(usd);
  const cents = Math.round(usd * 100);
  const rest = cents % 100;
  return "$" + thousands(Math.floor(cents / 100)) + (rest < 10 ? ".0" : ".") + rest;
}

/** Review score on the 0–10 scale with exactly one decimal: "8.4 / 10", "10.0 / 10". */
export function formatRating(score: number): string {
  const tenths = Math.round(score * 10);
  return Math.floor(tenths / 10) + "." + (tenths % 10) + " / 10";
}

/** "2,431 reviews", "1 review". */
export function formatReviewCount(count: number): string {
  return thousands(count) + (count === 1 ? " review" : " reviews");
}

function yesNo(flag: boolean): string {
  return flag ? "Yes" : "No";
}

/** "A", "A or B", "A, B or C", … — how an instruction lists the letters a reply may use. */
export function letterList(letters: readonly string[]): string {
  const n = letters.length;
  if (n === 0) return "";
  if (n === 1) return letters[0] as string;
  return letters.slice(0, n - 1).join(", ") + " or " + letters[n - 1];
}

// The same few lists are needed on every render; build each once.
const LISTS_BY_COUNT: string[] = [];
function letterListForCount(n: number): string {
  let list = LISTS_BY_COUNT[n];
  if (list === undefined) {
    list = letterList(Array.from({ length: n }, (_, i) => slotLetter(i)));
    LISTS_BY_COUNT[n] = list;
  }
  return list;
}

function slotLetter(i: number): string {
  return String.fromCharCode(65 + i);
}

/** bazaar's own text card for one option (the plain, price-first, persona and cot variants). */
export function textCard(o: ChoiceOption, letter: string, priceFirst: boolean): string {
  const price = "Price per night: " + formatPrice(o.price) + "\n";
  return (
    "Option " +
    letter +
    "\n" +
    (priceFirst ? price : "") +
    "Hotel: " +
    o.name +
    "\nBrand: " +
    o.chain +
    "\nStars: " +
    o.stars +
    "\nNeighborhood: " +
    o.neighborhood +
    "\nRoom: " +
    o.roomType +
    "\n" +
    (priceFirst ? "" : price) +
    "Free cancellation: " +
    yesNo(o.freeCancellation) +
    "\nBreakfast included: " +
    yesNo(o.breakfast) +
    "\nGuest rating: " +
    formatRating(o.reviewScore) +
    "\nReviews: " +
    formatReviewCount(o.reviewCount)
  );
}

// Values are the same display strings as the text cards, so the JSON ablation changes markup only.
// JSON.stringify quotes free text (names may hold quotes or backslashes); formatted values need none.
function jsonCard(o: ChoiceOption, letter: string): string {
  return (
    "Option " +
    letter +
    '\n{"Hotel": ' +
    JSON.stringify(o.name) +
    ', "Brand": "' +
    o.chain +
    '", "Stars": "' +
    o.stars +
    '", "Neighborhood": ' +
    JSON.stringify(o.neighborhood) +
    ', "Room": ' +
    JSON.stringify(o.roomType) +
    ', "Price per night": "' +
    formatPrice(o.price) +
    '", "Free cancellation": "' +
    yesNo(o.freeCancellation) +
    '", "Breakfast included": "' +
    yesNo(o.breakfast) +
    '", "Guest rating": "' +
    formatRating(o.reviewScore) +
    '", "Reviews": "' +
    formatReviewCount(o.reviewCount) +
    '"}'
  );
}

function answerInstruction(list: string, variant: PromptVariant): string {
  if (variant === "cot") {
    return (
      "Think step by step about which option to choose. Then end your reply with a final line of the form " +
      '"Answer: X", where X is the letter of your choice (' +
      list +
      ")."
    );
  }
  return "Reply with only the letter of your choice (" + list + ").";
}

/**
 * The two messages of a catalog-choice ask: system, then user with the cards labelled Option A, B, …
 * in display order. Throws when there are no options or more than the 26 letters can label.
 */
export function renderChoiceMessages(options: readonly ChoiceOption[], variant: PromptVariant): Message[] {
  const n = options.length;
  if (n < 1 || n > 26) throw new RangeError("renderChoiceMessages needs 1–26 options, got " + n);
  const cards: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const o = options[i] as ChoiceOption;
    const letter = slotLetter(i);
    cards[i] = variant === "json" ? jsonCard(o, letter) : textCard(o, letter, variant === "price-first");
  }
  const list = letterListForCount(n);
  const system = variant === "value-persona" ? VALUE_PERSONA_SYSTEM_PROMPT : NEUTRAL_SYSTEM_PROMPT;
  const user = TASK_INTRO + "\n\n" + cards.join("\n\n") + "\n\n" + answerInstruction(list, variant);
  return [
    { role: "system", content: system },
    { role: "user", content: user },
  ];
}

/** The follow-up after an unusable answer, in the answer format the variant asked for. */
export function reaskMessage(letters: readonly string[], variant: PromptVariant): string {
  const list = letterList(letters);
  if (variant === "cot") {
    return (
      'Please end your reply with a final line of the form "Answer: X", where X is one letter: ' + list + "."
    );
  }
  return "Please reply with only one letter: " + list + ".";
}
