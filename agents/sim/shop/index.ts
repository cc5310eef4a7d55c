export { memoryOf, queryKey, type SearchDone, type SeenListing, type ShopperMemory } from "./memory.ts";
export {
  CAREFUL_BETA,
  CREDULOUS_BETA,
  CREDULOUS_CREDULITY,
  DEFAULT_SHOP_AGENTS,
  INJECTABLE_FOLLOW,
  PERSUADABLE_BETA,
  SHOP_PRESETS,
  type ShopPreset,
} from "./presets.ts";
export {
  armAsRead,
  browseSearches,
  carefulSearches,
  constraintsOf,
  INJECTION_ARMS,
  type InjectionArm,
  logitProbabilities,
  looksAcceptable,
  readsArms,
  ShopShopper,
  type ShopShopperParams,
  shopUtility,
} from "./shopper.ts";
