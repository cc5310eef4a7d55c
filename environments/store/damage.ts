/**
 * A store file that is truncated or corrupt is named as damaged, whenever SQLite notices: at open
 * (a file with SQLite's header that will not read), or in the middle of a command (a page that
 * fails to read). The store's SQLite connection (sql/sqlite.ts) turns SQLite's corruption codes
 * into one UserError naming the file and how to recover, instead of an unexpected failure.
 */
import { closeSync, openSync, readSync } from "node:fs";
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
