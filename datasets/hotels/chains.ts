import { CHAIN_FAMILIES, type Chain } from "./schema.ts";

/**
 * How a hotel name maps to a chain family.
 * - `brands`: the families' brand names as they appear in hotel names (whole words).
 * - `pricebench`: the classification the PriceBench reference used in its brand analysis. Its
 *   keyword list differs from `brands` in four places: it counts "Ink 48" as Hilton, "Lotte" as
 *   Marriott and "Best Western" as Wyndham, and does not know "Autograph Collection" (so
 *   Independent). Use it to reproduce the reference's brand coefficients; it gives the reference's
 *   family for every name of the reference pool.
 */
export type ChainRule = "brands" | "pricebench";

/**
 * Brand cues per family, matched as whole words, ignoring case, accents and punctuation ("Ritz
 * Carlton" matches "Ritz-Carlton", "Le Meridien" matches "Le Méridien"). Generic English words are
 * only cues together with a word that makes them a brand ("Hampton Inn", "EVEN Hotel"), so
 * "Hampton Street Suites" stays independent.
 */
export const CHAIN_BRAND_CUES: Readonly<Record<(typeof CHAIN_FAMILIES)[number], readonly string[]>> = {
  Hilton: [
    "Hilton",
    "DoubleTree",
    "Hampton Inn",
    "Embassy Suites",
    "Homewood Suites",
    "Home2 Suites",
    "Canopy by Hilton",
    "Conrad",
    "Waldorf Astoria",
    "Tru by Hilton",
    "Tapestry Collection",
    "Curio Collection",
    "Tempo by Hilton",
    "Motto by Hilton",
    "LXR",
  ],
  Marriott: [
    "Marriott",
    "Courtyard",
    "Residence Inn",
    "Fairfield Inn",
    "SpringHill Suites",
    "TownePlace Suites",
    "Sheraton",
    "Westin",
    "W Hotel",
    "W Hotels",
    "W New York",
    "Aloft",
    "Moxy",
    "AC Hotel",
    "AC Hotels",
    "Element",
    "Four Points",
    "Le Meridien",
    "Renaissance",
    "St Regis",
    "Ritz Carlton",
    "EDITION",
    "Autograph Collection",
    "Tribute Portfolio",
    "Luxury Collection",
    "Gaylord",
    "Delta Hotels",
  ],
  IHG: [
    "InterContinental",
    "Holiday Inn",
    "Crowne Plaza",
    "Kimpton",
    "Hotel Indigo",
    "EVEN Hotel",
    "EVEN Hotels",
    "Staybridge Suites",
    "Candlewood Suites",
    "avid hotel",
    "avid hotels",
    "voco",
    "Vignette Collection",
    "Six Senses",
  ],
  Hyatt: ["Hyatt", "Andaz", "Thompson", "Alila"],
  Wyndham: [
    "Wyndham",
    "Ramada",
    "La Quinta",
    "Days Inn",
    "Super 8",
    "Travelodge",
    "Howard Johnson",
    "Baymont",
    "Microtel",
    "Wingate",
    "Hawthorn Suites",
    "Trademark Collection",
  ],
};

/** Where the PriceBench reference's keyword list classifies names differently from `brands`. */
const PRICEBENCH_EXTRA_CUES: Readonly<Partial<Record<Chain, readonly string[]>>> = {
  Hilton: ["Ink 48"],
  Marriott: ["Lotte"],
  Wyndham: ["Best Western"],
};
const PRICEBENCH_DROPPED_CUES: ReadonlySet<string> = new Set(["Autograph Collection"]);

/** Lower case, accents stripped, every run of non-letters/digits one space, padded with spaces. */
function normalizeWords(text: string): string {
  const plain = text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
  return ` ${plain} `;
}

type CueTable = readonly (readonly [Chain, string])[];

function cueTable(rule: ChainRule): CueTable {
  const table: [Chain, string][] = [];
  for (const family of CHAIN_FAMILIES) {
    const cues = [...CHAIN_BRAND_CUES[family]];
    if (rule === "pricebench") cues.push(...(PRICEBENCH_EXTRA_CUES[family] ?? []));
    for (const cue of cues) {
      if (rule === "pricebench" && PRICEBENCH_DROPPED_CUES.has(cue)) continue;
      table.push([family, normalizeWords(cue)]);
    }
  }
  return table;
}

const TABLES: Readonly<Record<ChainRule, CueTable>> = {
  brands: cueTable("brands"),
  pricebench: cueTable("pricebench"),
};

/**
 * The chain family a hotel name belongs to, or "Independent". Families are tried in the order of
 * CHAIN_FAMILIES (Hilton, Marriott, IHG, Hyatt, Wyndham), as in the reference, so a name with cues
 * of two families goes to the first.
 */
export function inferChain(name: string, rule: ChainRule = "brands"): Chain {
  const words = normalizeWords(name);
  for (const [family, cue] of TABLES[rule]) if (words.includes(cue)) return family;
  return "Independent";
}
