import { existsSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import { UserError } from "../kernel/errors.ts";
import type { FailureRecord } from "../kernel/failures.ts";
import type { CachedResponse, ResponseCache } from "../kernel/response-cache.ts";
import type { Usage } from "../kernel/types.ts";
import { DamagedStoreError, guardDatabase, hasSqliteHeader, isDamage, sqliteCode } from "./damage.ts";

/** Marks a SQLite file as a bazaar store; the number changes when the layout does. */
const FORMAT = "bazaar-store";
const SCHEMA_VERSION = 1;

export interface RunInfo {
  id: string;
  env: string;
  /** The run's identity: design, agents, replicates (canonical JSON). */
  config: unknown;
  /** Trials in the full run (a `--limit` only runs a prefix of them). */
  total: number;
}

export interface RunSummary {
  id: string;
  env: string;
  createdAt: string;
  updatedAt: string;
  total: number;
  done: number;
  nonResponses: number;
  /** Trials whose agent could not act (infrastructure), not among `done`: the same run re-runs them. */
  failed: number;
  agents: string[];
  config: unknown;
}

/** One finished trial as the runner hands it to the store. */
export interface StoredTrial {
  runId: string;
  seq: number;
  trialKey: string;
  agent: string;
  /** Index of the trial's task in the run's task list (the task itself is stored once per run). */
  taskIndex: number;
  replicate: number;
  nonResponse: boolean;
  /** An agent failed to act (a model error after retries): `run --retry-errors` redoes these. */
  agentError: boolean;
  /** What happened: the episode's outcome (transcript included) and usage, serialised once. */
  resultJson: string;
}

/**
 * A trial whose agent could not act for a reason outside its answer (a timeout or 5xx after every
 * retry): missing data, kept apart from the trials so no estimate or non-response rate sees it, and
 * run again by the next identical command (which replaces it with the finished trial).
 */
export interface FailedTrial {
  runId: string;
  seq: number;
  trialKey: string;
  agent: string;
  taskIndex: number;
  replicate: number;
  failure: FailureRecord;
  /** Turns played before the failure. */
  turns: number;
  usage: Usage;
}

/** A stored trial read back: the pieces from which an environment builds the trial record. */
export interface TrialRow {
  seq: number;
  trialKey: string;
  agent: string;
  replicate: number;
  task: unknown;
  result: unknown;
}

/** A stored trial as one page of `trialPage` returns it: raw JSON text, parsed by the caller. */
export interface TrialPageRow {
  seq: number;
  trialKey: string;
  agent: string;
  replicate: number;
  taskIndex: number;
  nonResponse: 0 | 1;
  agentError: 0 | 1;
  result: string;
  task: string;
}

/** A compiled filter over `trials t JOIN tasks k` (see `trialWhere` in trial-pages.ts). */
export interface TrialWhere {
  sql: string;
  params: (string | number | null)[];
}

const DDL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY,
  env TEXT NOT NULL,
  config TEXT NOT NULL,
  total INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS llm_cache (
  key TEXT PRIMARY KEY,
  model TEXT NOT NULL,
  response TEXT NOT NULL,
  created_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tasks (
  run_id TEXT NOT NULL,
  task_index INTEGER NOT NULL,
  task_id TEXT NOT NULL,
  task TEXT NOT NULL,
  PRIMARY KEY (run_id, task_index)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS failed_trials (
  run_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  trial_key TEXT NOT NULL,
  agent TEXT NOT NULL,
  task_index INTEGER NOT NULL,
  replicate INTEGER NOT NULL,
  kind TEXT NOT NULL,
  error TEXT NOT NULL,
  turns INTEGER NOT NULL,
  usage TEXT NOT NULL,
  failed_at TEXT NOT NULL,
  PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS trials (
  run_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  trial_key TEXT NOT NULL,
  agent TEXT NOT NULL,
  task_index INTEGER NOT NULL,
  replicate INTEGER NOT NULL,
  non_response INTEGER NOT NULL,
  agent_error INTEGER NOT NULL,
  result TEXT NOT NULL,
  PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
`;

/**
 * The workspace store: one SQLite file (WAL) holding runs, their tasks (once per run, not once per
 * trial: a task is most of a trial record's bytes) and trials. Every batch of trials is one
 * transaction, so a killed process leaves whole trials or none; `INSERT OR IGNORE` on the trial's
 * (run, seq) key means a resumed run can never store a trial twice.
 */
export class SqliteStore {
  private readonly insertTrial: Database.Statement;
  private readonly insertMany: (rows: StoredTrial[], failed: FailedTrial[]) => void;
  /** Stores written before failed trials were kept apart have no such table (read-only opens). */
  private readonly hasFailedTable: boolean;
  private readonly extensions = new Map<string, unknown>();

  private constructor(
    readonly path: string,
    private readonly db: Database.Database,
  ) {
    this.hasFailedTable =
      db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'failed_trials'").get() !==
      undefined;
    this.insertTrial = db.prepare(
      "INSERT OR IGNORE INTO trials (run_id, seq, trial_key, agent, task_index, replicate, non_response, agent_error, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const touch = db.prepare("UPDATE runs SET updated_at = ? WHERE id = ?");
    const write = this.hasFailedTable ? SqliteStore.failedWriters(db) : null;
    // A write transaction from its first read: several runners write one store, and a read that
    // turns into a write in a deferred transaction fails at once (SQLITE_BUSY) when another wrote.
    this.insertMany = db.transaction((rows: StoredTrial[], failed: FailedTrial[]) => {
      // A trial that failed before and has now finished leaves the failed list (checked once a batch).
      const clear = write !== null && rows.length > 0 && write.anyFailed(rows[0]!.runId);
      for (const r of rows) {
        this.insertTrial.run(
          r.runId,
          r.seq,
          r.trialKey,
          r.agent,
          r.taskIndex,
          r.replicate,
          r.nonResponse ? 1 : 0,
          r.agentError ? 1 : 0,
          r.resultJson,
        );
        if (clear) write.clear(r.runId, r.seq);
      }
      if (failed.length > 0) {
        if (!write) throw new Error("this store cannot keep failed trials (opened read-only)");
        const now = new Date().toISOString();
        for (const f of failed) write.put(f, now);
      }
      const first = rows[0] ?? failed[0];
      if (first) touch.run(new Date().toISOString(), first.runId);
    }).immediate;
  }

  private static failedWriters(db: Database.Database) {
    const any = db.prepare("SELECT EXISTS (SELECT 1 FROM failed_trials WHERE run_id = ?)").pluck();
    const clear = db.prepare("DELETE FROM failed_trials WHERE run_id = ? AND seq = ?");
    // Never over a finished trial: a failed attempt of a trial another process finished is moot.
    const put = db.prepare(
      `INSERT OR REPLACE INTO failed_trials
         (run_id, seq, trial_key, agent, task_index, replicate, kind, error, turns, usage, failed_at)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
        WHERE NOT EXISTS (SELECT 1 FROM trials WHERE run_id = ? AND seq = ?)`,
    );
    return {
      anyFailed: (runId: string) => any.get(runId) === 1,
      clear: (runId: string, seq: number) => clear.run(runId, seq),
      put: (f: FailedTrial, now: string) =>
        put.run(
          f.runId,
          f.seq,
          f.trialKey,
          f.agent,
          f.taskIndex,
          f.replicate,
          f.failure.kind,
          JSON.stringify(f.failure),
          f.turns,
          JSON.stringify(f.usage),
          now,
          f.runId,
          f.seq,
        ),
    };
  }

  /**
   * Opens (and with `create`, makes) a store. A file that exists but is not a bazaar store, or a
   * path that cannot be written, is a UserError — checked before anything is written.
   */
  static open(path: string, opts: { create: boolean; readonly?: boolean }): SqliteStore {
    const exists = existsSync(path);
    if (!exists && !opts.create) {
      throw new UserError(
        `no store at ${path}`,
        "run an experiment first, or point --store at an existing store",
      );
    }
    if (exists && statSync(path).isDirectory()) {
      throw new UserError(
        `the store path ${path} is a directory`,
        "give --store a file path such as ./bazaar.db",
      );
    }
    const isNew = !exists || statSync(path).size === 0;
    let db: Database.Database;
    try {
      db = guardDatabase(
        // Several runners may write one store: a writer waits up to 30 s for another's transaction.
        new Database(path, {
          readonly: opts.readonly === true && exists,
          fileMustExist: !opts.create,
          timeout: 30_000,
        }),
        path,
      );
    } catch (err) {
      throw new UserError(
        `cannot open the store at ${path}: ${(err as Error).message}`,
        "check that the folder exists and is writable, or choose another path with --store",
      );
    }
    try {
      if (!isNew) SqliteStore.checkFormat(db, path);
      if (!opts.readonly) {
        db.pragma("journal_mode = WAL");
        db.pragma("synchronous = NORMAL");
        db.exec(DDL);
        const put = db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)");
        put.run("format", FORMAT);
        put.run("schemaVersion", String(SCHEMA_VERSION));
      }
      return new SqliteStore(path, db);
    } catch (err) {
      db.close();
      if (err instanceof UserError) throw err;
      const code = sqliteCode(err);
      if (code === "SQLITE_READONLY" || code === "SQLITE_CANTOPEN" || code === "SQLITE_IOERR_WRITE") {
        throw new UserError(
          `cannot write the store at ${path} (${code})`,
          "choose a writable path with --store",
        );
      }
      throw err;
    }
  }

  private static checkFormat(db: Database.Database, path: string): void {
    const notStore = new UserError(
      `${path} is not a bazaar store`,
      "point --store at a file bazaar created, or at a new path",
    );
    let row: { value: string } | undefined;
    try {
      row = db.prepare("SELECT value FROM meta WHERE key = 'format'").get() as { value: string } | undefined;
    } catch (err) {
      // A file with SQLite's header that does not read is a damaged store (a truncated copy, a
      // disk fault); any other file that does not read is not a store at all.
      if (err instanceof DamagedStoreError || isDamage(err)) {
        if (hasSqliteHeader(path))
          throw err instanceof DamagedStoreError ? err : new DamagedStoreError(path, (err as Error).message);
        throw notStore;
      }
      if (sqliteCode(err) === "SQLITE_ERROR") throw notStore;
      throw err;
    }
    if (row?.value !== FORMAT) throw notStore;
    const version = db.prepare("SELECT value FROM meta WHERE key = 'schemaVersion'").get() as {
      value: string;
    };
    if (Number(version?.value) > SCHEMA_VERSION) {
      throw new UserError(
        `${path} was written by a newer bazaar (store schema ${version.value}; this one reads ${SCHEMA_VERSION})`,
        "upgrade bazaar",
      );
    }
  }

  /**
   * Registers a run with its tasks, or checks that an existing run with this id has the same
   * identity. The run and all its tasks are written in one transaction.
   */
  ensureRun(run: RunInfo, tasks: readonly { taskId: string }[] = []): { created: boolean } {
    const config = JSON.stringify(run.config);
    const select = this.db.prepare("SELECT config FROM runs WHERE id = ?");
    const insertRun = this.db.prepare(
      "INSERT INTO runs (id, env, config, total, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
    );
    const insertTask = this.db.prepare(
      "INSERT INTO tasks (run_id, task_index, task_id, task) VALUES (?, ?, ?, ?)",
    );
    // One write transaction from the first read: two runners starting the same run at once do not
    // both create it.
    const existing = this.db
      .transaction(() => {
        const found = select.get(run.id) as { config: string } | undefined;
        if (found) return found;
        const now = new Date().toISOString();
        insertRun.run(run.id, run.env, config, run.total, now, now);
        tasks.forEach((t, i) => {
          insertTask.run(run.id, i, t.taskId, JSON.stringify(t));
        });
        return undefined;
      })
      .immediate();
    if (existing && existing.config !== config) {
      throw new UserError(
        `run ${run.id} exists in ${this.path} with a different configuration`,
        "use another --store",
      );
    }
    return { created: existing === undefined };
  }

  /** Which trials of a run are stored: a bitmap by seq (1 byte per trial keeps a 1M-trial run at 1 MB). */
  doneSeqs(runId: string, total: number): Uint8Array {
    const done = new Uint8Array(total);
    const stmt = this.db.prepare("SELECT seq FROM trials WHERE run_id = ?").pluck();
    for (const seq of stmt.iterate(runId) as Iterable<number>) if (seq < total) done[seq] = 1;
    return done;
  }

  /** Finished trials (never stored twice) and failed ones (replaced by a later attempt), in one transaction. */
  writeTrials(rows: StoredTrial[], failed: FailedTrial[] = []): void {
    if (rows.length > 0 || failed.length > 0) this.insertMany(rows, failed);
  }

  /** A run's tasks, by task index. */
  runTasks(runId: string): unknown[] {
    return (
      this.db
        .prepare("SELECT task FROM tasks WHERE run_id = ? ORDER BY task_index")
        .pluck()
        .all(runId) as string[]
    ).map((t) => JSON.parse(t) as unknown);
  }

  /** The stored trials of a run at these seqs (those not stored are left out), in seq order. */
  trialRowsAt(runId: string, seqs: readonly number[]): TrialRow[] {
    if (seqs.length === 0) return [];
    const out: TrialRow[] = [];
    const stmt = this.db.prepare(
      `SELECT t.seq, t.trial_key AS trialKey, t.agent, t.replicate, t.result, k.task
         FROM trials t JOIN tasks k ON k.run_id = t.run_id AND k.task_index = t.task_index
        WHERE t.run_id = ? AND t.seq IN (SELECT value FROM json_each(?)) ORDER BY t.seq`,
    );
    for (const r of stmt.all(runId, JSON.stringify(seqs)) as {
      seq: number;
      trialKey: string;
      agent: string;
      replicate: number;
      result: string;
      task: string;
    }[])
      out.push({ ...r, task: JSON.parse(r.task), result: JSON.parse(r.result) });
    return out;
  }

  /** How many of a run's trials are failed (missing data). */
  failedCount(runId: string): number {
    if (!this.hasFailedTable) return 0;
    return this.db
      .prepare("SELECT COUNT(*) FROM failed_trials WHERE run_id = ?")
      .pluck()
      .get(runId) as number;
  }

  /** A run's failed trials (missing data), in seq order. */
  failedTrials(runId: string): FailedTrial[] {
    if (!this.hasFailedTable) return [];
    const rows = this.db
      .prepare(
        `SELECT seq, trial_key AS trialKey, agent, task_index AS taskIndex, replicate, error, turns, usage
           FROM failed_trials WHERE run_id = ? ORDER BY seq`,
      )
      .all(runId) as {
      seq: number;
      trialKey: string;
      agent: string;
      taskIndex: number;
      replicate: number;
      error: string;
      turns: number;
      usage: string;
    }[];
    return rows.map((r) => ({
      runId,
      seq: r.seq,
      trialKey: r.trialKey,
      agent: r.agent,
      taskIndex: r.taskIndex,
      replicate: r.replicate,
      failure: JSON.parse(r.error) as FailureRecord,
      turns: r.turns,
      usage: JSON.parse(r.usage) as Usage,
    }));
  }

  listRuns(): RunSummary[] {
    const ids = this.db.prepare("SELECT id FROM runs ORDER BY created_at, id").pluck().all() as string[];
    return ids.map((id) => this.getRun(id)!);
  }

  getRun(id: string): RunSummary | undefined {
    const r = this.db.prepare("SELECT * FROM runs WHERE id = ?").get(id) as
      | { id: string; env: string; config: string; total: number; created_at: string; updated_at: string }
      | undefined;
    if (!r) return undefined;
    const c = this.db
      .prepare(
        "SELECT COUNT(*) AS done, COALESCE(SUM(non_response), 0) AS nonResponses FROM trials WHERE run_id = ?",
      )
      .get(id) as { done: number; nonResponses: number };
    const failed = this.failedCount(id);
    const config = JSON.parse(r.config) as { agents?: string[] };
    const agents =
      config.agents ??
      (this.db
        .prepare("SELECT DISTINCT agent FROM trials WHERE run_id = ? ORDER BY agent")
        .pluck()
        .all(id) as string[]);
    return {
      id: r.id,
      env: r.env,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      total: r.total,
      done: c.done,
      nonResponses: c.nonResponses,
      failed,
      agents,
      config,
    };
  }

  /**
   * Calls, cache hits, tokens and model time of a run's trials, summed per agent: the stored ones
   * and the failed ones (whose turns before the failure were paid for); `trials` counts stored ones.
   */
  usageByAgent(runId: string): { agent: string; trials: number; usage: Usage }[] {
    const part = (usage: string) =>
      ["calls", "cacheHits", "inputTokens", "outputTokens", "reasoningTokens", "latencyMs"]
        .map((k) => `json_extract(${usage}, '$.${k}') AS ${k}`)
        .join(", ");
    const failed = this.hasFailedTable
      ? `UNION ALL SELECT agent, 0 AS stored, ${part("usage")} FROM failed_trials WHERE run_id = @run`
      : "";
    const rows = this.db
      .prepare(
        `SELECT agent, SUM(stored) AS trials,
                COALESCE(SUM(calls), 0) AS calls,
                COALESCE(SUM(cacheHits), 0) AS cacheHits,
                COALESCE(SUM(inputTokens), 0) AS inputTokens,
                COALESCE(SUM(outputTokens), 0) AS outputTokens,
                COALESCE(SUM(reasoningTokens), 0) AS reasoningTokens,
                COALESCE(SUM(latencyMs), 0) AS latencyMs
           FROM (SELECT agent, 1 AS stored, ${part("json_extract(result, '$.usage')")}
                   FROM trials WHERE run_id = @run ${failed})
          GROUP BY agent ORDER BY agent`,
      )
      .all({ run: runId }) as ({ agent: string; trials: number } & Usage)[];
    return rows.map(({ agent, trials, ...usage }) => ({ agent, trials, usage }));
  }

  /**
   * A run's stored trials in seq order with their tasks, streamed (constant memory for any run
   * size). Trials are task-major, so each task is parsed once for all its agents and replicates.
   */
  *trialRows(runId: string): Generator<TrialRow> {
    const stmt = this.db.prepare(
      `SELECT t.seq, t.trial_key AS trialKey, t.agent, t.replicate, t.task_index AS taskIndex, t.result, k.task
         FROM trials t JOIN tasks k ON k.run_id = t.run_id AND k.task_index = t.task_index
        WHERE t.run_id = ? ORDER BY t.seq`,
    );
    let lastIndex = -1;
    let lastTask: unknown;
    for (const row of stmt.iterate(runId) as Iterable<{
      seq: number;
      trialKey: string;
      agent: string;
      replicate: number;
      taskIndex: number;
      result: string;
      task: string;
    }>) {
      if (row.taskIndex !== lastIndex) {
        lastIndex = row.taskIndex;
        lastTask = JSON.parse(row.task);
      }
      yield {
        seq: row.seq,
        trialKey: row.trialKey,
        agent: row.agent,
        replicate: row.replicate,
        task: lastTask,
        result: JSON.parse(row.result),
      };
    }
  }

  /**
   * One page of a run's stored trials for the terminal UI (`bazaar watch`), by keyset on seq so that
   * any page of a 100,000-trial run costs the same: rows after `afterSeq` in ascending order, or
   * before `beforeSeq` in descending order, at most `limit`, matching `where`. With `count`, also
   * how many trials match `where` in the whole run. `where` is built from typed conditions by
   * `trialWhere` in `trial-pages.ts` (never from user text); that file holds the rest of the paging.
   */
  trialPage(
    runId: string,
    q: { afterSeq?: number; beforeSeq?: number; limit: number; where?: TrialWhere; count?: boolean },
  ): { rows: TrialPageRow[]; matched: number | null } {
    const cond = q.where ? ` AND (${q.where.sql})` : "";
    const params = q.where?.params ?? [];
    const from = "FROM trials t JOIN tasks k ON k.run_id = t.run_id AND k.task_index = t.task_index";
    const back = q.beforeSeq !== undefined;
    const rows = this.db
      .prepare(
        `SELECT t.seq, t.trial_key AS trialKey, t.agent, t.replicate, t.task_index AS taskIndex,
                t.non_response AS nonResponse, t.agent_error AS agentError, t.result, k.task
           ${from} WHERE t.run_id = ? AND t.seq ${back ? "<" : ">"} ?${cond}
          ORDER BY t.seq ${back ? "DESC" : "ASC"} LIMIT ?`,
      )
      .all(runId, back ? q.beforeSeq : (q.afterSeq ?? -1), ...params, q.limit) as TrialPageRow[];
    const matched = q.count
      ? (this.db
          .prepare(`SELECT COUNT(*) ${from} WHERE t.run_id = ?${cond}`)
          .pluck()
          .get(runId, ...params) as number)
      : null;
    return { rows, matched };
  }

  /**
   * The store's LLM response cache (same file as the runs). Only successful responses are put;
   * errors never are, so a retry after a failure asks the model again.
   */
  responseCache(): ResponseCache {
    const get = this.db.prepare("SELECT response FROM llm_cache WHERE key = ?").pluck();
    const put = this.db.prepare(
      "INSERT OR REPLACE INTO llm_cache (key, model, response, created_at) VALUES (?, ?, ?, ?)",
    );
    return {
      get: (key) => {
        const json = get.get(key) as string | undefined;
        return json === undefined ? undefined : (JSON.parse(json) as CachedResponse);
      },
      put: (key, model, value) => {
        put.run(key, model, JSON.stringify(value), new Date().toISOString());
      },
      stats: () => {
        const byModel = this.db
          .prepare("SELECT model, COUNT(*) AS entries FROM llm_cache GROUP BY model ORDER BY model")
          .all() as { model: string; entries: number }[];
        return { entries: byModel.reduce((a, b) => a + b.entries, 0), byModel };
      },
      clear: (model) =>
        model === undefined
          ? this.db.prepare("DELETE FROM llm_cache").run().changes
          : this.db.prepare("DELETE FROM llm_cache WHERE model = ?").run(model).changes,
    };
  }

  /**
   * Deletes a run's trials in which an agent failed (a model error that outlived its retries), so
   * that running the run again retries exactly those. Returns how many.
   */
  deleteAgentErrorTrials(runId: string): number {
    return this.db.prepare("DELETE FROM trials WHERE run_id = ? AND agent_error = 1").run(runId).changes;
  }

  /**
   * A module's own tables on this store's connection (the batch ledger, the live turns): `init`
   * creates what it needs (CREATE TABLE IF NOT EXISTS …) and returns its prepared statements, once
   * per store and module. Kept here, not in this class, so each concept stays in its own file.
   */
  extension<T>(name: string, init: (db: Database.Database, readonly: boolean) => T): T {
    let ext = this.extensions.get(name) as T | undefined;
    if (ext === undefined) {
      ext = init(this.db, this.db.readonly);
      this.extensions.set(name, ext);
    }
    return ext;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
