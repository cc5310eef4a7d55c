/**
 * The LLM response cache as the store keeps it and the LLM agent reads it: the store implements the
 * interface and agents use it, neither importing the other.
 */

/** A model's answer as the cache keeps it: enough to rebuild the message the agent saw. */
export interface CachedResponse {
  content: string;
  toolCalls: { id: string; name: string; args: Record<string, unknown> }[];
  /** `cachedInputTokens`: the prompt tokens the provider's own prompt cache served (absent: none said). */
  usage: { inputTokens: number; outputTokens: number; reasoningTokens: number; cachedInputTokens?: number };
  finishReason: string | null;
}

export interface CacheStats {
  entries: number;
  byModel: { model: string; entries: number }[];
}

/**
 * Where model responses are kept between runs. The SQLite store implements it for real runs and a
 * Map for tests; both pass the same conformance tests, so another backend can be swapped in.
 */
export interface ResponseCache {
  get(key: string): CachedResponse | undefined;
  put(key: string, model: string, value: CachedResponse): void;
  stats(): CacheStats;
  /** Removes entries (of one model, or all); returns how many. */
  clear(model?: string): number;
}
