/**
 * The personas of specs/client.md, as fixed rules (README "Clients"): what the opening states,
 * what an open question ("what matters to you?") draws out, and how many messages the client
 * answers before it asks the assistant to just book.
 *
 * - complete: the opening states every requirement and wish (the shop's request, word for word:
 *   the control); an open question draws out the trade-off; patience 3.
 * - partial: the opening states the price cap and the area, and the wishes; an open question draws
 *   out the stars; patience 4.
 * - terse: the opening says only that a room is needed, where and when; an open question draws out
 *   the price cap and the wishes; patience 6 (enough to ask every topic once after an open question).
 */
import type { PersonaName, PersonaRef, RequirementTopic, Topic } from "./types.ts";

export interface Persona {
  name: PersonaName;
  /** The requirement topics the opening states: "all" is the shop's request, word for word. */
  opening: "all" | readonly RequirementTopic[];
  /** Whether the opening names the wishes (else an open question draws them out). */
  openingWishes: boolean;
  /** What an open question draws out, besides the wishes not yet said. */
  volunteers: readonly Topic[];
  /** Messages answered; the next one gets "just book", and one after that ends the episode. */
  patience: number;
}

export const PERSONAS: Readonly<Record<PersonaName, Persona>> = {
  complete: { name: "complete", opening: "all", openingWishes: true, volunteers: ["tradeoff"], patience: 3 },
  partial: {
    name: "partial",
    opening: ["price", "area"],
    openingWishes: true,
    volunteers: ["stars"],
    patience: 4,
  },
  terse: { name: "terse", opening: [], openingWishes: false, volunteers: ["price"], patience: 6 },
};

/** The persona as the machine keeps it (name and patience). */
export function personaRef(p: Persona): PersonaRef {
  return { name: p.name, patience: p.patience };
}
