export { CHAIN_BRAND_CUES, type ChainRule, inferChain } from "./chains.ts";
export { type CsvRecord, CsvSyntaxError, parseCsv } from "./csv.ts";
export { DEFAULT_HOTEL_POOL } from "./default-pool.ts";
export {
  DEFAULT_POOL_SEED,
  DEFAULT_POOL_SIZE,
  generateHotelPool,
  POOL_PRICE_CEILING,
  POOL_PRICE_FLOOR,
} from "./generate.ts";
export { type LoadHotelPoolOptions, loadHotelPool, parseHotelPool } from "./load.ts";
export { HOTEL_FIELDS, type HotelField, PRICEBENCH_FIELD_NAMES } from "./rows.ts";
export { CHAIN_FAMILIES, CHAINS, type Chain, type Hotel, HotelSchema } from "./schema.ts";
