/**
 * A client's words read into what they state, by rules (README "Clients"): per requirement topic
 * the requirement (a price cap, a star minimum, areas, a must-have amenity) or "no preference";
 * the trade-off's dollar weights; the wishes; and the things a client should never say — a
 * requirement on something the shop does not know, words of the assistant, an ending. The fixed
 * sentences of `wording.ts` read back exactly; an LLM client's own words are read as well as rules
 * can, and what they state is what the shopper is told the client said.
 */

import { REQUEST_CLOSING } from "../prompt.ts";
import type { Amenity, HardConstraints } from "../types.ts";
import { placesNamed } from "./topics.ts";
import { REQUIREMENT_TOPICS, type StatedRequest, type Topic } from "./types.ts";

export interface TradeoffReading {
  /** Dollars a night per point of guest rating. */
  review?: number;
  /** Dollars a night per star. */
  stars?: number;
  amenities: Partial<Record<Amenity, number>>;
  areas: Record<string, number>;
}

/** What one text of the client states; a topic it does not speak to is absent. */
export interface ClientReading {
  /** The price cap, or null: no preference. */
  price?: number | null;
  stars?: number | null;
  areas?: string[] | null;
  /** Required (true) or not (false). */
  free_cancellation?: boolean;
  breakfast?: boolean;
  tradeoff?: TradeoffReading;
  wishes?: string[];
  /** The text is the shop's whole request (the complete opening): a topic it does not list has no requirement. */
  complete: boolean;
  /** Requirements on things the shop has no filter or term for (a pool, parking, …). */
  unknownRequirements: string[];
  /** Words of the assistant, not the client ("let me search…"). */
  asAssistant: string | null;
  /** Words that end the conversation ("never mind, I'll book it myself"). */
  ends: string | null;
}

const AMOUNT = /\$\s?(\d[\d,]*(?:\.\d+)?)/;
const PRICE_WORDS =
  /\b(?:price|prices|budget|cost|spend|afford|a night|per night|nightly|at most|under|max(?:imum)?)\b|\$/;
const STAR_WORDS = /\bstars?\b|\bstar[- ]rated\b/;
const AREA_WORDS = /\b(?:areas?|neighbou?rhoods?|locations?|where|district|borough|anywhere)\b/;
const NEGATION =
  /\b(?:no preference|(?:is|are)n'?t (?:needed|necessary|required|important|a must)|is not (?:needed|necessary|required|important|a must)|don'?t mind|do not mind|doesn'?t matter|does not matter|not important|not a must|don'?t need|do not need|not needed|not required|not necessary|any number of stars|anywhere|either way|whatever|any area|any price)\b/;
const MUST =
  /\b(?:must|need|needs|required|require|requires|essential|has to|have to|non-negotiable|necessary|mandatory)\b/;
const NUMBER_WORDS: Readonly<Record<string, number>> = { one: 1, two: 2, three: 3, four: 4, five: 5 };
const STAR_VALUE =
  /(?:at least|minimum(?: of)?|min\.?|no fewer than)\s*([1-5]|one|two|three|four|five)\b|\b([1-5]|one|two|three|four|five)[- ](?:or more[- ])?stars?\b|\bstars?:?\s*(?:at least\s*)?([1-5])\b/;
const UNKNOWN_AMENITIES =
  /\b(pool|gym|fitness|parking|wi-?fi|pets?|dogs?|spa|balcony|kitchen|(?:city |river )?view|shuttle|jacuzzi|bathtub|sauna|crib)\b/;
