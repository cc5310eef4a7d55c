/**
 * The one connection every part of the store talks through, whichever database holds it: SQLite
 * (an embedded file) or PostgreSQL (a server several machines share). The store's SQL is written
 * once, in the subset both speak — `?` placeholders, `INSERT … ON CONFLICT`, `RETURNING`, quoted
 * camel-case aliases (PostgreSQL folds unquoted names to lower case) — and the few places where the
 * two differ (JSON paths, a list parameter, row locks) go through `SqlDialect`.
 *
 * The interface is synchronous, as better-sqlite3 is: the runner, the live log and the CLI read and
 * write the store between two awaits and never see a half-done call. The PostgreSQL connection
 * keeps that shape by waiting on a worker thread that owns the client (postgres/connection.ts).
 */

/** A value bound to a `?`. */
export type SqlParam = string | number | null;

export interface SqlDialect {
  readonly name: "sqlite" | "postgres";
  /**
   * A JSON value at `path` (`["usage", "calls"]`) inside the JSON text of `expr`, as a number (SQL
   * NULL when absent), for sums.
   */
  jsonNumber(expr: string, path: readonly (string | number)[]): string;
  /** The JSON value at `path` of `expr`, comparable with another such value or with `jsonPlaceholder`. */
  jsonValue(expr: string, path: readonly (string | number)[]): string;
  /** The `?` a JSON value is compared with, bound to `jsonParam(value)`. */
  readonly jsonPlaceholder: string;
  /** The JSON value at `path` of `expr` is (not) null or absent. */
  jsonIsNull(expr: string, path: readonly (string | number)[], negate: boolean): string;
  /** The parameter bound at `jsonPlaceholder` for a JSON value. */
  jsonParam(value: string | number | boolean | null): SqlParam;
  /** `column IN (…)` (or NOT IN) over one `?` bound to a JSON array of numbers (`JSON.stringify(list)`). */
  inList(column: string, negate?: boolean): string;
  /** Appended to a SELECT inside a write transaction: lock the rows it returns, skipping those another transaction holds. */
  readonly lockSkipLocked: string;
}

export interface SqlRun {
  changes: number;
}

export interface SqlDb {
  readonly dialect: SqlDialect;
  readonly readonly: boolean;
  readonly isOpen: boolean;
  /** Statements without parameters (DDL), `;`-separated. */
  exec(sql: string): void;
  all<T>(sql: string, ...params: SqlParam[]): T[];
  get<T>(sql: string, ...params: SqlParam[]): T | undefined;
  /** The first column of every row. */
  column<T>(sql: string, ...params: SqlParam[]): T[];
  /** The first column of the first row. */
  value<T>(sql: string, ...params: SqlParam[]): T | undefined;
  run(sql: string, ...params: SqlParam[]): SqlRun;
  /** One statement for many rows of parameters, in one call (one round trip on a server). */
  runMany(sql: string, rows: readonly SqlParam[][]): SqlRun;
  /** Rows one at a time, in constant memory whatever their number. */
  iterate<T>(sql: string, ...params: SqlParam[]): Iterable<T>;
  /**
   * A write transaction (SQLite: `BEGIN IMMEDIATE`, holding the write lock from its first read;
   * PostgreSQL: `BEGIN`, with row locks where the SQL asks). Rolled back when `fn` throws.
   */
  tx<T>(fn: () => T): T;
  hasTable(name: string): boolean;
  close(): void;
}
