export {
  LogitChooser,
  type LogitChooserParams,
  logitChoiceProbabilities,
  NEUTRAL_LOGIT,
  optionUtility,
  PositionLockedChooser,
} from "./choosers.ts";
export {
  CUE_OFF_FORMAT_REPLIES,
  CueShopper,
  type CueShopperParams,
  expectedLogistic,
  firstCardProbability,
  indexDifference,
  SentenceMatcher,
  type SentencePull,
  truePriceEquivalent,
} from "./cue.ts";
export { CUE_PRESETS, type CuePreset, equalPriceRate, resolvePreset, sdForRate } from "./cue-presets.ts";
export { CHOICE_PRESETS, type ChoicePreset } from "./presets.ts";
export {
  CONSISTENT_RESPONDENT,
  expectedAnswer,
  RESPONDENT_PRESETS,
  type RespondentParams,
  type RespondentPreset,
  SimRespondent,
  trueAnswer,
  writeAmount,
} from "./respondent.ts";
