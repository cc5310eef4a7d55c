/**
 * A store file that is truncated or corrupt is named as damaged, whenever SQLite notices: at open
 * (a file with SQLite's header that will not read), or in the middle of a command (a page that
 * fails to read). The guard wraps the database so every statement turns SQLite's corruption codes
 * into one UserError naming the file and how to recover, instead of an unexpected failure.
 */
import { closeSync, openSync, readSync } from "node:fs";
import type Database from "better-sqlite3";
import { UserError } from "../kernel/errors.ts";

/** SQLite's codes for a file whose pages do not read as a database. */
const DAMAGE_CODES = new Set(["SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_IOERR_SHORT_READ"]);

export function sqliteCode(err: unknown): string {
  return typeof err === "object" && err && "code" in err ? String((err as { code: unknown }).code) : "";
}

export function isDamage(err: unknown): boolean {
  const code = sqliteCode(err);
  return DAMAGE_CODES.has(code) || code.startsWith("SQLITE_CORRUPT_");
}

export class DamagedStoreError extends UserError {
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(
      `${path} is a damaged bazaar store (${detail})`,
      "move it aside and use a fresh store — the same command runs every trial again; runs exported " +
        "with `bazaar export` are whole in their JSONL files; `sqlite3 <file> .recover` may salvage the rest",
    );
  }
}

const MAGIC = Buffer.from("SQLite format 3\0", "latin1");

/** Whether the file starts with SQLite's header (or is a cut-off piece of one). */
export function hasSqliteHeader(path: string): boolean {
  const head = Buffer.alloc(MAGIC.length);
  let n = 0;
  try {
    const fd = openSync(path, "r");
    try {
      n = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
  return n > 0 && head.subarray(0, n).equals(MAGIC.subarray(0, n));
}

function guarded<T extends (...args: never[]) => unknown>(fn: T, path: string, self: unknown): T {
  return ((...args: never[]) => {
    try {
      const out = fn.apply(self, args);
      return out !== null && typeof out === "object" && Symbol.iterator in out && "next" in out
        ? guardIterator(out as Iterator<unknown> & Iterable<unknown>, path)
        : out;
    } catch (err) {
      if (isDamage(err)) throw new DamagedStoreError(path, (err as Error).message);
      throw err;
    }
  }) as T;
}

function guardIterator<I extends Iterator<unknown> & Iterable<unknown>>(it: I, path: string): I {
  const next = it.next.bind(it);
  it.next = (...args: []) => {
    try {
      return next(...args);
    } catch (err) {
      if (isDamage(err)) throw new DamagedStoreError(path, (err as Error).message);
      throw err;
    }
  };
  return it;
}

const STATEMENT_METHODS = new Set(["run", "get", "all", "iterate"]);

/** The database with every statement, transaction and pragma reporting damage as DamagedStoreError. */
export function guardDatabase(db: Database.Database, path: string): Database.Database {
  const statement = (stmt: Database.Statement) => {
    // Wrapped once per statement: the trial insert runs for every trial.
    const wrapped = new Map<string | symbol, unknown>();
    const proxy: Database.Statement = new Proxy(stmt, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (typeof value !== "function") return value;
        let fn = wrapped.get(key);
        if (!fn) {
          const method = value as (...a: never[]) => unknown;
          // Native methods need the real statement as `this`; the chainable ones (pluck, raw,
          // bind…) return it, and hand back the guarded one instead.
          const call = (...args: never[]) => {
            const out = method.apply(target, args);
            return out === target ? proxy : out;
          };
          fn = typeof key === "string" && STATEMENT_METHODS.has(key) ? guarded(call, path, undefined) : call;
          wrapped.set(key, fn);
        }
        return fn;
      },
    });
    return proxy;
  };
  return new Proxy(db, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      if (key === "prepare")
        return (...args: Parameters<Database.Database["prepare"]>) =>
          statement(guarded(target.prepare, path, target)(...args));
      if (key === "transaction")
        return (fn: (...a: never[]) => unknown) => {
          const tx = target.transaction(fn);
          // Its deferred/immediate/exclusive forms too (a claim must lock from its first read).
          return Object.assign(guarded(tx, path, undefined), {
            deferred: guarded(tx.deferred, path, undefined),
            immediate: guarded(tx.immediate, path, undefined),
            exclusive: guarded(tx.exclusive, path, undefined),
          });
        };
      if (key === "pragma" || key === "exec")
        return guarded(value as (...a: never[]) => unknown, path, target);
      return value.bind(target);
    },
  });
}
