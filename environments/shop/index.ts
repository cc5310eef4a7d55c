export {
  BookActionSchema,
  GiveUpActionSchema,
  SearchActionSchema,
  SHOP_TOOLS,
  type ShopAction,
  ShopActionSchema,
  type ShopTool,
  type ShopToolAction,
  TOOL_CALL_BATCH,
  type ToolCallBatch,
  toolCalls,
  ViewActionSchema,
} from "./actions.ts";
export { areaOf, orList } from "./areas.ts";
export {
  ARM_COVARIATES,
  type ArmCovariate,
  ATTRIBUTE_COVARIATES,
  armCovariate,
  type CodedListing,
  RANK_COVARIATES,
  rankCovariate,
  SHOP_COVARIATES,
  type ShopCovariate,
  shopCovariates,
  TREATMENT_COVARIATES,
  type TreatmentCovariate,
} from "./attributes.ts";
export {
  buildShopTasks,
  checkPoolForShop,
  DEFAULT_ARM_RATE,
  DEFAULT_FAMILY_SHARES,
  DESCRIPTION_MODES,
  type DescriptionMode,
  dominates,
  drawDescriptions,
  familyCounts,
  parseShopDesign,
  type ShopDesign,
  type ShopDesignInput,
  ShopDesignSchema,
  WISHES,
} from "./design.ts";
export { isShopNonResponse, type ShopSettings, shopEnvironment } from "./environment.ts";
export { actionLine, GRAMMAR_HINT, parseActionLines, type TextCall } from "./grammar.ts";
export { openingOf, type ShopEpisodeInput, shopConversation, shopMachine } from "./machine.ts";
export { observeShop, readRequest } from "./observe.ts";
export { AMENITY_LABEL, requestText, shopSystemPrompt } from "./prompt.ts";
export {
  type BookedRecord,
  episodeSuccess,
  type ListingRecord,
  listingRecord,
  type ShopTrialRecord,
  type ShownRecord,
  shopTrialRecord,
  TRIAL_SCHEMA,
} from "./record.ts";
export { cardLine, detailLines, resultText, SNIPPET_INDENT, tagsOf } from "./results.ts";
export { applyMessage, decodeMessage, initialState, NO_CALL_MESSAGE, outcomeOf, taskIndex } from "./rules.ts";
export {
  cardOf,
  constraintsMet,
  detailOf,
  hasAmenity,
  inPlace,
  isAdmissible,
  runSearch,
  searchQuery,
} from "./search.ts";
export * from "./types.ts";
