/**
 * The structural checker every pair and every cue library goes through, shipped or user-supplied.
 * It returns every problem at once, each with the file, the 0-based entry index and the field, so a
 * user fixes a file in one pass.
 */
import type { Problem } from "../../environments/kernel/errors.ts";
import { findPersuasiveWording } from "./persuasive.ts";
import { type CueCondition, type CueText, PRICE_ONLY, type ProductPair } from "./schema.ts";
import {
  allCueTexts,
  cueTextFor,
  lengthMatched,
  notOneSentence,
  renderSentence,
  unknownPlaceholders,
  wordCount,
} from "./text.ts";

/** Descriptions of a pair may differ in length by at most this share of words (spec: ±15%). */
export const LENGTH_TOLERANCE = 0.15;

/** Families whose sentences must themselves be neutral (they stand in for "no cue"). */
const NEUTRAL_CUE_FAMILIES = new Set(["neutral", "filler"]);
/** Families whose `other` sentence is a neutral comparison sentence. */
const NEUTRAL_OTHER_FAMILIES = new Set(["control-length", "control-presence"]);

function persuasionMessage(text: string, what: string): string | null {
  const hits = findPersuasiveWording(text);
  if (hits.length === 0) return null;
  const found = hits.map((h) => `${h.kind}: "${h.match}"`).join("; ");
  return `${what} contains persuasive wording (${found}); rephrase it neutrally (the word list is in datasets/products/README.md)`;
}

function sameSpecs(a: Record<string, string>, b: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => a[k] !== b[k]);
}

/** Problems of a list of product pairs: identical facts within a pair, matched and neutral wording. */
export function checkPairs(pairs: readonly ProductPair[], file: string): Problem[] {
  const problems: Problem[] = [];
  const at = (row: number, field: string, message: string) => problems.push({ file, row, field, message });
  const seen = new Map<string, number>();
  const itemCategory = new Map<string, string>();
  pairs.forEach((pair, row) => {
    const first = seen.get(pair.pairId);
    if (first !== undefined) at(row, "pairId", `"${pair.pairId}" is already the id of entry ${first}`);
    else seen.set(pair.pairId, row);
    const owner = itemCategory.get(pair.item);
    if (owner !== undefined && owner !== pair.category) {
      at(row, "item", `"${pair.item}" already names category "${owner}"; each category needs its own item`);
    } else itemCategory.set(pair.item, pair.category);

    const [a, b] = pair.products;
    for (const key of ["price", "rating", "ratingCount"] as const) {
      if (a[key] !== b[key]) {
        at(
          row,
          `products.1.${key}`,
          `${b[key]} differs from products.0 (${a[key]}); within a pair it must be identical`,
        );
      }
    }
    for (const key of sameSpecs(a.specs, b.specs)) {
      at(
        row,
        `products.1.specs.${key}`,
        `${JSON.stringify(b.specs[key] ?? null)} differs from products.0 (${JSON.stringify(a.specs[key] ?? null)}); specifications must be identical`,
      );
    }
    if (a.name === b.name)
      at(row, "products.1.name", `both products are named "${a.name}"; give them different names`);
    if (!lengthMatched(a.description, b.description, LENGTH_TOLERANCE)) {
      at(
        row,
        "products.1.description",
        `the descriptions have ${wordCount(a.description)} and ${wordCount(b.description)} words; the longer may have at most ${LENGTH_TOLERANCE * 100}% more`,
      );
    }
    pair.products.forEach((p, j) => {
      const m = persuasionMessage(p.description, "the neutral description");
      if (m) at(row, `products.${j}.description`, m);
    });
  });
  if (pairs.length === 0) problems.push({ file, message: "there are no product pairs" });
  return problems;
}

