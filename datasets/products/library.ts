/**
 * The shipped stimuli (pairs.json, cues.json — validated and checked on load, exactly as a user's
 * files are) and the conditions of a run: the library's entries plus the cue-free price-only control.
 */
import { UserError } from "../../environments/kernel/errors.ts";
import cuesFile from "./cues.json" with { type: "json" };
import { parseCueLibrary, parseProductPairs } from "./load.ts";
import pairsFile from "./pairs.json" with { type: "json" };
import { type CueCondition, PRICE_ONLY, type ProductPair } from "./schema.ts";

export const DEFAULT_PRODUCT_PAIRS: readonly ProductPair[] = parseProductPairs(
  JSON.stringify(pairsFile),
  "datasets/products/pairs.json",
);

export const DEFAULT_CUE_LIBRARY: readonly CueCondition[] = parseCueLibrary(
  JSON.stringify(cuesFile),
  "datasets/products/cues.json",
);

/** The cue-free control: identical products, the "cued" one is the one whose price is raised. */
export const PRICE_ONLY_CONDITION: CueCondition = {
  name: PRICE_ONLY,
  version: 1,
  family: "control-price",
  intensity: null,
  role: "condition",
  cue: null,
  other: null,
  note: "no sentence on either product: reads the agent's price sensitivity and position bias",
};

/** A library's runnable conditions (fillers excluded) followed by the price-only control. */
export function runnableConditions(library: readonly CueCondition[]): CueCondition[] {
  return [...library.filter((c) => c.role === "condition"), PRICE_ONLY_CONDITION];
}

function globToRegExp(pattern: string): RegExp {
  const body = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`);
}

/**
 * The names matching comma-separated names or globs (`social-proof-*`), in the order `names` lists
 * them. A pattern that matches nothing is an error naming what exists.
 */
export function selectNames(patterns: readonly string[], names: readonly string[], what: string): string[] {
  const chosen = new Set<string>();
  for (const pattern of patterns) {
    const re = globToRegExp(pattern);
    const hits = names.filter((n) => re.test(n));
    if (hits.length === 0) {
      throw new UserError(`no ${what} matches "${pattern}"`, `${what}s: ${names.join(", ")}`);
    }
    for (const h of hits) chosen.add(h);
  }
  return names.filter((n) => chosen.has(n));
}
