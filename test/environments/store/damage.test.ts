/**
 * A damaged store is named as damaged, with the way out, whether SQLite notices at open (a
 * truncated file) or in the middle of a command (a page of the trials table that does not read);
 * a file that is not SQLite at all is still "not a bazaar store".
 */
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { DamagedStoreError } from "../../../environments/store/damage.ts";
import { Store, type StoredTrial } from "../../../environments/store/index.ts";
import { SqliteDb } from "../../../environments/store/sql/sqlite.ts";
import { runInProcess, tempDir } from "../../helpers/cli.ts";

function trials(n: number): StoredTrial[] {
  return Array.from({ length: n }, (_, seq) => ({
    runId: "r1",
    seq,
    trialKey: `k${seq}`,
    agent: "sim:x",
    taskIndex: 0,
    replicate: 0,
    nonResponse: false,
    agentError: false,
    // Enough bytes that the trials table spans many pages.
    resultJson: JSON.stringify({ seq, pad: "x".repeat(400) }),
  }));
}

/** A closed store with 2,000 trials, checkpointed into the main file (no WAL left beside it). */
function filledStore(): string {
  const file = path.join(tempDir(), "s.db");
  const store = Store.open(file, { create: true });
  store.ensureRun({ id: "r1", env: "choice", config: {}, total: 2000 }, [{ taskId: "t0" }]);
  store.writeTrials(trials(2000));
  store.close();
  const db = new Database(file);
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.pragma("journal_mode = DELETE");
  db.close();
  return file;
}

const DAMAGED = /s\.db is a damaged bazaar store \(database disk image is malformed\)/;

describe("a damaged store", () => {
  it("truncated: refused at open as damaged, with how to recover", () => {
    const file = filledStore();
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    let error: unknown;
    try {
      Store.open(file, { create: false, readonly: true });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DamagedStoreError);
    expect((error as DamagedStoreError).message).toMatch(DAMAGED);
    expect((error as DamagedStoreError).hint).toMatch(/fresh store.*bazaar export.*\.recover/);
    // Cut inside the header itself: still SQLite's header, still damaged.
    writeFileSync(file, bytes.subarray(0, 40));
    expect(() => Store.open(file, { create: true })).toThrow(DAMAGED);
  });

  it("a page of the trials table overwritten: the command that reads it says damaged", () => {
    const file = filledStore();
    const db = new Database(file, { readonly: true });
    const root = (
      db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'trials'").get() as {
        rootpage: number;
      }
    ).rootpage;
    const pageSize = db.pragma("page_size", { simple: true }) as number;
    db.close();
    const fd = openSync(file, "r+");
    writeSync(fd, Buffer.alloc(pageSize, 0xff), 0, pageSize, (root - 1) * pageSize);
    closeSync(fd);
    const store = Store.open(file, { create: false, readonly: true }); // meta still reads
    try {
      expect(() => store.listRuns()).toThrow(DAMAGED);
      expect(() => [...store.trialRows("r1")]).toThrow(DamagedStoreError);
    } finally {
      store.close();
    }
  });

  it("through the CLI: exit code 2 and the one-line message, for runs, export and analyze", async () => {
    const file = filledStore();
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 8192));
    for (const args of [["runs"], ["export", "r1"], ["analyze", "r1"]]) {
      const r = await runInProcess([...args, "--store", file]);
      expect(r.code, args[0]).toBe(2);
      expect(r.err).toMatch(DAMAGED);
      expect(r.err).toMatch(/move it aside and use a fresh store/);
    }
  });

  it("a file that is not SQLite at all is not a bazaar store, not a damaged one", () => {
    const dir = tempDir();
    const text = path.join(dir, "notes.db");
    writeFileSync(text, "these are my notes, not a database\n".repeat(200));
    expect(() => Store.open(text, { create: false })).toThrow(/notes\.db is not a bazaar store/);
    const other = path.join(dir, "other.db");
    const db = new Database(other);
    db.exec("CREATE TABLE t (a)");
    db.close();
    expect(() => Store.open(other, { create: false })).toThrow(/other\.db is not a bazaar store/);
  });

  it("the SQLite connection passes everything else through: iteration, transactions, errors", () => {
    const db = new SqliteDb(new Database(":memory:"), "mem");
    db.exec("CREATE TABLE t (a INTEGER)");
    db.tx(() => {
      for (const x of [3, 1, 2]) db.run("INSERT INTO t VALUES (?)", x);
    });
    expect(db.column("SELECT a FROM t ORDER BY a")).toEqual([1, 2, 3]);
    expect([...db.iterate<{ a: number }>("SELECT a FROM t ORDER BY a")].map((r) => r.a)).toEqual([1, 2, 3]);
    expect(() => db.all("SELECT nope FROM t")).toThrow(/no such column/);
    expect(() =>
      db.tx(() => {
        db.run("INSERT INTO t VALUES (?)", 4);
        throw new Error("boom");
      }),
    ).toThrow(/boom/);
    expect(db.value("SELECT COUNT(*) FROM t")).toBe(3);
    db.close();
  });
});
