export { checkLibrary, checkPairs, checkStimuli, LENGTH_TOLERANCE } from "./check.ts";
export {
  DEFAULT_CUE_LIBRARY,
  DEFAULT_PRODUCT_PAIRS,
  PRICE_ONLY_CONDITION,
  runnableConditions,
  selectNames,
} from "./library.ts";
export { loadCueLibrary, loadProductPairs, parseCueLibrary, parseProductPairs } from "./load.ts";
export {
  findPersuasiveWording,
  NON_SUPERLATIVE_EST_WORDS,
  PERSUASION_KINDS,
  PERSUASIVE_RULES,
  type PersuasionKind,
  type PersuasiveHit,
  type PersuasiveRule,
} from "./persuasive.ts";
export {
  CUE_ROLES,
  type CueCondition,
  type CueEntryInput,
  CueEntrySchema,
  type CueRole,
  type CueText,
  CueTextSchema,
  PRICE_ONLY,
  type Product,
  type ProductPair,
  ProductPairSchema,
  ProductSchema,
  SLUG,
} from "./schema.ts";
export {
  allCueTexts,
  cueTextFor,
  lengthMatched,
  notOneSentence,
  oneDecimal,
  PLACEHOLDERS,
  renderSentence,
  unknownPlaceholders,
  withThousands,
  wordCount,
} from "./text.ts";
