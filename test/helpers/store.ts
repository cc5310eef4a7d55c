import { existsSync } from "node:fs";
import Database from "better-sqlite3";

/** Trials stored so far in a store another process is writing (0 before the file or table exists). */
export function storedTrials(dbFile: string): number {
  if (!existsSync(dbFile)) return 0;
  try {
    const db = new Database(dbFile, { readonly: true, fileMustExist: true });
    try {
      return (db.prepare("SELECT COUNT(*) AS n FROM trials").get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0; // not created yet
  }
}