function textProblems(text: CueText, field: string, at: (field: string, message: string) => void): void {
  const entries: [string, string][] =
    typeof text === "string" ? [[field, text]] : Object.entries(text).map(([k, t]) => [`${field}.${k}`, t]);
  for (const [where, t] of entries) {
    const sentence = notOneSentence(t);
    if (sentence) at(where, `"${t}" ${sentence}`);
    const unknown = unknownPlaceholders(t);
    if (unknown.length > 0) {
      at(where, `unknown placeholder {${unknown.join("}, {")}}; use {rating5}, {rating10} or {ratingCount}`);
    }
  }
}

/** Problems of a cue library: unique names, single sentences, neutral controls, matched lengths. */
export function checkLibrary(entries: readonly CueCondition[], file: string): Problem[] {
  const problems: Problem[] = [];
  const seen = new Map<string, number>();
  entries.forEach((c, row) => {
    const at = (field: string, message: string) => problems.push({ file, row, field, message });
    if (c.name === PRICE_ONLY) {
      at("name", `"${PRICE_ONLY}" is the built-in cue-free control; choose another name`);
    }
    const first = seen.get(c.name);
    if (first !== undefined) at("name", `"${c.name}" is already the name of entry ${first}`);
    else seen.set(c.name, row);
    if (c.cue === null) {
      at("cue", "a cue entry needs a sentence");
      return;
    }
    textProblems(c.cue, "cue", at);
    if (c.other !== null) textProblems(c.other, "other", at);
    if (c.role === "filler" && c.other !== null)
      at("other", "a filler holds one slot of one product: no other");
    if (NEUTRAL_CUE_FAMILIES.has(c.family)) {
      for (const t of allCueTexts(c.cue)) {
        const m = persuasionMessage(t, `the ${c.family} sentence`);
        if (m) at("cue", m);
      }
    }
    if (c.other !== null && NEUTRAL_OTHER_FAMILIES.has(c.family)) {
      for (const t of allCueTexts(c.other)) {
        const m = persuasionMessage(t, "the comparison sentence");
        if (m) at("other", m);
      }
    }
    if (c.family === "control-length" && c.other !== null) {
      const categories = new Set(["*", ...keysOf(c.cue), ...keysOf(c.other)]);
      for (const cat of categories) {
        const cue = cueTextFor(c.cue, cat);
        const other = cueTextFor(c.other, cat);
        if (cue && other && !lengthMatched(cue, other, LENGTH_TOLERANCE)) {
          at(
            "other",
            `a length control needs matched lengths, but the sentences have ${wordCount(cue)} and ${wordCount(other)} words${cat === "*" ? "" : ` (${cat})`}`,
          );
        }
      }
    }
    if (c.other !== null && sameTexts(c.cue, c.other)) at("other", "the two sides say the same thing");
  });
  return problems;
}

function keysOf(text: CueText): string[] {
  return typeof text === "string" ? [] : Object.keys(text);
}

function sameTexts(a: CueText, b: CueText): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Problems that only show when pairs and conditions meet: a condition with no text for a category
 * it would run in, or a cue sentence that a neutral description already contains (the sentence
 * would then not be the only difference between the products).
 */
export function checkStimuli(
  pairs: readonly ProductPair[],
  conditions: readonly CueCondition[],
  file: string,
): Problem[] {
  const problems: Problem[] = [];
  const categories = [...new Set(pairs.map((p) => p.category))];
  conditions.forEach((c, row) => {
    for (const [field, text] of [
      ["cue", c.cue],
      ["other", c.other],
    ] as const) {
      if (text === null) continue;
      for (const category of categories) {
        const t = cueTextFor(text, category);
        if (t === null) {
          problems.push({
            file,
            row,
            field,
            message: `"${c.name}" has no text for category "${category}"; add a "${category}" or "*" entry`,
          });
          continue;
        }
        for (const pair of pairs) {
          if (pair.category !== category) continue;
          const sentence = renderSentence(t, pair.products[0]);
          const inside = pair.products.findIndex((p) => p.description.includes(sentence));
          if (inside >= 0) {
            problems.push({
              file,
              row,
              field,
              message: `"${sentence}" already appears in the description of ${pair.pairId} product ${inside}`,
            });
          }
        }
      }
    }
  });
  return problems;
}
