export {
  type Bid,
  type Call,
  callsOf,
  canBid,
  candidatesOf,
  carefulCalls,
  cheapest,
  firstOfferStep,
  isCounter,
  lowestAsk,
  negotiableByPrice,
  type Pair,
  pairsOf,
  type ShopSim,
  stepsLeft,
} from "./haggler.ts";
export {
  type AnchoringPolicy,
  acceptable,
  anchoringMove,
  type HaggleMove,
  type SchedulePolicy,
  scheduleMove,
  scheduleTarget,
} from "./haggler-schedule.ts";
export { SellerPlayingHaggler, type SellerPlayingParams, sellersThatFit } from "./haggler-sellers.ts";
export { type SingleHaggleParams, SingleListingHaggler } from "./haggler-single.ts";
export { memoryOf, queryKey, type SearchDone, type SeenListing, type ShopperMemory } from "./memory.ts";
export {
  ANCHORING_HAGGLE,
  CAREFUL_BETA,
  CAREFUL_PARAMS,
  CREDULOUS_BETA,
  CREDULOUS_CREDULITY,
  DEFAULT_SHOP_AGENTS,
  HAGGLER_PRESETS,
  INJECTABLE_FOLLOW,
  ONE_SELLER_HAGGLE,
  ONE_SELLER_SCHEDULE,
  PERSUADABLE_BETA,
  SELLER_PLAYING_HAGGLE,
  SHOP_PRESETS,
  type ShopPreset,
  type ShopPresetParams,
  TALKER_PRESETS,
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
export { type AskPolicy, nextQuestion, OPEN_QUESTION, TalkingShopper, TOPIC_QUESTIONS } from "./talker.ts";
