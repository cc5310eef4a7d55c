export { CATALOG_MONEY, formatCatalogMoney, parseCatalogMoney } from "./catalog-money.ts";
export { DEFAULT_CATALOG_PATH, defaultPriceHistoryCatalog } from "./default-catalog.ts";
export {
  categoryCounts,
  DEFAULT_CATALOG_SEED,
  DEFAULT_CATALOG_SIZE,
  generatePriceHistoryCatalog,
  LISTED_PRICE_CEILING,
  LISTED_PRICE_FLOOR,
} from "./generate.ts";
export { loadPriceHistory, type PriceHistoryCatalog, productsFromRaw, validateProduct } from "./load.ts";
export {
  type AmazonHistoryPriceProduct,
  AmazonHistoryPriceProductSchema,
  PRICE_HISTORY_CATEGORIES,
  type PriceHistoryCategory,
  type PriceHistoryProduct,
} from "./schema.ts";
