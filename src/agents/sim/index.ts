export {
  LogitChooser,
  type LogitChooserParams,
  logitChoiceProbabilities,
  NEUTRAL_LOGIT,
  optionUtility,
  PositionLockedChooser,
} from "./choosers.ts";
export { CHOICE_PRESETS, type ChoicePreset } from "./presets.ts";
