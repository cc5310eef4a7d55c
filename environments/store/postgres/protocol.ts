/** What the store's main thread asks its PostgreSQL thread (worker.ts), one request at a time. */
import type { SqlParam } from "../sql/db.ts";

export type Request =
  | { op: "connect" }
  /**
   * One statement; `rows` asks for its rows, otherwise the number of rows it changed. `begin`: a
   * transaction starts first (sent with its first statement).
   */
  | { op: "query"; sql: string; params: SqlParam[]; rows: boolean; begin?: boolean }
  /** One statement run for each row of parameters, in order. */
  | { op: "many"; sql: string; rows: SqlParam[][]; begin?: boolean }
  /** A cursor over a long read, on a client of its own. */
  | { op: "open"; sql: string; params: SqlParam[] }
  | { op: "read"; cursor: number; size: number }
  | { op: "shut"; cursor: number }
  | { op: "end" };

export type Answer =
  | { ok: true; rows?: Record<string, unknown>[]; changes?: number; cursor?: number }
  | { ok: false; error: { message: string; code?: string; detail?: string } };
