import { z } from "zod";

/**
 * How an LLM agent talks to its model. The identity fields (what can change an answer) enter trial
 * keys and the response cache key; the operational ones (timeouts, retries, rate limits) do not.
 */
export const LlmSettingsSchema = z.object({
  model: z.string().min(1),
  /** OpenAI-compatible endpoint; the OpenAI API when absent. */
  baseURL: z.string().url().default("https://api.openai.com/v1"),
  /**
   * An endpoint pool (`pool.ts`): every replica serving the model, `baseURL` among them (the first);
   * absent for one endpoint. Requests go to the replica with the fewest in flight.
   */
  replicas: z.array(z.string().url()).min(2).optional(),
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().gt(0).max(1).optional(),
  /** The output cap in tokens; 0 asks for none (resolved with the environment's default: `answerSettings`). */
  maxTokens: z.number().int().nonnegative().optional(),
  /** Base sampling seed, sent with every call (plus the replicate index, so replicates differ). */
  seed: z.number().int().optional(),
  reasoningEffort: z.enum(["minimal", "low", "medium", "high"]).optional(),
  /** Where the answer cap goes (`model-params.ts` sets it per model family; default as LangChain does). */
  maxTokensField: z.enum(["max_tokens", "max_completion_tokens"]).optional(),
  /** Whether calls carry a sampling seed (a model family may not take one). */
  sendSeed: z.boolean().default(true),
  /** `tools`: the environment's actions as function tools; `text`: the paper's plain-text protocol. */
  answerMode: z.enum(["tools", "text"]).default("text"),
  /** Tools mode: whether the model must call a tool; the environment's default when absent. */
  toolChoice: z.enum(["auto", "required"]).optional(),
  timeoutMs: z.number().int().positive().default(60_000),
  maxRetries: z.number().int().nonnegative().default(5),
  requestsPerMinute: z.number().positive().default(Number.POSITIVE_INFINITY),
  tokensPerMinute: z.number().positive().default(Number.POSITIVE_INFINITY),
  /**
   * Requests in flight to this model at once, across every agent that uses it: the ceiling of the
   * adaptive limiter (`adaptive.ts`), or the fixed cap without it.
   */
  concurrency: z.number().int().positive().default(16),
  /** Find the endpoint's concurrency and rate limit as the run goes (false: hold `concurrency`). */
  adaptiveConcurrency: z.boolean().default(true),
  /** Consecutive failures that pause the model, and for how long. */
  breakerThreshold: z.number().int().positive().default(8),
  breakerCooldownMs: z.number().int().nonnegative().default(30_000),
  useCache: z.boolean().default(true),
});
export type LlmSettings = z.infer<typeof LlmSettingsSchema>;
export type LlmSettingsInput = z.input<typeof LlmSettingsSchema>;

/**
 * What an answer depends on: the part of the settings that enters keys.
 *
 * A pool records itself as `baseURL: "pool"`, not its replica list: the replicas serve one model, so
 * a run resumed on another set of machines (more GPUs, one gone) is the same run and continues it.
 * One URL keeps its URL, so the runs stored before pools existed keep their ids.
 */
export function llmIdentity(s: LlmSettings): Record<string, unknown> {
  return {
    kind: "openai",
    model: s.model,
    baseURL: s.replicas ? "pool" : s.baseURL,
    temperature: s.temperature ?? null,
    topP: s.topP ?? null,
    maxTokens: s.maxTokens ?? null,
    seed: s.seed ?? null,
    reasoningEffort: s.reasoningEffort ?? null,
    answerMode: s.answerMode,
    // Only where it is sent: text-mode runs keep the identity they had before it existed.
    ...(s.answerMode === "tools" ? { toolChoice: s.toolChoice ?? "auto" } : {}),
  };
}
