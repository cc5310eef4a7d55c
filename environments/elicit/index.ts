export { AnswerActionSchema, type ElicitAction, ElicitActionSchema, ReplyActionSchema } from "./actions.ts";
export { buildElicitTasks, type ElicitDesign, type ElicitDesignInput, ElicitDesignSchema } from "./design.ts";
export { type ElicitSettings, elicitEnvironment } from "./environment.ts";
export {
  type ElicitOutcome,
  type ElicitView,
  elicitMachine,
  judgeAnswer,
  RESPONDENT,
  type ViewOffer,
  viewOf,
} from "./machine.ts";
export { type AmountVerdict, parseDollarAmount } from "./number.ts";
export { observeElicit, readElicitQuery } from "./observe.ts";
export {
  describeItem,
  ELICIT_SYSTEM_PROMPT,
  formatDollars,
  formatFeature,
  itemQuestion,
  offerPairQuestion,
  renderElicitMessages,
} from "./prompt.ts";
export {
  ELICIT_RECORD_SCHEMA,
  type ElicitTrialRecord,
  elicitTrialRecord,
  type OfferRecord,
} from "./record.ts";
export {
  COLLECTIONS,
  type Collection,
  type ElicitTask,
  ElicitTaskSchema,
  groupId,
  type ItemQueryTask,
  type OfferPairTask,
  QUERY_TYPES,
  type QueryType,
  type QueryUse,
  type ShownItem,
  type TaskOffer,
} from "./types.ts";
