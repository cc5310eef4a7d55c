export {
  type Decision,
  MODEL_PREFIX,
  NO_CARDS_REPLY,
  SimModels,
  type SimReply,
  UNKNOWN_PROMPT_REPLY,
} from "./decide.ts";
export { checkFaults, type Fault, FaultStream } from "./faults.ts";
export { SIM_PLUGINS, type SimPlugin } from "./plugins.ts";
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
