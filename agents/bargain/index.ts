export { LlmLikeNegotiator, type LlmLikeParams } from "./llm-like.ts";
export { MeteredAgent } from "./metered.ts";
export {
  extractSentence,
  LlmNarrator,
  type Narration,
  type NarrationRequest,
  type Narrator,
  namesOnlyKnownPrices,
  narratorMessages,
  TemplateNarrator,
} from "./narrator.ts";
export {
  type OfferSchedule,
  type OgDecision,
  offerAt,
  ogDecision,
  PAPER_SCHEDULE,
  parseSchedule,
  scheduleFactors,
  scheduleText,
} from "./offer-generator.ts";
export { OgNarratorBuyer } from "./og-narrator.ts";
export {
  type NegotiatorPreset,
  PLAIN_LLM_BUYER,
  PLAIN_LLM_SELLER,
  RoleSwitchingNegotiator,
  RULE_PRESETS,
  SIM_PRESETS,
} from "./presets.ts";
export {
  type BargainAgentOptions,
  bargainAgentNames,
  NARRATOR_TEMPERATURE,
  type ResolvedPlayer,
  resolveBargainPairs,
  resolveBargainPlayer,
  splitSpecs,
} from "./registry.ts";
export {
  DEFAULT_RANGE,
  priceRange,
  type RangeParams,
  TimeDependentNegotiator,
  TitForTatNegotiator,
} from "./tactics.ts";
export { talkLine } from "./talk.ts";
export { type Reading, read } from "./view.ts";
