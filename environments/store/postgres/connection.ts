/**
 * The store's connection to a PostgreSQL server, synchronous like SQLite's: each call posts one
 * request to the thread that owns the node-postgres client (worker.ts) and waits on a shared flag
 * (`Atomics.wait`) for its answer. The store's callers — the runner between two awaits, the live
 * log, the CLI — keep one interface for both databases, and a call never interleaves with another.
 * The wait is a loopback round trip per call; the runner writes trials in batches
 * (`runMany` sends a batch as multi-row INSERTs), so a run pays it once per batch, not per trial.
 */
import { MessageChannel, type MessagePort, receiveMessageOnPort, type Worker } from "node:worker_threads";
import { UserError } from "../../kernel/errors.ts";
import { startModuleWorker } from "../../kernel/module-worker.ts";
import type { SqlDb, SqlDialect, SqlParam, SqlRun } from "../sql/db.ts";
import type { Answer, Request } from "./protocol.ts";

/** Whether a store location names a PostgreSQL server rather than a SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** The URL without its password, for messages and listings. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return url.replace(/:\/\/([^:@/]*):[^@/]*@/, "://$1:***@");
  }
}

/** A text array path for `#>`: `'{usage,calls}'`. Keys are identifiers or indices (checked by callers). */
function pgPath(path: readonly (string | number)[]): string {
  return `'{${path.join(",")}}'`;
}

export const postgresDialect: SqlDialect = {
  name: "postgres",
  jsonNumber: (expr, path) => `((${expr})::jsonb #>> ${pgPath(path)})::double precision`,
  // jsonb against jsonb: numbers compare as numbers, strings as strings, booleans as booleans.
  jsonValue: (expr, path) => `((${expr})::jsonb #> ${pgPath(path)})`,
  jsonPlaceholder: "?::jsonb",
  // `#>>` is SQL NULL for a JSON null and for an absent key alike (as SQLite's json_extract).
  jsonIsNull: (expr, path, negate) => `((${expr})::jsonb #>> ${pgPath(path)}) IS ${negate ? "NOT " : ""}NULL`,
  jsonParam: (v) => JSON.stringify(v),
  inList: (column, negate) =>
    `${negate ? "NOT " : ""}(${column} = ANY (ARRAY(SELECT jsonb_array_elements_text(?::jsonb)::bigint)))`,
  lockSkipLocked: " FOR UPDATE SKIP LOCKED",
};

/** A PostgreSQL error, with its SQLSTATE code. */
export class PostgresError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = "PostgresError";
  }
}

/**
 * The server went away mid-command (it was stopped or restarted, the network dropped, the connection
 * was terminated): what was written stays, what was not is run again by the same command.
 */
export class StoreUnavailableError extends UserError {
  constructor(where: string, detail: string) {
    super(
      `the store at ${where} stopped answering (${detail})`,
      "every trial written before stays; run the same command again once the server is back",
    );
  }
}

/** SQLSTATE classes and messages that mean the connection, not the statement, failed. */
function isConnectionLoss(code: string | undefined, message: string): boolean {
  if (code && (/^08/.test(code) || /^57P0[123]$/.test(code))) return true;
  return /Connection terminated|not queryable|ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|socket hang up/i.test(
    message,
  );
}

/** How long a call may go unanswered before the connection is taken for lost (a lock waits 30 s at most). */
const ANSWER_DEADLINE_MS = 120_000;
/** Rows per page of an `iterate`. */
const PAGE = 1000;
/** PostgreSQL binds at most 65,535 parameters per statement. */
const MAX_PARAMS = 30_000;

