/**
 * The neutral descriptions: project-written templates that restate a listing's own attributes —
 * where it is, its brand, its room, the amenities its terms grant and the hotel's facilities — and
 * nothing else. They carry no persuasive word (the cue library's list, test/datasets/descriptions),
 * never mention price, stars or reviews (the card shows those), mention an amenity only when the
 * listing's terms grant it, and never address an AI. Several templates, so that "neutral" is not
 * one fixed sentence the agent could learn to skip; a design draws one per listing.
 */
import { DESCRIPTION_MAX_CHARS, type DescribedListing, fillSlots, oneLineText } from "./text.ts";

/** A sentence of a template, and the attribute it needs (it is left out when the listing lacks it). */
export interface TemplateSentence {
  text: string;
  when?: "breakfast" | "freeCancellation" | "facilities";
}

/**
 * The templates. Besides the wording slots they use `{hotelKind}` ("an independent hotel", "a
 * Hilton hotel"), `{brand}` ("independent", "Hilton") and `{facilities}` (the pool's list).
 */
export const NEUTRAL_TEMPLATES: readonly (readonly TemplateSentence[])[] = [
  [
    { text: "{name} is {hotelKind} in {place}." },
    { text: "This listing is a {roomType}." },
    { text: "Breakfast is included.", when: "breakfast" },
    { text: "Cancellation carries no fee.", when: "freeCancellation" },
    { text: "On site: {facilities}.", when: "facilities" },
  ],
  [
    { text: "A {roomType} at {name}, {hotelKind} in {neighborhood}." },
    { text: "The hotel is in the {area} part of New York." },
    { text: "The stay includes breakfast.", when: "breakfast" },
    { text: "The booking can be cancelled without a fee.", when: "freeCancellation" },
    { text: "The hotel lists these facilities: {facilities}.", when: "facilities" },
  ],
  [
    { text: "{name} stands in {place}." },
    { text: "It is {hotelKind}, and the room offered is a {roomType}." },
    { text: "Breakfast comes with the room.", when: "breakfast" },
    { text: "Cancellation is possible without a fee.", when: "freeCancellation" },
    { text: "Facilities: {facilities}.", when: "facilities" },
  ],
  [
    { text: "Room type: {roomType}, at {name} in {place}." },
    { text: "Brand: {brand}." },
    { text: "Breakfast: included.", when: "breakfast" },
    { text: "Cancellation: no fee.", when: "freeCancellation" },
    { text: "Facilities: {facilities}.", when: "facilities" },
  ],
];

/** A neutral template's wording id, as records store it (`neutral/<n>`, 1-based). */
export function neutralWordingId(template: number): string {
  return `neutral/${template + 1}`;
}

function brand(chain: string): string {
  return chain === "Independent" ? "independent" : chain;
}

function hotelKind(chain: string): string {
  const b = brand(chain);
  return `${/^[aeiouAEIOU]/.test(b) ? "an" : "a"} ${b} hotel`;
}

/** Facilities a neutral text may list: none that speaks of breakfast or cancellation (the terms do). */
export function listedFacilities(facilities: readonly string[] | undefined): string[] {
  return (facilities ?? []).map(oneLineText).filter((f) => f !== "" && !/breakfast|cancel|refund/i.test(f));
}

function fillNeutral(text: string, l: DescribedListing, facilities: readonly string[]): string {
  return fillSlots(
    text
      .replace("{hotelKind}", hotelKind(l.chain))
      .replace("{brand}", brand(l.chain))
      .replace("{facilities}", facilities.join(", ")),
    l,
  );
}

/** The sentences of template `template` for a listing, in order, each filled in. */
export function neutralSentences(l: DescribedListing, template: number): string[] {
  const t = NEUTRAL_TEMPLATES[template];
  if (!t) throw new RangeError(`there is no neutral template ${template}`);
  const facilities = listedFacilities(l.facilities);
  return t
    .filter(
      (s) =>
        s.when === undefined ||
        (s.when === "breakfast" && l.breakfast) ||
        (s.when === "freeCancellation" && l.freeCancellation) ||
        (s.when === "facilities" && facilities.length > 0),
    )
    .map((s) => fillNeutral(s.text, l, facilities));
}

/**
 * Sentences joined into a description of at most `max` characters: trailing sentences are left out
 * until it fits (the first always stays, cut on a word if it alone is too long).
 */
export function joinWithin(sentences: readonly string[], max = DESCRIPTION_MAX_CHARS): string {
  const kept = sentences.map(oneLineText).filter((s) => s !== "");
  while (kept.length > 1 && kept.join(" ").length > max) kept.pop();
  const text = kept.join(" ");
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(" ");
  return `${space > 0 ? head.slice(0, space) : head}…`;
}

/** The neutral description of a listing by template `template` (0-based). */
export function neutralDescription(
  l: DescribedListing,
  template: number,
  max = DESCRIPTION_MAX_CHARS,
): string {
  return joinWithin(neutralSentences(l, template), max);
}
