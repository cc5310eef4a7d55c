export {
  DEFAULT_MARKET_BUYER,
  DEFAULT_MARKET_SELLER,
  SELLER_NAMES,
  type SellerName,
  STATIC_SELLER,
} from "./names.ts";
export { SELLER_PRESETS, type SellerPreset } from "./presets.ts";
export {
  armDescription,
  armOf,
  armResults,
  BANDIT_ARMS,
  banditOrder,
  comparable,
  cueBanditSeller,
  INJECTION_ARMS,
  injectorSeller,
  SimSeller,
  SLOPPY_CALL,
  sloppySeller,
  startingText,
  staticSeller,
  UNDERCUT_SHARE,
  undercutPrice,
  undercutSeller,
} from "./sellers.ts";