const AS_ASSISTANT =
  /\b(?:i have booked|i've booked|i booked|i found|i can book|here are (?:some|the|a few)|let me (?:search|check|look|find)|i'll (?:search|look|check|find)|i will (?:search|look|check|find)|as your assistant|how can i (?:help|assist)|would you like me to|i recommend|i'd recommend|i suggest)\b/;
const ENDS =
  /\b(?:goodbye|bye|never ?mind|forget it|i'?ll (?:book|find|look for) (?:it|one|something) myself|i'?ll look elsewhere|i'?m done|stop (?:asking|messaging))\b/;

function amount(text: string): number | null {
  const m = AMOUNT.exec(text);
  return m ? Number((m[1] as string).replaceAll(",", "")) : null;
}

function after(text: string, head: RegExp): number | null {
  const m = new RegExp(`${head.source}[^$]{0,40}?\\$\\s?(\\d[\\d,]*(?:\\.\\d+)?)`).exec(text);
  return m ? Number((m[m.length - 1] as string).replaceAll(",", "")) : null;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function readTradeoff(s: string, places: readonly string[], out: ClientReading): void {
  const t: TradeoffReading = out.tradeoff ?? { amenities: {}, areas: {} };
  const review = after(s, /(?:guest rating|rating|review(?: score)?s?)/);
  const stars = after(s, /\bstars?\b/);
  const fc = after(s, /(?:free cancell?ation|cancell?ation)/);
  const bf = after(s, /breakfast/);
  if (review !== null) t.review = review;
  if (stars !== null) t.stars = stars;
  if (fc !== null) t.amenities.free_cancellation = fc;
  if (bf !== null) t.amenities.breakfast = bf;
  for (const p of placesNamed(s, places)) {
    const w = after(s, new RegExp(`(?<![\\w])${escapeRegExp(p.toLowerCase())}(?![\\w])`));
    if (w !== null) t.areas[p] = w;
  }
  if (
    t.review !== undefined ||
    t.stars !== undefined ||
    Object.keys(t.amenities).length > 0 ||
    Object.keys(t.areas).length > 0
  )
    out.tradeoff = t;
}

function readSegment(segment: string, places: readonly string[], out: ClientReading): void {
  const s = segment.toLowerCase();
  if (/\bworth\b/.test(s) && AMOUNT.test(s)) {
    readTradeoff(s, places, out);
    return;
  }
  const negated = NEGATION.test(s);
  if (PRICE_WORDS.test(s)) {
    const cap = amount(s);
    if (cap !== null && !negated) out.price = cap;
    else if (cap === null && negated) out.price = null;
  }
  if (STAR_WORDS.test(s)) {
    const m = STAR_VALUE.exec(s);
    const v = m ? (m[1] ?? m[2] ?? m[3]) : undefined;
    if (v !== undefined && !negated) out.stars = NUMBER_WORDS[v] ?? Number(v);
    else if (v === undefined && negated) out.stars = null;
  }
  const named = placesNamed(s, places);
  if (named.length > 0 && !negated) out.areas = [...named].sort();
  else if (named.length === 0 && negated && AREA_WORDS.test(s)) out.areas = null;
  const must = MUST.test(s);
  if (/\bcancel/.test(s)) {
    if (negated) out.free_cancellation = false;
    else if (must) out.free_cancellation = true;
  }
  if (/\bbreakfast\b/.test(s)) {
    if (negated) out.breakfast = false;
    else if (must) out.breakfast = true;
  }
  if (must && !negated) {
    const unknown = UNKNOWN_AMENITIES.exec(s);
    if (unknown) out.unknownRequirements.push(unknown[1] as string);
  }
}

/** What `text`, said by the client, states; `places` are the catalog's areas. */
export function readClientText(text: string, places: readonly string[]): ClientReading {
  const out: ClientReading = { complete: false, unknownRequirements: [], asAssistant: null, ends: null };
  const lines = text.split("\n").map((l) => l.trim());
  out.complete = lines.length > 1 && lines.at(-1) === REQUEST_CLOSING;
  for (const line of lines) {
    const wishes = /^nice to have: (.*)\.$/i.exec(line);
    if (wishes) {
      out.wishes = (wishes[1] as string).split("; ");
      continue;
    }
    for (const segment of line.split(/(?<=[.!?;])\s+|,?\s+but\s+/i))
      if (segment) readSegment(segment, places, out);
  }
  const lower = text.toLowerCase();
  out.asAssistant = AS_ASSISTANT.exec(lower)?.[0] ?? null;
  out.ends = ENDS.exec(lower)?.[0] ?? null;
  return out;
}

/** The topics a reading states (a requirement, no preference, or a trade-off weight), in TOPICS order. */
export function topicsStated(r: ClientReading): Topic[] {
  const out: Topic[] = [];
  if (r.complete) out.push(...REQUIREMENT_TOPICS);
  else {
    if (r.price !== undefined) out.push("price");
    if (r.stars !== undefined) out.push("stars");
    if (r.areas !== undefined) out.push("area");
    if (r.free_cancellation !== undefined) out.push("free_cancellation");
    if (r.breakfast !== undefined) out.push("breakfast");
  }
  if (r.tradeoff !== undefined) out.push("tradeoff");
  return out;
}

/** Nothing said yet: every topic unknown. */
export function nothingStated(): StatedRequest {
  return {
    known: [],
    constraints: { maxPrice: null, minStars: null, areas: null, amenities: [] },
    wishes: [],
  };
}

/**
 * What the client has said so far, with `reading` said after it: a topic's latest statement wins;
 * the complete opening states every requirement topic (a topic it does not list has none).
 */
export function withReading(stated: StatedRequest, r: ClientReading): StatedRequest {
  const c: HardConstraints = { ...stated.constraints, amenities: [...stated.constraints.amenities] };
  if (r.complete) {
    c.maxPrice = r.price ?? null;
    c.minStars = r.stars ?? null;
    c.areas = r.areas ?? null;
    c.amenities = [];
  }
  if (r.price !== undefined) c.maxPrice = r.price;
  if (r.stars !== undefined) c.minStars = r.stars;
  if (r.areas !== undefined) c.areas = r.areas;
  for (const a of ["free_cancellation", "breakfast"] as const) {
    const v = r[a];
    if (v === true && !c.amenities.includes(a)) c.amenities.push(a);
    if (v === false) c.amenities = c.amenities.filter((x) => x !== a);
  }
  c.amenities.sort((a, b) => (a === b ? 0 : a === "free_cancellation" ? -1 : 1));
  const known = new Set<Topic>([...stated.known, ...topicsStated(r)]);
  return {
    known: (["price", "stars", "area", "free_cancellation", "breakfast", "tradeoff"] as const).filter((t) =>
      known.has(t),
    ),
    constraints: c,
    wishes: r.wishes ?? stated.wishes,
  };
}
