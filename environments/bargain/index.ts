export {
  type ActionMeta,
  type BargainAction,
  BargainActionSchema,
  type BargainMoveAction,
  DealActionSchema,
  META_KEY,
  OfferActionSchema,
  QuitActionSchema,
  RejectActionSchema,
} from "./actions.ts";
export { type BargainSettings, bargainEnvironment } from "./environment.ts";
export { type Judgement, judgeAction } from "./judge.ts";
export { type BargainEpisodeInput, bargainMachine, initialBargainContext, outcomeOf } from "./machine.ts";
export { observeBargain, readIntro } from "./observe.ts";
export {
  BUYER_SYSTEM_PROMPT,
  buyerIntro,
  inventoryList,
  openingMessages,
  SELLER_SYSTEM_PROMPT,
  sellerIntro,
  systemPrompt,
} from "./prompt.ts";
export {
  type BargainTrialRecord,
  bargainTrialRecord,
  PAIR_SEPARATOR,
  splitPairLabel,
  TRIAL_SCHEMA,
} from "./record.ts";
export {
  type BargainDesign,
  type BargainDesignInput,
  BargainDesignSchema,
  buildBargainTasks,
  type ScenarioPrices,
  type ScenarioRules,
  ScenarioRulesSchema,
  scenarioPrices,
  taskFromProduct,
} from "./scenarios.ts";
export {
  ACTION_PATTERN,
  actionWord,
  oneLine,
  parseBargainReply,
  type ReplyVerdict,
  renderAction,
  renderMessage,
  renderReply,
} from "./text.ts";
export {
  BARGAIN_ROLES,
  type BargainMove,
  type BargainOutcome,
  type BargainRole,
  type BargainTask,
  BargainTaskSchema,
  type BargainView,
  BUYER,
  END_REASONS,
  type EndReason,
  INTERESTS,
  type Interest,
  MOVE_TYPES,
  type MoveType,
  SELLER,
  type SessionOutcome,
  type TranscriptEntry,
} from "./types.ts";
