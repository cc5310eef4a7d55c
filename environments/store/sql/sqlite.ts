/**
 * The store's connection to a SQLite file (better-sqlite3). Statements are prepared once per SQL
 * text and kept; every call turns SQLite's corruption codes into one DamagedStoreError naming the
 * file (damage.ts), whenever SQLite notices — at open or in the middle of a command.
 */
import Database from "better-sqlite3";
import { DamagedStoreError, isDamage } from "../damage.ts";
import type { SqlDb, SqlDialect, SqlParam, SqlRun } from "./db.ts";

/** A JSON path as SQLite's json_extract reads it: `$.a.b`, `$.a[0]`. */
function jsonPath(path: readonly (string | number)[]): string {
  return `'$${path.map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`)).join("")}'`;
}

export const sqliteDialect: SqlDialect = {
  name: "sqlite",
  jsonNumber: (expr, path) => `json_extract(${expr}, ${jsonPath(path)})`,
  jsonValue: (expr, path) => `json_extract(${expr}, ${jsonPath(path)})`,
  jsonPlaceholder: "?",
  jsonIsNull: (expr, path, negate) =>
    `json_extract(${expr}, ${jsonPath(path)}) IS ${negate ? "NOT " : ""}NULL`,
  // SQLite's json_extract gives JSON booleans as 1 and 0.
  jsonParam: (v) => (typeof v === "boolean" ? (v ? 1 : 0) : v),
  inList: (column, negate) => `${column} ${negate ? "NOT " : ""}IN (SELECT value FROM json_each(?))`,
  lockSkipLocked: "",
};

export class SqliteDb implements SqlDb {
  readonly dialect = sqliteDialect;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly plucked = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    /** The file, for the damage message. */
    private readonly path: string,
  ) {}

  /** Opens the file with a busy timeout: several runners may write one store, a writer waits up to 30 s for another's transaction. */
  static open(path: string, opts: { readonly: boolean; create: boolean }): SqliteDb {
    const db = new Database(path, { readonly: opts.readonly, fileMustExist: !opts.create, timeout: 30_000 });
    return new SqliteDb(db, path);
  }

  get readonly(): boolean {
    return this.db.readonly;
  }

  get isOpen(): boolean {
    return this.db.open;
  }

  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (isDamage(err)) throw new DamagedStoreError(this.path, (err as Error).message);
      throw err;
    }
  }

  private stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.guard(() => this.db.prepare(sql));
      this.statements.set(sql, s);
    }
    return s;
  }

  private pluckStmt(sql: string): Database.Statement {
    let s = this.plucked.get(sql);
    if (!s) {
      s = this.guard(() => this.db.prepare(sql).pluck());
      this.plucked.set(sql, s);
    }
    return s;
  }

  /** SQLite's own settings (WAL, synchronous), never sent to another database. */
  pragma(text: string): unknown {
    return this.guard(() => this.db.pragma(text));
  }

  exec(sql: string): void {
    this.guard(() => this.db.exec(sql));
  }

  all<T>(sql: string, ...params: SqlParam[]): T[] {
    return this.guard(() => this.stmt(sql).all(...params) as T[]);
  }

  get<T>(sql: string, ...params: SqlParam[]): T | undefined {
    return this.guard(() => this.stmt(sql).get(...params) as T | undefined);
  }

  column<T>(sql: string, ...params: SqlParam[]): T[] {
    return this.guard(() => this.pluckStmt(sql).all(...params) as T[]);
  }

  value<T>(sql: string, ...params: SqlParam[]): T | undefined {
    return this.guard(() => this.pluckStmt(sql).get(...params) as T | undefined);
  }

  run(sql: string, ...params: SqlParam[]): SqlRun {
    return { changes: this.guard(() => this.stmt(sql).run(...params).changes) };
  }

  runMany(sql: string, rows: readonly SqlParam[][]): SqlRun {
    if (rows.length === 0) return { changes: 0 };
    const s = this.stmt(sql);
    const all = () => {
      let changes = 0;
      for (const r of rows) changes += s.run(...r).changes;
      return { changes };
    };
    // Inside the caller's transaction as it is; on its own, a transaction of its own (one commit).
    return this.db.inTransaction ? this.guard(all) : this.tx(all);
  }

  *iterate<T>(sql: string, ...params: SqlParam[]): Generator<T> {
    // A statement of its own: one being iterated is busy, and the caller may query between rows.
    const it = this.guard(() => this.db.prepare(sql).iterate(...params) as IterableIterator<T>);
    try {
      for (;;) {
        const r = this.guard(() => it.next());
        if (r.done) return;
        yield r.value;
      }
    } finally {
      it.return?.();
    }
  }

  tx<T>(fn: () => T): T {
    // Nested calls become savepoints (better-sqlite3), so a helper can be a transaction of its own.
    return this.guard(() => this.db.transaction(fn).immediate());
  }

  hasTable(name: string): boolean {
    return this.value("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name) !== undefined;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
