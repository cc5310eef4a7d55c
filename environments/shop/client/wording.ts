/**
 * What a simulated client says, in fixed sentences: the opening of each persona and one answer per
 * topic from the profile. `reader.ts` reads exactly these back (and, as well as rules can, an LLM
 * client's own words); change a sentence in both places.
 */
import { formatPrice } from "../../choice/prompt.ts";
import { formatUsd } from "../../kernel/money.ts";
import { orList } from "../areas.ts";
import { AMENITY_LABEL, REQUEST_OPENING, requestText, requirementLines } from "../prompt.ts";
import type { HardConstraints } from "../types.ts";
import type { Persona } from "./personas.ts";
import type { ClientUtility, RequirementTopic, Topic } from "./types.ts";

/** How a partial or terse client ends its opening: it has not said everything. */
export const CLIENT_CLOSING =
  "Ask me what you need to know, then book the listing that suits me best among those meeting every requirement; if none does, give up and tell me why.";

/** The machine's line once the client's patience has run out (it answers nothing new after it). */
export const JUST_BOOK = "Please just book something now; I have nothing to add.";
export const NOT_SURE = "I'm not sure what you are asking.";
export const NOTHING_TO_ADD = "I have told you what matters to me.";
/** What the shopper reads when the client gave no usable reply. */
export const NO_REPLY = "(The client did not reply.)";

const NO_PREFERENCE: Readonly<Record<RequirementTopic, string>> = {
  price: "price",
  stars: "stars",
  area: "the area",
  free_cancellation: "free cancellation",
  breakfast: "breakfast",
};

export function noPreference(t: RequirementTopic): string {
  return `I have no preference on ${NO_PREFERENCE[t]}.`;
}

/** The opening line of a stated requirement topic in a partial opening ("- Price: no preference" when none). */
function openingLine(t: RequirementTopic, c: HardConstraints): string[] {
  const only: HardConstraints = { maxPrice: null, minStars: null, areas: null, amenities: [] };
  if (t === "price") only.maxPrice = c.maxPrice;
  if (t === "stars") only.minStars = c.minStars;
  if (t === "area") only.areas = c.areas;
  if (t === "free_cancellation" || t === "breakfast") only.amenities = c.amenities.filter((a) => a === t);
  const lines = requirementLines(only);
  if (lines.length > 0) return lines;
  const label = t === "price" ? "Price" : t === "stars" ? "Stars" : t === "area" ? "Area" : "Must have";
  return t === "free_cancellation" || t === "breakfast" ? [] : [`- ${label}: no preference`];
}

/** The persona's first message. */
export function openingText(p: Persona, c: HardConstraints, wishes: readonly string[]): string {
  if (p.opening === "all") return requestText(c, wishes);
  const lines = p.opening.flatMap((t) => openingLine(t, c));
  return [
    REQUEST_OPENING,
    ...(lines.length > 0 ? ["Requirements:", ...lines] : []),
    ...(p.openingWishes && wishes.length > 0 ? [wishesLine(wishes)] : []),
    CLIENT_CLOSING,
  ].join("\n");
}

export function wishesLine(wishes: readonly string[]): string {
  return `Nice to have: ${wishes.join("; ")}.`;
}

/** The trade-off: what quality, and the amenities and areas it does not require, are worth to it. */
function tradeoffText(u: ClientUtility, c: HardConstraints): string {
  const out = [
    `Each point of guest rating is worth ${formatUsd(u.review)} a night to me, and each star ${formatUsd(u.stars)}.`,
  ];
  for (const a of ["free_cancellation", "breakfast"] as const) {
    const w = u.amenities[a];
    if (w > 0 && !c.amenities.includes(a))
      out.push(`${capitalize(AMENITY_LABEL[a])} is worth ${formatUsd(w)} a night to me.`);
  }
  // Every area worth something, even the one acceptable area: the sentence is true, and it lets the
  // weights be read back whole (serve-sim's client reads them off the LLM client's prompt).
  for (const [area, w] of Object.entries(u.areas))
    if (w > 0) out.push(`Being in ${area} is worth ${formatUsd(w)} a night to me.`);
  return out.join(" ");
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The client's answer on one topic, from its profile. */
export function topicAnswer(t: Topic, c: HardConstraints, u: ClientUtility): string {
  switch (t) {
    case "price":
      return c.maxPrice === null
        ? noPreference(t)
        : `My budget is at most ${formatPrice(c.maxPrice)} a night.`;
    case "stars":
      return c.minStars === null ? noPreference(t) : `I need at least ${c.minStars} stars.`;
    case "area":
      return c.areas === null ? noPreference(t) : `It has to be in ${orList(c.areas)}.`;
    case "free_cancellation":
    case "breakfast":
      return c.amenities.includes(t) ? `${capitalize(AMENITY_LABEL[t])} is a must.` : noPreference(t);
    case "tradeoff":
      return tradeoffText(u, c);
  }
}
