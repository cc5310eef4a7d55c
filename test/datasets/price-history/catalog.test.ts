import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_CATALOG_PATH,
  DEFAULT_CATALOG_SEED,
  DEFAULT_CATALOG_SIZE,
  defaultPriceHistoryCatalog,
  generatePriceHistoryCatalog,
  loadPriceHistory,
} from "../../../datasets/price-history/index.ts";

describe("the committed default catalog", () => {
  it("equals the generator's output (regenerate with npx bazaar datasets generate price-history --out …)", () => {
    const file = JSON.parse(readFileSync(DEFAULT_CATALOG_PATH, "utf8"));
    expect(file.seed).toBe(DEFAULT_CATALOG_SEED);
    expect(file.size).toBe(DEFAULT_CATALOG_SIZE);
    expect(file.products).toEqual(generatePriceHistoryCatalog());
  });

  it("loads through the user-file loader exactly as the default catalog", () => {
    const loaded = loadPriceHistory(DEFAULT_CATALOG_PATH);
    expect(loaded.products).toEqual(defaultPriceHistoryCatalog());
    expect(loaded.files).toEqual([{ file: DEFAULT_CATALOG_PATH, products: DEFAULT_CATALOG_SIZE }]);
  });
});
