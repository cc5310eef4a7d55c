export { type CueAction, CueActionSchema, CueChooseActionSchema, CueReplyActionSchema } from "./actions.ts";
export { parseCuePrompt, type ReadCuePrompt } from "./cards.ts";
export {
  ADDITIVITY_CUES,
  ADDITIVITY_GRID,
  buildCueTasks,
  CUE_GRID,
  type CueDesign,
  type CueDesignInput,
  CueDesignSchema,
  callsPerState,
  PARAPHRASE_CONDITIONS,
} from "./design.ts";
export { type CueSettings, cueEnvironment } from "./environment.ts";
export {
  CUE_SHOPPER,
  type CueEpisodeInput,
  type CueOutcome,
  type CueView,
  cueMachine,
  shownCard,
} from "./machine.ts";
export { observeCue } from "./observe.ts";
export {
  CUE_INSTRUCTIONS,
  CUE_SYSTEM_PROMPT,
  type CueInstruction,
  formatRatingLine,
  formatUsd,
  renderCard,
  renderCueMessages,
} from "./prompt.ts";
export { CUE_TRIAL_SCHEMA, type CueTrialRecord, cueTrialRecord } from "./record.ts";
export {
  CUE_BLOCKS,
  CUE_LETTERS,
  type CueBlock,
  type CueCard,
  CueCardSchema,
  type CueOption,
  CueOptionSchema,
  type CueTask,
  CueTaskSchema,
  PRODUCT_SIDES,
  type ProductSide,
} from "./types.ts";
