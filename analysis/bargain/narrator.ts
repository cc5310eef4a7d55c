import { isNarratorFallbackNote } from "../../environments/bargain/record.ts";

/** Buyer messages an LLM narrator voiced, and how many of them fell back to the template line. */
export interface NarratorUse {
  turns: number;
  fallbacks: number;
}

/** What the count reads of a session record: the buyer's label and the transcript. */
export interface NarratorInput {
  buyer: string;
  transcript?: readonly { role: string; action: string; note?: string | null }[] | null;
}

/**
 * `og-narrator:openai:<model>` is the OG-Narrator with an LLM narrator; plain `og-narrator` is the
 * template. Only `openai:` names a narrator model (the registry refuses any other), so a label that
 * merely starts `og-narrator:` (a test's stand-in buyer) is not counted.
 */
export function hasLlmNarrator(buyer: string): boolean {
  return buyer.startsWith("og-narrator:openai:");
}

/** The model a narrator label names (`openai:<model>`), for sentences about it. */
export function narratorModel(buyer: string): string {
  return buyer.slice("og-narrator:".length);
}

/**
 * One session's narrated buyer messages and template fallbacks, from the transcript notes; null
 * for a buyer without an LLM narrator (or a record without its transcript). An invalid buyer entry
 * (an agent error) was never narrated, so it is not a turn.
 */
export function narratorUse(r: NarratorInput): NarratorUse | null {
  if (!hasLlmNarrator(r.buyer) || !Array.isArray(r.transcript)) return null;
  let turns = 0;
  let fallbacks = 0;
  for (const m of r.transcript) {
    if (m.role !== "buyer" || m.action === "invalid") continue;
    turns++;
    if (isNarratorFallbackNote(m.note)) fallbacks++;
  }
  return { turns, fallbacks };
}

/** Sums per-session counts; null when no session had an LLM narrator. */
export function sumNarratorUse(uses: Iterable<NarratorUse | null>): NarratorUse | null {
  let out: NarratorUse | null = null;
  for (const u of uses) {
    if (!u) continue;
    out ??= { turns: 0, fallbacks: 0 };
    out.turns += u.turns;
    out.fallbacks += u.fallbacks;
  }
  return out;
}

/** Above this share of template lines, a buyer's results are the template narrator's. */
export const MOSTLY_TEMPLATE = 0.5;

/**
 * What the narrator voiced: a bargaining buyer's turns (one message, one line), or a shop buyer's
 * offers (one message may carry offers to several sellers, each worded on its own).
 */
export type NarratedUnit = "turns" | "offers";

function share(u: NarratorUse): string {
  return u.turns === 0 ? "–" : `${((100 * u.fallbacks) / u.turns).toFixed(1)}%`;
}

/** "18 of 18 turns (100.0%)": template lines of the narrated turns (or offers). */
export function fallbackText(u: NarratorUse, unit: NarratedUnit = "turns"): string {
  return `${u.fallbacks} of ${u.turns} ${unit} (${share(u)})`;
}

/**
 * The plain sentence for a buyer whose narrator fell back on all or most turns (null otherwise):
 * its deal rates and profits then measure the template narrator, not the model.
 */
export function mostlyTemplateSentence(
  buyer: string,
  u: NarratorUse | null,
  unit: NarratedUnit = "turns",
): string | null {
  if (!u || u.turns === 0 || u.fallbacks / u.turns <= MOSTLY_TEMPLATE) return null;
  const model = narratorModel(buyer);
  const all = u.fallbacks === u.turns;
  const noun = unit === "turns" ? "narrator turns" : "narrated offers";
  const which = all ? `all ${u.turns} ${noun}` : `${u.fallbacks} of ${u.turns} ${noun} (${share(u)})`;
  return (
    `${buyer}: ${which} fell back to the template line (${model} gave no usable sentence), ` +
    `so these results are ${all ? "" : "mostly "}the template narrator's, not ${model}'s.`
  );
}
