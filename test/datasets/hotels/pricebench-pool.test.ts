import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  type Chain,
  DEFAULT_HOTEL_POOL,
  inferChain,
  loadHotelPool,
  parseHotelPool,
} from "../../../datasets/hotels/index.ts";

// The real PriceBench release sits beside the repository in ../shared; a fresh clone has no such
// folder, and then these tests skip with a notice. Nothing from that file is copied here.
const poolPath = path.resolve(
  import.meta.dirname,
  "../../..",
  "../shared/datasets/pricebench/hotel_pool.json",
);
const exists = existsSync(poolPath);
if (!exists)
  console.warn(`[skip] PriceBench hotel pool not found at ${poolPath}; its loader tests are skipped.`);

/**
 * The chain family the reference's brand analysis gave each property, by id (its keyword list run
 * on the release's names); independents are the remaining ids.
 */
const REFERENCE_CHAIN_IDS: Readonly<Record<Exclude<Chain, "Independent">, readonly number[]>> = {
  Hilton: [22, 23, 39, 46, 47, 55, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 175, 176, 177],
  Marriott: [
    9, 10, 11, 12, 13, 20, 21, 30, 31, 58, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108,
    109, 110, 111, 112, 113, 114, 149, 151, 170, 171, 172, 174, 179,
  ],
  IHG: [7, 24, 25, 48, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 164],
  Hyatt: [26, 52, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124],
  Wyndham: [125, 126, 127, 128, 129],
};
/** Where the brand rule and the reference's keyword list part ways ("Ink 48", "Lotte", …). */
const BRAND_RULE_DIFFERS_AT = [31, 55, 129, 149, 173];

const referenceChain = (id: number): Chain =>
  (Object.entries(REFERENCE_CHAIN_IDS).find(([, ids]) => ids.includes(id))?.[0] as Chain) ?? "Independent";

describe("the real PriceBench hotel pool", () => {
  it.skipIf(!exists)("loads: 179 hotels in 36 neighborhoods, $45–$1,650, every chain family", () => {
    const pool = loadHotelPool(poolPath);
    expect(pool).toHaveLength(179);
    expect(new Set(pool.map((h) => h.neighborhood)).size).toBe(36);
    expect(Math.min(...pool.map((h) => h.priceMin))).toBe(45);
    expect(Math.max(...pool.map((h) => h.priceMax))).toBe(1650);
    expect(new Set(pool.map((h) => h.chain)).size).toBe(6);
  });

  it.skipIf(!exists)("gets the reference's chain family for every property", () => {
    const pool = loadHotelPool(poolPath);
    for (const h of pool) {
      expect(h.chain, `id ${h.id}`).toBe(referenceChain(h.id));
      expect(inferChain(h.name, "pricebench"), `id ${h.id}`).toBe(referenceChain(h.id));
    }
  });

  it.skipIf(!exists)("agrees with the brand rule except at the documented properties", () => {
    const pool = loadHotelPool(poolPath);
    const differ = pool.filter((h) => inferChain(h.name) !== h.chain).map((h) => h.id);
    expect(differ).toEqual(BRAND_RULE_DIFFERS_AT);
    expect(
      loadHotelPool(poolPath, { chainRule: "brands" }).filter((h) => h.chain !== referenceChain(h.id)),
    ).toHaveLength(BRAND_RULE_DIFFERS_AT.length);
  });

  it.skipIf(!exists)(
    "shares no hotel name with the generated default pool, case and punctuation aside",
    () => {
      const key = (name: string) =>
        name
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, " ")
          .trim();
      const real = new Set(loadHotelPool(poolPath).map((h) => key(h.name)));
      expect(DEFAULT_HOTEL_POOL.filter((h) => real.has(key(h.name))).map((h) => h.name)).toEqual([]);
    },
  );

  it.skipIf(!exists)("reports a broken copy of it row by row, in its own field names", () => {
    const file = JSON.parse(readFileSync(poolPath, "utf8"));
    file.hotels[4].stars = "five";
    delete file.hotels[10].name;
    const error = (() => {
      try {
        parseHotelPool(JSON.stringify(file), "copy.json");
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error?.message).toContain("copy.json, row 4, stars: expected number");
    expect(error?.message).toContain("copy.json, row 10, name: missing (required)");
  });
});
