import { mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { UserError } from "../../../environments/kernel/errors.ts";
import { Store, type StoredTrial } from "../../../environments/store/index.ts";
import { tempDir } from "../../helpers/cli.ts";

function trial(seq: number, runId = "r1"): StoredTrial {
  return {
    runId,
    seq,
    trialKey: `k${seq}`,
    agent: "sim:x",
    taskIndex: seq % 2,
    replicate: 0,
    nonResponse: seq % 2 === 0,
    agentError: false,
    resultJson: JSON.stringify({ seq }),
  };
}

describe("Store", () => {
  it("stores trials once, streams them in order and counts them per run", () => {
    const file = path.join(tempDir(), "s.db");
    const store = Store.open(file, { create: true });
    store.ensureRun({ id: "r1", env: "choice", config: { a: 1 }, total: 4 }, [
      { taskId: "t0" },
      { taskId: "t1" },
    ]);
    store.writeTrials([trial(2), trial(0)]);
    store.writeTrials([trial(0), trial(1)]); // seq 0 again: ignored, never duplicated
    expect([...store.trialRows("r1")].map((r) => [r.seq, r.task, r.result])).toEqual([
      [0, { taskId: "t0" }, { seq: 0 }],
      [1, { taskId: "t1" }, { seq: 1 }],
      [2, { taskId: "t0" }, { seq: 2 }],
    ]);
    expect(Array.from(store.doneSeqs("r1", 4))).toEqual([1, 1, 1, 0]);
    const [run] = store.listRuns();
    expect(run).toMatchObject({ id: "r1", total: 4, done: 3, nonResponses: 2 });
    store.close();
    const again = Store.open(file, { create: false, readonly: true });
    expect(again.getRun("r1")?.done).toBe(3);
    again.close();
  });

  it("refuses to reuse a run id with another configuration", () => {
    const store = Store.open(path.join(tempDir(), "s.db"), { create: true });
    store.ensureRun({ id: "r1", env: "choice", config: { a: 1 }, total: 4 });
    expect(store.ensureRun({ id: "r1", env: "choice", config: { a: 1 }, total: 4 })).toEqual({
      created: false,
    });
    expect(() => store.ensureRun({ id: "r1", env: "choice", config: { a: 2 }, total: 4 })).toThrow(
      /different configuration/,
    );
    store.close();
  });

  it("rejects a file that is not a bazaar store and leaves it untouched", () => {
    const dir = tempDir();
    const text = path.join(dir, "notes.db");
    writeFileSync(text, "this is a text file, not a database\n".repeat(50));
    const before = statSync(text).size;
    expect(() => Store.open(text, { create: true })).toThrow(/not a bazaar store/);
    expect(statSync(text).size).toBe(before);

    const other = path.join(dir, "other.db");
    const foreign = Store.open(other, { create: true });
    foreign.close();
    // A SQLite database of some other program: valid SQLite, but no bazaar marker.
    const db = new Database(path.join(dir, "foreign.db"));
    db.exec("CREATE TABLE t (x)");
    db.close();
    expect(() => Store.open(path.join(dir, "foreign.db"), { create: true })).toThrow(/not a bazaar store/);
  });

  it("says so when the store cannot be written or is missing", () => {
    expect(() => Store.open("/proc/bazaar-test/store.db", { create: true })).toThrow(UserError);
    const dir = tempDir();
    mkdirSync(path.join(dir, "folder.db"));
    expect(() => Store.open(path.join(dir, "folder.db"), { create: true })).toThrow(/is a directory/);
    expect(() => Store.open(path.join(dir, "missing.db"), { create: false })).toThrow(/no store at/);
  });
});
