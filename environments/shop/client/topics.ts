/**
 * What a message to the client asks about, read by topic words (README "Clients"): the rule a
 * simulated client answers by, and the one the record's "asked" topics and the auditor use. A
 * message can ask about several topics; one that names none but asks what matters to the client
 * is an open question.
 */
import type { Topic } from "./types.ts";

const TOPIC_WORDS: readonly [Topic, RegExp][] = [
  [
    "price",
    /\b(?:price|prices|priced|budget|cost|costs|spend|afford|expensive|cheap|cheaper|how much|per night|a night|nightly|max(?:imum)? rate)\b|\$/,
  ],
  ["stars", /\bstars?\b|\bstar[- ]rat(?:ed|ing)\b/],
  [
    "area",
    /\b(?:areas?|neighbou?rhoods?|locations?|located|where|district|borough|part of (?:the )?(?:city|town))\b/,
  ],
  ["free_cancellation", /\b(?:cancel|cancell?ation|cancell?able|refundable|refund|flexible booking)\b/],
  ["breakfast", /\bbreakfast\b/],
  [
    "tradeoff",
    /\b(?:trade[- ]?offs?|worth|quality|reviews?|value|pay more|splurge)\b|(?<!star )\bratings?\b|\bguest rating\b/,
  ],
];

/** Words that ask about both amenities at once. */
const AMENITY_WORDS = /\b(?:amenit(?:y|ies)|facilities|extras)\b/;

const OPEN_QUESTION =
  /\b(?:what (?:else )?(?:matters|is important|are you looking for|do you (?:want|need|prefer|care about|have in mind))|anything else|preferences?|requirements?|tell me (?:more|about)|what kind of|priorities|must[- ]haves?|what would you like)\b/;
/** Asks for more besides any topic it names. */
const ANYTHING_ELSE = /\b(?:anything else|what else|any other)\b/;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Whether `name` (an area or neighborhood) appears in `text` as a whole word (any case). */
export function namesPlace(text: string, name: string): boolean {
  return new RegExp(`(?<![\\w])${escapeRegExp(name.toLowerCase())}(?![\\w])`).test(text.toLowerCase());
}

/**
 * The places of `names` that `text` names, each a whole word (any case), the longest first where
 * two overlap ("Downtown Brooklyn" is not also Downtown and Brooklyn); in the order of `names`.
 */
export function placesNamed(text: string, names: readonly string[]): string[] {
  const t = text.toLowerCase();
  const spans: { name: string; start: number; end: number }[] = [];
  for (const name of names) {
    const re = new RegExp(`(?<![\\w])${escapeRegExp(name.toLowerCase())}(?![\\w])`, "g");
    for (const m of t.matchAll(re)) spans.push({ name, start: m.index, end: m.index + m[0].length });
  }
  spans.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const taken: { start: number; end: number }[] = [];
  const found = new Set<string>();
  for (const s of spans) {
    if (taken.some((x) => s.start < x.end && x.start < s.end)) continue;
    taken.push(s);
    found.add(s.name);
  }
  return names.filter((n) => found.has(n));
}

/** The topics a message asks about, in TOPICS order; naming one of `places` asks about the area. */
export function topicsAsked(text: string, places: readonly string[] = []): Topic[] {
  const t = text.toLowerCase();
  const found = new Set<Topic>();
  for (const [topic, words] of TOPIC_WORDS) if (words.test(t)) found.add(topic);
  if (AMENITY_WORDS.test(t)) {
    found.add("free_cancellation");
    found.add("breakfast");
  }
  if (!found.has("area") && places.some((p) => namesPlace(t, p))) found.add("area");
  return (["price", "stars", "area", "free_cancellation", "breakfast", "tradeoff"] as const).filter((x) =>
    found.has(x),
  );
}

/**
 * An open question: it asks what matters to the client without naming a topic ("what matters to
 * you?", "any requirements?"), or asks for anything else besides the topics it names.
 */
export function isOpenQuestion(text: string, places: readonly string[] = []): boolean {
  const t = text.toLowerCase();
  if (ANYTHING_ELSE.test(t)) return true;
  return OPEN_QUESTION.test(t) && topicsAsked(t, places).length === 0;
}
