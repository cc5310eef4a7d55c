/**
 * Description text as listings show it: `{slot}`s filled from the listing, whitespace collapsed to
 * single spaces (a description is shown on one line, whoever wrote it), and the first sentence a
 * result card shows, cut on a word with "…" when it is longer than a card allows.
 */
import type { Listing } from "../../environments/shop/types.ts";

/** The most characters a description may have (DescriptionSchema enforces the same). */
export const DESCRIPTION_MAX_CHARS = 600;
/** The most characters of a description a result card shows. */
export const CARD_SENTENCE_MAX_CHARS = 120;

/** What a description is written from: a listing's own attributes, and the hotel's facilities if known. */
export type DescribedListing = Pick<
  Listing,
  "id" | "name" | "neighborhood" | "area" | "chain" | "roomType" | "freeCancellation" | "breakfast"
> & {
  /** The hotel's facilities from the pool ("Fitness center", "Bar"); none when unknown. */
  facilities?: readonly string[];
};

/** The slots a wording may use. */
export const SLOTS = ["name", "id", "neighborhood", "area", "place", "roomType"] as const;
export type Slot = (typeof SLOTS)[number];
const SLOT = /\{([^{}]*)\}/g;

/** "SoHo, Downtown"; a neighborhood that already names its area ("Park Slope, Brooklyn") alone. */
export function placeOf(l: Pick<DescribedListing, "neighborhood" | "area">): string {
  return l.neighborhood === l.area || l.neighborhood.endsWith(`, ${l.area}`)
    ? l.neighborhood
    : `${l.neighborhood}, ${l.area}`;
}

export function slotValue(slot: Slot, l: DescribedListing): string {
  switch (slot) {
    case "name":
      return l.name;
    case "id":
      return l.id;
    case "neighborhood":
      return l.neighborhood;
    case "area":
      return l.area;
    case "place":
      return placeOf(l);
    case "roomType":
      return l.roomType;
  }
}

/** Slot names a template uses that are not slots. */
export function unknownSlots(template: string): string[] {
  const known: readonly string[] = SLOTS;
  return [...template.matchAll(SLOT)].map((m) => m[1] as string).filter((s) => !known.includes(s));
}

/** A template with the listing's values in its slots (an unknown slot is left as written). */
export function fillSlots(template: string, l: DescribedListing): string {
  if (!template.includes("{")) return template;
  return template.replace(SLOT, (whole, name: string) =>
    (SLOTS as readonly string[]).includes(name) ? slotValue(name as Slot, l) : whole,
  );
}

/** Runs of whitespace (line breaks included) as one space, trimmed: a description as shown. */
export function oneLineText(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** `text` cut on a word to at most `max` characters, "…" included, when it is longer. */
export function cutOnWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = text.slice(0, max - 1);
  const space = room.lastIndexOf(" ");
  const head = (space > max / 3 ? room.slice(0, space) : room).replace(/[\s,;:–—-]+$/, "");
  return `${head}…`;
}

/**
 * The first sentence of a description as a result card shows it: up to the first `.`, `!` or `?`
 * (with a closing quote, bracket or `</tag>` after it) followed by a space or the end, at most 120
 * characters (longer ones cut on a word with "…").
 */
export function firstSentence(text: string): string {
  const t = oneLineText(text);
  const end = /[.!?](?:["”’)\]]|<\/[a-z_]+>)?(?= |$)/i.exec(t);
  const sentence = end ? t.slice(0, end.index + end[0].length) : t;
  return cutOnWord(sentence, CARD_SENTENCE_MAX_CHARS);
}
