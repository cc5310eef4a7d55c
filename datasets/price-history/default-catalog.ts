import path from "node:path";
import catalogFile from "./catalog.json" with { type: "json" };
import { productsFromRaw } from "./load.ts";
import type { PriceHistoryProduct } from "./schema.ts";

/** Where the committed generated catalog lives (rewritten by `bazaar datasets generate price-history`). */
export const DEFAULT_CATALOG_PATH = path.join(import.meta.dirname, "catalog.json");

let cached: PriceHistoryProduct[] | undefined;

/**
 * The default bargaining catalog: generatePriceHistoryCatalog(2026, 300) as committed in
 * catalog.json (a test keeps file and generator identical), validated on first use.
 */
export function defaultPriceHistoryCatalog(): PriceHistoryProduct[] {
  cached ??= productsFromRaw(catalogFile.products, "datasets/price-history/catalog.json");
  return cached;
}
