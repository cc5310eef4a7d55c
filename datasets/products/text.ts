/**
 * Cue sentences as they are shown: the category's text (or the "*" fallback) with the product's
 * numbers filled in. Placeholders let a number-preserving reformatting cue restate the rating the
 * card shows instead of inventing one.
 */
import type { CueText, Product } from "./schema.ts";

/** `{rating5}` → "4.4", `{rating10}` → "8.8", `{ratingCount}` → "2,318". */
export const PLACEHOLDERS = ["rating5", "rating10", "ratingCount"] as const;
const PLACEHOLDER = /\{([^{}]*)\}/g;

/** The text for a category: its own, else the "*" fallback, else null (the library lacks it). */
export function cueTextFor(text: CueText, category: string): string | null {
  if (typeof text === "string") return text;
  return text[category] ?? text["*"] ?? null;
}

/** Every text a cue has, whatever the category (for checks that apply to all of them). */
export function allCueTexts(text: CueText): string[] {
  return typeof text === "string" ? [text] : Object.values(text);
}

/** Placeholder names used in a template that bazaar does not know. */
export function unknownPlaceholders(template: string): string[] {
  const known: readonly string[] = PLACEHOLDERS;
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1] as string).filter((p) => !known.includes(p));
}

/** "1234" → "1,234". */
export function withThousands(n: number): string {
  return Math.trunc(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** One decimal, always shown: 4 → "4.0". */
export function oneDecimal(x: number): string {
  return (Math.round(x * 10) / 10).toFixed(1);
}

/** A template with the product's numbers filled in. */
export function renderSentence(template: string, product: Pick<Product, "rating" | "ratingCount">): string {
  if (!template.includes("{")) return template;
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    if (name === "rating5") return oneDecimal(product.rating);
    if (name === "rating10") return oneDecimal(product.rating * 2);
    if (name === "ratingCount") return withThousands(product.ratingCount);
    return whole;
  });
}

/** Words as a reader counts them: whitespace-separated tokens holding a letter or a digit. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** Whether two texts are length-matched: the longer has at most `tolerance` (15%) more words. */
export function lengthMatched(a: string, b: string, tolerance = 0.15): boolean {
  const [wa, wb] = [wordCount(a), wordCount(b)];
  return Math.max(wa, wb) <= (1 + tolerance) * Math.min(wa, wb) + 1e-9;
}

/**
 * Why a text is not exactly one sentence, or null. A sentence ends with . ! or ? (optionally inside a
 * closing quote) and has no sentence end followed by a capitalised word inside it.
 */
export function notOneSentence(text: string): string | null {
  const t = text.trim();
  if (!/[.!?]["”’)]?$/.test(t)) return "must end with . ! or ?";
  const inner = t.replace(/[.!?]["”’)]?$/, "");
  if (/[.!?]["”’)]?\s+["“‘(]?[A-Z]/.test(inner)) return "must be a single sentence";
  return null;
}
