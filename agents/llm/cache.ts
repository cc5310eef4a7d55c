import { stableHash } from "../../environments/kernel/hash.ts";
import type { CachedResponse, CacheStats, ResponseCache } from "../../environments/kernel/response-cache.ts";

export type { CachedResponse, CacheStats, ResponseCache };

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
