/**
 * The OG-Narrator's narration in a shop run with offers, counted as bargaining counts it
 * (`analysis/bargain/narrator.ts`): per buyer with an LLM narrator (`og-narrator:openai:<model>`),
 * the offers its narrator worded and how many of them fell back to the template line. The shop
 * keeps the note of each offer on its negotiation move (`note`, from the message's `meta`), the
 * same note a bargaining transcript keeps, so the count reads the same text.
 */
import {
  hasLlmNarrator,
  mostlyTemplateSentence,
  type NarratorUse,
  narratorUse,
  sumNarratorUse,
} from "../bargain/narrator.ts";
import type { NegotiationEpisode } from "./negotiation-records.ts";

/**
 * One episode's narrated offers and fallbacks; null for a buyer without an LLM narrator. Every
 * buyer move is an offer the agent made (a refused offer call never becomes a move), and the
 * OG-Narrator words each one, its accepting offers included.
 */
export function episodeNarration(e: NegotiationEpisode): NarratorUse | null {
  return narratorUse({
    buyer: e.agent,
    transcript: e.negotiations.flatMap((n) =>
      n.offers
        .filter((m) => m.side === "buyer")
        .map((m) => ({ role: "buyer", action: m.move, note: m.note ?? null })),
    ),
  });
}

/** A buyer's narrated offers over its episodes; null without an LLM narrator. */
export function buyerNarration(episodes: readonly NegotiationEpisode[], buyer: string): NarratorUse | null {
  if (!hasLlmNarrator(buyer)) return null;
  return sumNarratorUse(episodes.filter((e) => e.agent === buyer).map(episodeNarration));
}

/** The sentence for a buyer most of whose offers are the template's words (null otherwise). */
export function mostlyTemplateOffers(buyer: string, u: NarratorUse | null): string | null {
  return mostlyTemplateSentence(buyer, u, "offers");
}
