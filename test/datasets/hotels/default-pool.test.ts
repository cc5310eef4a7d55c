import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_HOTEL_POOL,
  DEFAULT_POOL_SEED,
  DEFAULT_POOL_SIZE,
  generateHotelPool,
  loadHotelPool,
} from "../../../datasets/hotels/index.ts";

const poolPath = path.resolve(import.meta.dirname, "../../../datasets/hotels/pool.json");

describe("the committed default pool", () => {
  it("equals generateHotelPool() exactly (regenerate with npx tsx scripts/generate-hotels.ts)", () => {
    const file = JSON.parse(readFileSync(poolPath, "utf8"));
    expect(file.seed).toBe(DEFAULT_POOL_SEED);
    expect(file.size).toBe(DEFAULT_POOL_SIZE);
    expect(file.hotels).toEqual(generateHotelPool());
  });

  it("is what DEFAULT_HOTEL_POOL holds", () => {
    expect(DEFAULT_HOTEL_POOL).toEqual(generateHotelPool(DEFAULT_POOL_SEED, DEFAULT_POOL_SIZE));
  });

  it("loads through the user-file loader unchanged", () => {
    expect(loadHotelPool(poolPath)).toEqual(DEFAULT_HOTEL_POOL);
  });
});
