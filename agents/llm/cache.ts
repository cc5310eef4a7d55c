import { stableHash } from "../../environments/kernel/hash.ts";

/** A model's answer as the cache keeps it: enough to rebuild the message the agent saw. */
export interface CachedResponse {
  content: string;
  toolCalls: { id: string; name: string; args: Record<string, unknown> }[];
  usage: { inputTokens: number; outputTokens: number; reasoningTokens: number };
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

/**
 * Everything that can change a model's answer is in the key: endpoint, model, the full message list,
 * tools and tool choice, every sampling parameter — and the replicate index, so that repeated samples
 * at temperature > 0 stay distinct instead of collapsing into one cached answer. Keys never hold a
 * secret: the API key is not an input.
 */
export function cacheKey(request: {
  baseURL: string;
  model: string;
  messages: unknown;
  tools: unknown;
  toolChoice: unknown;
  params: Record<string, unknown>;
  replicate: number;
}): string {
  return stableHash(request, 40);
}

export class MemoryResponseCache implements ResponseCache {
  private readonly entries = new Map<string, { model: string; value: CachedResponse }>();

  get(key: string): CachedResponse | undefined {
    const hit = this.entries.get(key);
    return hit ? structuredClone(hit.value) : undefined;
  }

  put(key: string, model: string, value: CachedResponse): void {
    this.entries.set(key, { model, value: structuredClone(value) });
  }

  stats(): CacheStats {
    const counts = new Map<string, number>();
    for (const { model } of this.entries.values()) counts.set(model, (counts.get(model) ?? 0) + 1);
    return {
      entries: this.entries.size,
      byModel: [...counts]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([model, entries]) => ({ model, entries })),
    };
  }

  clear(model?: string): number {
    let n = 0;
    for (const [k, v] of this.entries) {
      if (model === undefined || v.model === model) {
        this.entries.delete(k);
        n++;
      }
    }
    return n;
  }
}
