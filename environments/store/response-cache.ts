/**
 * The store's LLM response cache. A response is kept in memory when it arrives and written with the
 * next trials the runner writes (in their transaction), when enough wait, or when the store closes:
 * one write transaction per model call cost a SQLite store a WAL commit each (0.2 ms a call, 5% of
 * a live run's CPU) and a PostgreSQL store a round trip each. Until written, a response is found in
 * memory by this process; other runners of the run find it once it is written. A crash loses only
 * responses whose trials were not written either: asked again, never wrong.
 */
import type { CachedResponse, CacheStats, ResponseCache } from "../kernel/response-cache.ts";
import type { SqlDb } from "./sql/db.ts";

/** Responses kept unwritten at most: a long stretch without trial writes (a batch's answers) still goes out. */
const MAX_UNWRITTEN = 512;

const UPSERT = `INSERT INTO llm_cache (key, model, response, created_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (key) DO UPDATE SET model = excluded.model, response = excluded.response, created_at = excluded.created_at`;

export class StoreResponseCache implements ResponseCache {
  /** Responses not yet written, by key: [model, response JSON, when it came]. */
  private readonly unwritten = new Map<string, [string, string, string]>();

  constructor(private readonly db: SqlDb) {}

  get(key: string): CachedResponse | undefined {
    const json =
      this.unwritten.get(key)?.[1] ??
      this.db.value<string>("SELECT response FROM llm_cache WHERE key = ?", key);
    return json === undefined ? undefined : (JSON.parse(json) as CachedResponse);
  }

  put(key: string, model: string, value: CachedResponse): void {
    // Re-inserted: a key written again goes last (Map order is insertion order; the write keeps it).
    this.unwritten.delete(key);
    this.unwritten.set(key, [model, JSON.stringify(value), new Date().toISOString()]);
    if (this.unwritten.size >= MAX_UNWRITTEN) this.write();
  }

  /** Writes what waits; inside the caller's transaction when there is one. */
  write(): void {
    if (this.unwritten.size === 0) return;
    const rows = [...this.unwritten].map(([key, [model, json, at]]) => [key, model, json, at]);
    this.unwritten.clear();
    this.db.runMany(UPSERT, rows);
  }

  stats(): CacheStats {
    this.write();
    const byModel = this.db.all<{ model: string; entries: number }>(
      "SELECT model, COUNT(*) AS entries FROM llm_cache GROUP BY model ORDER BY model",
    );
    return { entries: byModel.reduce((a, b) => a + b.entries, 0), byModel };
  }

  clear(model?: string): number {
    this.write();
    return model === undefined
      ? this.db.run("DELETE FROM llm_cache").changes
      : this.db.run("DELETE FROM llm_cache WHERE model = ?", model).changes;
  }
}
