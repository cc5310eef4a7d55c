import { describe, expect, it } from "vitest";
import {
  categoryCounts,
  generatePriceHistoryCatalog,
  LISTED_PRICE_CEILING,
  LISTED_PRICE_FLOOR,
  PRICE_HISTORY_CATEGORIES,
  productsFromRaw,
} from "../../../datasets/price-history/index.ts";
import { scenarioPrices } from "../../../environments/bargain/scenarios.ts";

const RULES = { budgetFactor: 0.8, costFactor: 1 };

describe("the generated price-history catalog", () => {
  const raw = generatePriceHistoryCatalog(2026, 300);
  const products = productsFromRaw(raw, "generated");

  it("is seeded: same seed and size ⇒ the identical catalog, another seed ⇒ another", () => {
    expect(generatePriceHistoryCatalog(2026, 300)).toEqual(raw);
    expect(generatePriceHistoryCatalog(7, 300)).not.toEqual(raw);
  });

  it("has all 18 categories in the public data set's proportions (at least 3 each)", () => {
    const counts = categoryCounts(300);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(300);
    for (const c of PRICE_HISTORY_CATEGORIES) {
      expect(counts[c]).toBeGreaterThanOrEqual(3);
      expect(products.filter((p) => p.category === c)).toHaveLength(counts[c]);
    }
    expect(counts.electronics).toBeGreaterThan(80);
    expect(counts.other).toBeGreaterThan(80);
    expect(() => categoryCounts(20)).toThrow(/at least 54 products/);
  });

  it("writes the public schema's money strings and keeps every product valid and titled uniquely", () => {
    expect(raw[0]!.list_price).toMatch(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
    expect(new Set(raw.map((p) => p.title)).size).toBe(raw.length);
    expect(products.map((p) => p.id).slice(0, 2)).toEqual(["automotive_1", "automotive_2"]);
    expect(raw.every((p) => p.link.includes(".invalid/"))).toBe(true);
  });

  it("spreads listed prices and cost ratios like the public data, with small gaps and a few CI sessions", () => {
    const prices = products.map((p) => scenarioPrices(p, RULES));
    const listed = prices.map((p) => p.listedPrice).sort((a, b) => a - b);
    expect(listed[0]).toBeGreaterThanOrEqual(LISTED_PRICE_FLOOR);
    expect(listed.at(-1)).toBeLessThanOrEqual(LISTED_PRICE_CEILING);
    const median = listed[listed.length >> 1]!;
    expect(median).toBeGreaterThan(80);
    expect(median).toBeLessThan(400);
    expect(listed.at(-1)! / listed[0]!).toBeGreaterThan(100);
    const ci = prices.filter((p) => p.interest === "CI").length;
    expect(ci).toBeGreaterThanOrEqual(6);
    expect(ci).toBeLessThanOrEqual(30);
    const gaps = prices.map((p) => p.budget - p.cost);
    expect(gaps.filter((g) => g >= 0 && g < 1).length).toBeGreaterThanOrEqual(3);
    expect(gaps.filter((g) => g < 0 && g > -1).length).toBeGreaterThanOrEqual(3);
    expect(products.filter((p) => p.hasDescription).length).toBeGreaterThan(240);
    expect(products.filter((p) => !p.hasFeatures).length).toBeGreaterThan(10);
  });
});
