export { LlmAgent, type LlmAgentOptions } from "./agent.ts";
export {
  type CachedResponse,
  type CacheStats,
  cacheKey,
  MemoryResponseCache,
  type ResponseCache,
} from "./cache.ts";
export { type CallResult, type ChatInvoker, ModelCaller } from "./caller.ts";
export type { CallEvents } from "./gate.ts";
export { AgentState, buildAgentGraph, type CallModel } from "./graph.ts";
export {
  backoffMs,
  CircuitBreaker,
  classifyError,
  DEFAULT_RETRY,
  RateLimiter,
  type RetryPolicy,
  sleep,
} from "./resilience.ts";
export { redact, registerSecret } from "./secrets.ts";
export { type LlmSettings, type LlmSettingsInput, LlmSettingsSchema, llmIdentity } from "./settings.ts";
export { type ActionTool, actionFromToolCall, toolsFromActions } from "./tools.ts";