/** `?` placeholders as `$1, $2, …` (the store's SQL has no `?` inside quotes). */
function positional(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** The store's DDL (written for SQLite) in PostgreSQL's types. */
function ddl(sql: string): string {
  return sql
    .replace(/\bWITHOUT ROWID\b/gi, "")
    .replace(/\bINTEGER PRIMARY KEY( AUTOINCREMENT)?\b/gi, "BIGSERIAL PRIMARY KEY")
    .replace(/\bINTEGER\b/g, "BIGINT")
    .replace(/\bREAL\b/g, "DOUBLE PRECISION");
}

/** Splits `INSERT … VALUES (?, …, ?) <tail>` so that many rows go in one statement. */
const INSERT_VALUES = /^(\s*INSERT\b[\s\S]*?\bVALUES\s*)\(([^()]*)\)([\s\S]*)$/i;

export class PostgresDb implements SqlDb {
  readonly dialect = postgresDialect;
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag: Int32Array;
  private readonly sqlCache = new Map<string, string>();
  private depth = 0;
  /** A transaction begun but not yet sent: BEGIN goes with its first statement (one round trip less). */
  private beginPending = false;
  private open = true;

  private constructor(
    readonly url: string,
    readonly readonly: boolean,
  ) {
    const shared = new SharedArrayBuffer(4);
    this.flag = new Int32Array(shared);
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = startModuleWorker(
      import.meta.url,
      { source: "./worker.ts", compiled: "postgres-worker" },
      {
        workerData: { url, flag: shared, port: port2 },
        transferList: [port2],
      },
    );
    // The process ends when its work does, connection or not.
    this.worker.unref();
    port1.unref();
  }

  /** Connects, or says why not (a UserError naming the server without its password). */
  static connect(url: string, opts: { readonly: boolean }): PostgresDb {
    const db = new PostgresDb(url, opts.readonly);
    try {
      db.call({ op: "connect" });
      if (opts.readonly)
        db.call({
          op: "query",
          sql: "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY",
          params: [],
          rows: false,
        });
    } catch (err) {
      db.close();
      throw new UserError(
        `cannot connect to the store at ${redactUrl(url)}: ${(err as Error).message}`,
        "check that the PostgreSQL server is running and the URL's user, password and database are right (README § PostgreSQL store)",
      );
    }
    return db;
  }

  get isOpen(): boolean {
    return this.open;
  }

  private call(req: Request): Answer & { ok: true } {
    if (!this.open) throw new StoreUnavailableError(redactUrl(this.url), "its connection is closed");
    if (this.beginPending && (req.op === "query" || req.op === "many")) {
      req = { ...req, begin: true };
      this.beginPending = false;
    }
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage(req);
    const deadline = Date.now() + ANSWER_DEADLINE_MS;
    // Until the flag is up, whatever woke the wait: the previous answer's notify can arrive after
    // this request was sent, and waking on it would find no answer yet.
    while (Atomics.load(this.flag, 0) === 0) {
      const left = deadline - Date.now();
      if (left <= 0) {
        this.open = false;
        void this.worker.terminate();
        throw new StoreUnavailableError(
          redactUrl(this.url),
          `no answer within ${ANSWER_DEADLINE_MS / 1000} s`,
        );
      }
      Atomics.wait(this.flag, 0, 0, Math.min(left, 1000));
    }
    const msg = receiveMessageOnPort(this.port) as { message: Answer } | undefined;
    if (!msg) throw new PostgresError("the PostgreSQL store's thread answered nothing", undefined);
    const a = msg.message;
    if (!a.ok) {
      if (isConnectionLoss(a.error.code, a.error.message)) {
        this.open = false;
        void this.worker.terminate();
        throw new StoreUnavailableError(redactUrl(this.url), a.error.message);
      }
      const detail = a.error.detail ? ` (${a.error.detail})` : "";
      throw new PostgresError(`${a.error.message}${detail}`, a.error.code);
    }
    return a;
  }

  private text(sql: string): string {
    let t = this.sqlCache.get(sql);
    if (t === undefined) {
      t = positional(sql);
      this.sqlCache.set(sql, t);
    }
    return t;
  }

  exec(sql: string): void {
    // Several runners creating the same tables at once race in PostgreSQL's catalog
    // (CREATE TABLE IF NOT EXISTS is not atomic there): one at a time, under an advisory lock.
    this.tx(() => {
      this.call({ op: "query", sql: "SELECT pg_advisory_xact_lock(2026120217)", params: [], rows: false });
      this.call({ op: "query", sql: ddl(sql), params: [], rows: false });
    });
  }

  all<T>(sql: string, ...params: SqlParam[]): T[] {
    return this.call({ op: "query", sql: this.text(sql), params, rows: true }).rows as T[];
  }

  get<T>(sql: string, ...params: SqlParam[]): T | undefined {
    return this.all<T>(sql, ...params)[0];
  }

  column<T>(sql: string, ...params: SqlParam[]): T[] {
    return this.all<Record<string, unknown>>(sql, ...params).map((r) => Object.values(r)[0] as T);
  }

  value<T>(sql: string, ...params: SqlParam[]): T | undefined {
    const r = this.get<Record<string, unknown>>(sql, ...params);
    return r === undefined ? undefined : (Object.values(r)[0] as T);
  }

  run(sql: string, ...params: SqlParam[]): SqlRun {
    return { changes: this.call({ op: "query", sql: this.text(sql), params, rows: false }).changes ?? 0 };
  }

  runMany(sql: string, rows: readonly SqlParam[][]): SqlRun {
    if (rows.length === 0) return { changes: 0 };
    const m = INSERT_VALUES.exec(sql);
    if (!m || m[3]!.includes("?"))
      return {
        changes: this.call({ op: "many", sql: this.text(sql), rows: rows as SqlParam[][] }).changes ?? 0,
      };
    // One INSERT of many rows per chunk (as many as PostgreSQL's parameter limit allows); the
    // tuple keeps its literals, its `?`s numbered on.
    const tuple = m[2]!;
    const width = rows[0]!.length;
    const per = Math.max(1, Math.floor(MAX_PARAMS / Math.max(1, width)));
    return this.tx(() => {
      let changes = 0;
      for (let i = 0; i < rows.length; i += per) {
        const chunk = rows.slice(i, i + per);
        let n = 0;
        const tuples = chunk.map(() => `(${tuple.replace(/\?/g, () => `$${++n}`)})`);
        const text = `${m[1]}${tuples.join(", ")}${m[3]}`;
        changes += this.call({ op: "query", sql: text, params: chunk.flat(), rows: false }).changes ?? 0;
      }
      return { changes };
    });
  }

  *iterate<T>(sql: string, ...params: SqlParam[]): Generator<T> {
    const { cursor } = this.call({ op: "open", sql: this.text(sql), params });
    try {
      for (;;) {
        const rows = this.call({ op: "read", cursor: cursor!, size: PAGE }).rows as T[];
        yield* rows;
        if (rows.length < PAGE) return;
      }
    } finally {
      if (this.open) this.call({ op: "shut", cursor: cursor! });
    }
  }

  tx<T>(fn: () => T): T {
    // Nested calls join the outer transaction: it commits or rolls back as a whole.
    if (this.depth > 0) {
      this.depth++;
      try {
        return fn();
      } finally {
        this.depth--;
      }
    }
    this.beginPending = true;
    this.depth = 1;
    try {
      const out = fn();
      // A transaction that sent nothing has nothing to commit.
      if (!this.beginPending) this.call({ op: "query", sql: "COMMIT", params: [], rows: false });
      return out;
    } catch (err) {
      if (this.open && !this.beginPending) {
        try {
          this.call({ op: "query", sql: "ROLLBACK", params: [], rows: false });
        } catch {
          // The connection is gone: the server rolls the transaction back itself.
        }
      }
      throw err;
    } finally {
      this.depth = 0;
      this.beginPending = false;
    }
  }

  hasTable(name: string): boolean {
    return (
      this.value(
        "SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?",
        name,
      ) !== undefined
    );
  }

  close(): void {
    if (!this.open) return;
    try {
      this.call({ op: "end" });
    } catch {
      // Closing a connection that is already gone.
    }
    this.open = false;
    void this.worker.terminate();
  }
}
