export { memoryOf, queryKey, type SearchDone, type SeenListing, type ShopperMemory } from "./memory.ts";
export { CAREFUL_BETA, DEFAULT_SHOP_AGENTS, SHOP_PRESETS, type ShopPreset } from "./presets.ts";
export {
  carefulSearches,
  constraintsOf,
  logitProbabilities,
  looksAcceptable,
  ShopShopper,
  type ShopShopperParams,
  shopUtility,
} from "./shopper.ts";
