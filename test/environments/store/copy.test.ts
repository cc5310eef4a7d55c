/**
 * `bazaar store copy`: runs move between stores whole — SQLite to SQLite always, and SQLite →
 * PostgreSQL → SQLite when the tests have a server — and a copy that fails half-way leaves the
 * target as it was.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { copyRuns } from "../../../environments/store/copy.ts";
import { Store, type StoredTrial } from "../../../environments/store/index.ts";
import { runCli, runInProcess, tempDir } from "../../helpers/cli.ts";
import { freshDatabase, hasPostgres } from "../../helpers/postgres.ts";

const TOTAL = 5000;

function trial(runId: string, seq: number): StoredTrial {
  return {
    runId,
    seq,
    trialKey: `k${seq}`,
    agent: "sim:a",
    taskIndex: seq % 7,
    replicate: 0,
    nonResponse: seq % 11 === 0,
    agentError: false,
    resultJson: JSON.stringify({ outcome: { seq, price: seq * 1.5 }, usage: { calls: 1 } }),
  };
}

/** A source store with two runs: 5,000 trials and a failed one, and 10 trials. */
function source(): string {
  const file = path.join(tempDir(), "source.db");
  const s = Store.open(file, { create: true });
  const tasks = Array.from({ length: 7 }, (_, i) => ({ taskId: `t${i}` }));
  s.ensureRun({ id: "big", env: "choice", config: { n: 1 }, total: TOTAL + 1 }, tasks);
  s.writeTrials(Array.from({ length: TOTAL }, (_, i) => trial("big", i)));
  s.writeTrials(
    [],
    [
      {
        runId: "big",
        seq: TOTAL,
        trialKey: "kx",
        agent: "sim:a",
        taskIndex: 0,
        replicate: 0,
        failure: { kind: "infrastructure", message: "503 after every retry" },
        turns: 0,
        usage: { calls: 3, cacheHits: 0, inputTokens: 0, outputTokens: 0, reasoningTokens: 0, latencyMs: 0 },
      },
    ],
  );
  s.ensureRun({ id: "small", env: "choice", config: { n: 2 }, total: 10 }, tasks);
  s.writeTrials(Array.from({ length: 10 }, (_, i) => trial("small", i)));
  s.responseCache().put("key1", "m", { text: "hi" } as never);
  s.close();
  return file;
}

function contents(location: string) {
  const s = Store.open(location, { create: false, readonly: true });
  try {
    return s.listRuns().map((r) => ({
      run: { ...r, updatedAt: undefined },
      tasks: s.runTasks(r.id),
      trials: [...s.trialRows(r.id)],
      failed: s.failedTrials(r.id),
    }));
  } finally {
    s.close();
  }
}

const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(drops.map((d) => d()));
});

describe("store copy", () => {
  it("copies every run whole between SQLite files, and again adds nothing", () => {
    const from = source();
    const to = path.join(tempDir(), "target.db");
    const a = Store.open(from, { create: false, readonly: true });
    const b = Store.open(to, { create: true });
    const first = copyRuns(a, b, { cache: true });
    expect(first.runs).toEqual([
      { id: "big", created: true, trials: TOTAL, added: TOTAL, failed: 1 },
      { id: "small", created: true, trials: 10, added: 10, failed: 0 },
    ]);
    expect(first.cacheEntries).toBe(1);
    expect(copyRuns(a, b, {}).runs.map((r) => [r.created, r.added])).toEqual([
      [false, 0],
      [false, 0],
    ]);
    a.close();
    b.close();
    expect(contents(to)).toEqual(contents(from));
  });

  it("a copy that fails half-way leaves the target as it was", () => {
    const from = source();
    const to = path.join(tempDir(), "target.db");
    Store.open(to, { create: true }).close();
    const db = new Database(to);
    // The 2,500th trial cannot be written (as a full disk would refuse it).
    db.exec(
      "CREATE TRIGGER full_disk BEFORE INSERT ON trials WHEN NEW.seq = 2500 BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    );
    db.close();
    const a = Store.open(from, { create: false, readonly: true });
    const b = Store.open(to, { create: false });
    expect(() => copyRuns(a, b)).toThrow(/disk full/);
    expect(b.listRuns()).toEqual([]);
    a.close();
    b.close();
  });

  it("refuses, before writing anything, a run the target has under another identity, and an unknown run", async () => {
    const from = source();
    const dir = tempDir();
    const to = path.join(dir, "target.db");
    const t = Store.open(to, { create: true });
    t.ensureRun({ id: "small", env: "choice", config: { n: 99 }, total: 10 });
    t.close();
    const clash = await runInProcess(["store", "copy", from, to]);
    expect(clash.code).toBe(2);
    expect(clash.err).toMatch(
      /run small exists in .*target\.db with a different configuration: nothing was copied/,
    );
    expect(contents(to).map((r) => r.run.id)).toEqual(["small"]);
    const unknown = await runInProcess(["store", "copy", from, to, "--run", "nope"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/no run "nope" in .*source\.db[\s\S]*runs there: big, small/);
    const notStore = path.join(dir, "notes.db");
    writeFileSync(notStore, "not a database\n".repeat(100));
    const bad = await runInProcess(["store", "copy", notStore, to]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/notes\.db is not a bazaar store/);
    const one = await runInProcess(["store", "copy", from, path.join(dir, "new.db"), "--run", "small"]);
    expect(one.code).toBe(0);
    expect(one.out).toMatch(/copied 1 run from .*source\.db to .*new\.db: 10 trials written/);
  });

  it.runIf(hasPostgres())(
    "SQLite → PostgreSQL → SQLite through the CLI keeps every run as it was; a failed copy leaves PostgreSQL as it was",
    async () => {
      const from = source();
      const db = await freshDatabase();
      drops.push(db.drop);
      const there = await runCli(["store", "copy", from, db.url, "--cache", "--json"]);
      expect(there.code, there.stderr).toBe(0);
      expect(there.stdout).not.toContain(`:${new URL(db.url).password}@`); // the password is never printed
      expect(JSON.parse(there.stdout).runs.map((r: { added: number }) => r.added)).toEqual([TOTAL, 10]);
      const back = path.join(tempDir(), "back.db");
      const home = await runCli(["store", "copy", db.url, back, "--cache"]);
      expect(home.code, home.stderr).toBe(0);
      expect(contents(back)).toEqual(contents(from));
      expect(contents(db.url)).toEqual(contents(from));

      // Half-way failure on the server: nothing of the copy stays.
      const other = await freshDatabase();
      drops.push(other.drop);
      Store.open(other.url, { create: true }).close();
      const c = new pg.Client({ connectionString: other.url });
      await c.connect();
      await c.query(`CREATE FUNCTION full_disk() RETURNS trigger AS $$
        BEGIN IF NEW.seq = 2500 THEN RAISE EXCEPTION 'disk full'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
      await c.query(
        "CREATE TRIGGER full_disk BEFORE INSERT ON trials FOR EACH ROW EXECUTE FUNCTION full_disk()",
      );
      await c.end();
      const failed = await runCli(["store", "copy", from, other.url]);
      expect(failed.code).not.toBe(0);
      expect(failed.stderr).toMatch(/disk full/);
      expect(contents(other.url)).toEqual([]);
    },
  );
});
