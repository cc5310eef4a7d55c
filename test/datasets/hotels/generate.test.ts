import { describe, expect, it } from "vitest";
import type { Hotel } from "../../../datasets/hotels/index.ts";
import {
  CHAINS,
  generateHotelPool,
  HotelSchema,
  inferChain,
  POOL_PRICE_CEILING,
  POOL_PRICE_FLOOR,
} from "../../../datasets/hotels/index.ts";
import { UserError } from "../../../environments/kernel/errors.ts";

const pool = generateHotelPool();

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const byStars = (f: (h: Hotel) => number): number[] =>
  [1, 2, 3, 4, 5].map((s) => mean(pool.filter((h) => h.stars === s).map(f)));
const isIncreasing = (xs: readonly number[]): boolean => xs.every((x, i) => i === 0 || x > xs[i - 1]!);
const decimals = (x: number): number => (String(x).split(".")[1] ?? "").length;

describe("generateHotelPool determinism", () => {
  it("gives an identical pool for the same seed", () => {
    expect(generateHotelPool(2026)).toEqual(pool);
    expect(generateHotelPool(11, 40)).toEqual(generateHotelPool(11, 40));
  });

  it("gives a different pool for a different seed", () => {
    const other = generateHotelPool(2027);
    expect(other).not.toEqual(pool);
    expect(other.filter((h, i) => h.name === pool[i]!.name).length).toBeLessThan(20);
  });

  it("rejects a size that is not a positive integer", () => {
    expect(() => generateHotelPool(1, 0)).toThrow(UserError);
    expect(() => generateHotelPool(1, 2.5)).toThrow(/positive integer/);
  });
});

describe("the default generated pool", () => {
  it("has 179 hotels with ids 1..179 and unique names", () => {
    expect(pool).toHaveLength(179);
    expect(pool.map((h) => h.id)).toEqual(Array.from({ length: 179 }, (_, i) => i + 1));
    expect(new Set(pool.map((h) => h.name)).size).toBe(179);
  });

  it("passes the schema on every hotel", () => {
    for (const h of pool) expect(HotelSchema.safeParse(h).success, h.name).toBe(true);
  });

  it("uses exactly 36 neighborhoods, every one of them", () => {
    expect(new Set(pool.map((h) => h.neighborhood)).size).toBe(36);
  });

  it("has all six chains, about two fifths of hotels in a chain family", () => {
    expect(new Set(pool.map((h) => h.chain))).toEqual(new Set(CHAINS));
    const chained = pool.filter((h) => h.chain !== "Independent").length / pool.length;
    expect(chained).toBeGreaterThanOrEqual(0.35);
    expect(chained).toBeLessThanOrEqual(0.45);
  });

  it("names every hotel so that inferChain finds its chain, under both rules", () => {
    for (const h of pool) {
      expect(inferChain(h.name), h.name).toBe(h.chain);
      expect(inferChain(h.name, "pricebench"), h.name).toBe(h.chain);
    }
  });

  it("spans exactly $45 to $1,650, each range 1.3–1.9× wide up to $5 rounding", () => {
    expect(Math.min(...pool.map((h) => h.priceMin))).toBe(POOL_PRICE_FLOOR);
    expect(Math.max(...pool.map((h) => h.priceMax))).toBe(POOL_PRICE_CEILING);
    expect(POOL_PRICE_FLOOR).toBe(45);
    expect(POOL_PRICE_CEILING).toBe(1650);
    for (const h of pool) {
      expect(h.priceMin).toBeGreaterThanOrEqual(45);
      expect(h.priceMax).toBeLessThanOrEqual(1650);
      expect(h.priceMax / h.priceMin, h.name).toBeGreaterThanOrEqual(1.3 - 5 / h.priceMin);
      expect(h.priceMax / h.priceMin, h.name).toBeLessThanOrEqual(1.9 + 5 / h.priceMin);
    }
  });

  it("covers every star level and prices and reviews rise with stars", () => {
    expect(new Set(pool.map((h) => h.stars))).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(isIncreasing(byStars((h) => h.priceMin))).toBe(true);
    expect(isIncreasing(byStars((h) => h.reviewScoreBase))).toBe(true);
  });

  it("keeps review scores on 6.0–9.6 with one decimal and counts whole, hundreds to ~12,000", () => {
    for (const h of pool) {
      expect(h.reviewScoreBase).toBeGreaterThanOrEqual(6);
      expect(h.reviewScoreBase).toBeLessThanOrEqual(9.6);
      expect(decimals(h.reviewScoreBase)).toBeLessThanOrEqual(1);
      expect(Number.isInteger(h.reviewCountBase)).toBe(true);
      expect(h.reviewCountBase).toBeGreaterThanOrEqual(100);
      expect(h.reviewCountBase).toBeLessThanOrEqual(12_000);
    }
    expect(Math.max(...pool.map((h) => h.reviewCountBase))).toBeGreaterThan(8000);
  });

  it("gives 1–4 distinct room types, probabilities with two decimals, and amenities", () => {
    for (const h of pool) {
      expect(h.roomTypes.length).toBeGreaterThanOrEqual(1);
      expect(h.roomTypes.length).toBeLessThanOrEqual(4);
      expect(new Set(h.roomTypes).size).toBe(h.roomTypes.length);
      for (const p of [h.freeCancellationProb, h.breakfastProb]) {
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(1);
        expect(decimals(p)).toBeLessThanOrEqual(2);
      }
      expect(h.amenities).toContain("Free WiFi");
    }
  });
});

describe("smaller and other pools", () => {
  it("generates valid pools of other sizes, using as many neighborhoods as it can", () => {
    for (const size of [1, 12, 60, 400]) {
      const small = generateHotelPool(3, size);
      expect(small).toHaveLength(size);
      for (const h of small) expect(HotelSchema.safeParse(h).success).toBe(true);
      expect(new Set(small.map((h) => h.name)).size).toBe(size);
      expect(new Set(small.map((h) => h.neighborhood)).size).toBe(Math.min(size, 36));
      for (const h of small) expect(inferChain(h.name)).toBe(h.chain);
    }
  });

  it("spans the full price range in any pool of two or more", () => {
    const p = generateHotelPool("other-seed", 20);
    expect(Math.min(...p.map((h) => h.priceMin))).toBe(45);
    expect(Math.max(...p.map((h) => h.priceMax))).toBe(1650);
  });
});
