export { batchChat } from "./chat.ts";
export { type BatchApiClient, OpenAIBatchClient, type ProviderBatch } from "./client.ts";
export type { BatchCounts } from "./endpoint.ts";
export { type BatchHost, type BatchHostOptions, createBatchHost } from "./host.ts";
export type { BatchLedger, BatchRecord, BatchState, LineRecord } from "./ledger.ts";
export { type BatchLimits, OPENAI_LIMITS } from "./lines.ts";
export { preflightBatchApi } from "./preflight.ts";
