export { type Decision, SimModels } from "./decide.ts";
export { checkFaults, type Fault, FaultStream } from "./faults.ts";
export { lazyModels, type SimPlugin, type SimReply, UNKNOWN_PROMPT_REPLY } from "./plugin.ts";
export {
  BARGAIN_MODEL_PREFIX,
  bargainSimPlugin,
  CUE_MODEL_PREFIX,
  choiceSimPlugin,
  cueSimPlugin,
  ELICIT_MODEL_PREFIX,
  elicitSimPlugin,
  MODEL_PREFIX,
  NO_CARDS_REPLY,
  SIM_PLUGINS,
} from "./plugins/index.ts";
export { CHOOSE_TOOL, type ChatRequest, readChatRequest } from "./request.ts";
export { startSimServer } from "./server.ts";
export {
  NO_FAULTS,
  SIM_OUTCOMES,
  type SimFaults,
  type SimOutcome,
  type SimServer,
  type SimServerOptions,
  type SimStats,
} from "./types.ts";
export { OFF_FORMAT_TEXTS } from "./wire.ts";
