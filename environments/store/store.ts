import { existsSync, statSync } from "node:fs";
import { UserError } from "../kernel/errors.ts";
import type { FailureRecord } from "../kernel/failures.ts";
import type { ResponseCache } from "../kernel/response-cache.ts";
import type { Usage } from "../kernel/types.ts";
import { DamagedStoreError, hasSqliteHeader, isDamage, sqliteCode } from "./damage.ts";
import { isPostgresUrl, PostgresDb, redactUrl } from "./postgres/connection.ts";
import { StoreResponseCache } from "./response-cache.ts";
import type { SqlDb, SqlDialect, SqlParam } from "./sql/db.ts";
import { SqliteDb } from "./sql/sqlite.ts";

/** Marks a database as a bazaar store; the number changes when the layout does. */
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

/**
 * A filter over `trials t JOIN tasks k` (see `trialWhere` in trial-pages.ts), compiled to SQL in the
 * store's dialect when a page is read.
 */
export interface TrialWhere {
  compile(dialect: SqlDialect): { sql: string; params: SqlParam[] };
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
 * The workspace store: runs, their tasks (once per run, not once per trial: a task is most of a
 * trial record's bytes) and trials, in one SQLite file (WAL) or one PostgreSQL database that several
 * machines share. Every batch of trials is one transaction, so a killed process leaves whole trials
 * or none; `ON CONFLICT DO NOTHING` on the trial's (run, seq) key means a resumed run can never
 * store a trial twice. The SQL is the same for both databases (sql/db.ts says which subset).
 */
export class Store {
  /** Stores written before failed trials were kept apart have no such table (read-only opens). */
  private readonly hasFailedTable: boolean;
  private readonly extensions = new Map<string, unknown>();
  private cache: StoreResponseCache | undefined;

  private constructor(
    /** Where the store is, for messages: the file, or the server's URL without its password. */
    readonly path: string,
    private readonly db: SqlDb,
  ) {
    this.hasFailedTable = db.hasTable("failed_trials");
  }

  /** Which database holds the store. */
  get kind(): "sqlite" | "postgres" {
    return this.db.dialect.name;
  }

  /**
   * Opens (and with `create`, makes) a store: a SQLite file, or a PostgreSQL database named by a
   * `postgres://user:password@host:port/database` URL. A file that exists but is not a bazaar store,
   * a path that cannot be written or a server that cannot be reached is a UserError — checked
   * before anything is written.
   */
  static open(location: string, opts: { create: boolean; readonly?: boolean }): Store {
    if (isPostgresUrl(location)) return Store.openPostgres(location, opts);
    const path = location;
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
    let db: SqliteDb;
    try {
      db = SqliteDb.open(path, { readonly: opts.readonly === true && exists, create: opts.create });
    } catch (err) {
      throw new UserError(
        `cannot open the store at ${path}: ${(err as Error).message}`,
        "check that the folder exists and is writable, or choose another path with --store",
      );
    }
    try {
      if (!isNew) Store.checkFormat(db, path, () => hasSqliteHeader(path));
      if (!opts.readonly) {
        db.pragma("journal_mode = WAL");
        db.pragma("synchronous = NORMAL");
        Store.create(db);
      }
      return new Store(path, db);
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

  private static openPostgres(url: string, opts: { create: boolean; readonly?: boolean }): Store {
    const where = redactUrl(url);
    const db = PostgresDb.connect(url, { readonly: opts.readonly === true });
    try {
      const isNew = !db.hasTable("meta");
      if (isNew && !opts.create) {
        throw new UserError(
          `no store at ${where} (the database has no bazaar tables)`,
          "run an experiment with --store pointing at it first, or check the database name",
        );
      }
      if (!isNew) Store.checkFormat(db, where, () => true);
      else if (
        db.value("SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() LIMIT 1") !==
        undefined
      ) {
        // Someone's database with tables of its own: bazaar's tables do not go in among them.
        throw new UserError(
          `${where} is not a bazaar store (the database has tables of its own)`,
          "create an empty database for bazaar (createdb -O <user> bazaar) and point --store at it",
        );
      }
      if (!opts.readonly) Store.create(db);
      return new Store(where, db);
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /** The tables, and the marks that make the database a bazaar store. */
  private static create(db: SqlDb): void {
    db.exec(DDL);
    const put = "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING";
    db.run(put, "format", FORMAT);
    db.run(put, "schemaVersion", String(SCHEMA_VERSION));
  }

  private static checkFormat(db: SqlDb, path: string, looksLikeDatabase: () => boolean): void {
    const notStore = new UserError(
      `${path} is not a bazaar store`,
      "point --store at a file bazaar created, or at a new path",
    );
    let format: string | undefined;
    try {
      format = db.hasTable("meta")
        ? db.value<string>("SELECT value FROM meta WHERE key = 'format'")
        : undefined;
    } catch (err) {
      // A file with SQLite's header that does not read is a damaged store (a truncated copy, a
      // disk fault); any other file that does not read is not a store at all.
      if (err instanceof DamagedStoreError || isDamage(err)) {
        if (looksLikeDatabase())
          throw err instanceof DamagedStoreError ? err : new DamagedStoreError(path, (err as Error).message);
        throw notStore;
      }
      if (sqliteCode(err) === "SQLITE_ERROR") throw notStore;
      throw err;
    }
    if (format !== FORMAT) throw notStore;
    const version = db.value<string>("SELECT value FROM meta WHERE key = 'schemaVersion'");
    if (Number(version) > SCHEMA_VERSION) {
      throw new UserError(
        `${path} was written by a newer bazaar (store schema ${version}; this one reads ${SCHEMA_VERSION})`,
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
    const now = new Date().toISOString();
    // Insert first, then read: of two runners starting the same run at once, one creates it and the
    // other waits for that transaction and finds it (SQLite: the write lock; PostgreSQL: the key).
    const created = this.db.tx(() => {
      const made =
        this.db.run(
          "INSERT INTO runs (id, env, config, total, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
          run.id,
          run.env,
          config,
          run.total,
          now,
          now,
        ).changes === 1;
      if (made)
        this.db.runMany(
          "INSERT INTO tasks (run_id, task_index, task_id, task) VALUES (?, ?, ?, ?)",
          tasks.map((t, i) => [run.id, i, t.taskId, JSON.stringify(t)]),
        );
      return made;
    });
    if (!created && this.db.value<string>("SELECT config FROM runs WHERE id = ?", run.id) !== config) {
      throw new UserError(
        `run ${run.id} exists in ${this.path} with a different configuration`,
        "use another --store",
      );
    }
    return { created };
  }

  /** Which trials of a run are stored: a bitmap by seq (1 byte per trial keeps a 1M-trial run at 1 MB). */
  doneSeqs(runId: string, total: number): Uint8Array {
    const done = new Uint8Array(total);
    for (const r of this.db.iterate<{ seq: number }>("SELECT seq FROM trials WHERE run_id = ?", runId))
      if (r.seq < total) done[r.seq] = 1;
    return done;
  }

  /** Finished trials (never stored twice) and failed ones (replaced by a later attempt), in one transaction. */
  writeTrials(rows: StoredTrial[], failed: FailedTrial[] = []): void {
    if (rows.length === 0 && failed.length === 0) return;
    if (failed.length > 0 && !this.hasFailedTable)
      throw new Error("this store cannot keep failed trials (opened read-only)");
    // A write transaction from its first read: several runners write one store, and a read that
    // turns into a write in a deferred transaction fails at once (SQLITE_BUSY) when another wrote.
    this.db.tx(() => {
      // Model responses that came since the last write go with these trials.
      this.cache?.write();
      this.db.runMany(
        "INSERT INTO trials (run_id, seq, trial_key, agent, task_index, replicate, non_response, agent_error, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        rows.map((r) => [
          r.runId,
          r.seq,
          r.trialKey,
          r.agent,
          r.taskIndex,
          r.replicate,
          r.nonResponse ? 1 : 0,
          r.agentError ? 1 : 0,
          r.resultJson,
        ]),
      );
      // A trial that failed before and has now finished leaves the failed list (checked once a batch).
      if (this.hasFailedTable && rows.length > 0 && this.anyFailed(rows[0]!.runId))
        this.db.runMany(
          "DELETE FROM failed_trials WHERE run_id = ? AND seq = ?",
          rows.map((r) => [r.runId, r.seq]),
        );
      if (failed.length > 0) this.putFailed(failed);
      const first = rows[0] ?? failed[0];
      if (first)
        this.db.run("UPDATE runs SET updated_at = ? WHERE id = ?", new Date().toISOString(), first.runId);
    });
  }

  private anyFailed(runId: string): boolean {
    return this.db.value("SELECT 1 FROM failed_trials WHERE run_id = ? LIMIT 1", runId) !== undefined;
  }

  private putFailed(failed: FailedTrial[]): void {
    const now = new Date().toISOString();
    // Never over a finished trial: a failed attempt of a trial another process finished is moot.
    const finished = new Set(
      this.db.column<number>(
        `SELECT seq FROM trials WHERE run_id = ? AND ${this.db.dialect.inList("seq")}`,
        failed[0]!.runId,
        JSON.stringify(failed.map((f) => f.seq)),
      ),
    );
    this.db.runMany(
      `INSERT INTO failed_trials
         (run_id, seq, trial_key, agent, task_index, replicate, kind, error, turns, usage, failed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (run_id, seq) DO UPDATE SET trial_key = excluded.trial_key, agent = excluded.agent,
         task_index = excluded.task_index, replicate = excluded.replicate, kind = excluded.kind,
         error = excluded.error, turns = excluded.turns, usage = excluded.usage, failed_at = excluded.failed_at`,
      failed
        .filter((f) => !finished.has(f.seq))
        .map((f) => [
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
        ]),
    );
  }

  /** A run's tasks, by task index. */
  runTasks(runId: string): unknown[] {
    return this.db
      .column<string>("SELECT task FROM tasks WHERE run_id = ? ORDER BY task_index", runId)
      .map((t) => JSON.parse(t) as unknown);
  }

  /** The stored trials of a run at these seqs (those not stored are left out), in seq order. */
  trialRowsAt(runId: string, seqs: readonly number[]): TrialRow[] {
    if (seqs.length === 0) return [];
    const rows = this.db.all<{
      seq: number;
      trialKey: string;
      agent: string;
      replicate: number;
      result: string;
      task: string;
    }>(
      `SELECT t.seq, t.trial_key AS "trialKey", t.agent, t.replicate, t.result, k.task
         FROM trials t JOIN tasks k ON k.run_id = t.run_id AND k.task_index = t.task_index
        WHERE t.run_id = ? AND ${this.db.dialect.inList("t.seq")} ORDER BY t.seq`,
      runId,
      JSON.stringify(seqs),
    );
    return rows.map((r) => ({ ...r, task: JSON.parse(r.task), result: JSON.parse(r.result) }));
  }

  /** How many of a run's trials are failed (missing data). */
  failedCount(runId: string): number {
    if (!this.hasFailedTable) return 0;
    return this.db.value<number>("SELECT COUNT(*) FROM failed_trials WHERE run_id = ?", runId) ?? 0;
  }

  /** How many of a run's non-responses are answers cut at the output cap (usage `cutAtCap`). */
  cutNonResponseCount(runId: string): number {
    const cut = this.db.dialect.jsonNumber("result", ["usage", "cutAtCap"]);
    return (
      this.db.value<number>(
        `SELECT COUNT(*) FROM trials WHERE run_id = ? AND non_response = 1 AND ${cut} > 0`,
        runId,
      ) ?? 0
    );
  }

  /**
   * A run's non-responses whose agent error holds `words` (plain text, no LIKE wildcards), counted
   * per agent: the summaries name the outside agents' non-answers "left without acting" this way.
   */
  agentErrorsHolding(runId: string, words: string): { agent: string; trials: number }[] {
    if (/[%_\\]/.test(words)) throw new Error(`agentErrorsHolding: "${words}" holds a LIKE wildcard`);
    return this.db
      .all<{ agent: string; trials: number | string }>(
        `SELECT agent, COUNT(*) AS trials FROM trials
          WHERE run_id = ? AND agent_error = 1 AND non_response = 1 AND result LIKE ?
          GROUP BY agent ORDER BY agent`,
        runId,
        `%${words}%`,
      )
      .map((r) => ({ agent: r.agent, trials: Number(r.trials) }));
  }

  /** A run's failed trials (missing data), in seq order. */
  failedTrials(runId: string): FailedTrial[] {
    if (!this.hasFailedTable) return [];
    const rows = this.db.all<{
      seq: number;
      trialKey: string;
      agent: string;
      taskIndex: number;
      replicate: number;
      error: string;
      turns: number;
      usage: string;
    }>(
      `SELECT seq, trial_key AS "trialKey", agent, task_index AS "taskIndex", replicate, error, turns, usage
         FROM failed_trials WHERE run_id = ? ORDER BY seq`,
      runId,
    );
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
    const ids = this.db.column<string>("SELECT id FROM runs ORDER BY created_at, id");
    return ids.map((id) => this.getRun(id)!);
  }

  getRun(id: string): RunSummary | undefined {
    const r = this.db.get<{
      id: string;
      env: string;
      config: string;
      total: number;
      created_at: string;
      updated_at: string;
    }>("SELECT * FROM runs WHERE id = ?", id);
    if (!r) return undefined;
    const c = this.db.get<{ done: number; nonResponses: number }>(
      `SELECT COUNT(*) AS done, COALESCE(SUM(non_response), 0) AS "nonResponses" FROM trials WHERE run_id = ?`,
      id,
    )!;
    const failed = this.failedCount(id);
    const config = JSON.parse(r.config) as { agents?: string[] };
    const agents =
      config.agents ??
      this.db.column<string>("SELECT DISTINCT agent FROM trials WHERE run_id = ? ORDER BY agent", id);
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
    const keys = [
      "calls",
      "cacheHits",
      "inputTokens",
      "cachedInputTokens",
      "outputTokens",
      "reasoningTokens",
      "latencyMs",
    ];
    const part = (expr: string, under: string[]) =>
      keys.map((k) => `${this.db.dialect.jsonNumber(expr, [...under, k])} AS "${k}"`).join(", ");
    const params: SqlParam[] = [runId];
    let failed = "";
    if (this.hasFailedTable) {
      failed = `UNION ALL SELECT agent, 0 AS stored, ${part("usage", [])} FROM failed_trials WHERE run_id = ?`;
      params.push(runId);
    }
    const rows = this.db.all<{ agent: string; trials: number } & Usage>(
      `SELECT agent, SUM(stored) AS trials,
              ${keys.map((k) => `COALESCE(SUM("${k}"), 0) AS "${k}"`).join(",\n              ")}
         FROM (SELECT agent, 1 AS stored, ${part("result", ["usage"])}
                 FROM trials WHERE run_id = ? ${failed}) u
        GROUP BY agent ORDER BY agent`,
      ...params,
    );
    // Prompt-cache hits only where there were some (the field is optional in a trial's usage).
    return rows.map(({ agent, trials, cachedInputTokens, ...rest }) => ({
      agent,
      trials,
      usage: cachedInputTokens ? { ...rest, cachedInputTokens } : rest,
    }));
  }

  /**
   * A run's stored trials in seq order with their tasks, streamed (constant memory for any run
   * size). Trials are task-major, so each task is parsed once for all its agents and replicates.
   */
  *trialRows(runId: string): Generator<TrialRow> {
    let lastIndex = -1;
    let lastTask: unknown;
    for (const row of this.db.iterate<{
      seq: number;
      trialKey: string;
      agent: string;
      replicate: number;
      taskIndex: number;
      result: string;
      task: string;
    }>(
      `SELECT t.seq, t.trial_key AS "trialKey", t.agent, t.replicate, t.task_index AS "taskIndex", t.result, k.task
         FROM trials t JOIN tasks k ON k.run_id = t.run_id AND k.task_index = t.task_index
        WHERE t.run_id = ? ORDER BY t.seq`,
      runId,
    )) {
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
    const where = q.where?.compile(this.db.dialect);
    const cond = where ? ` AND (${where.sql})` : "";
    const params = where?.params ?? [];
    const from = "FROM trials t JOIN tasks k ON k.run_id = t.run_id AND k.task_index = t.task_index";
    const back = q.beforeSeq !== undefined;
    const rows = this.db.all<TrialPageRow>(
      `SELECT t.seq, t.trial_key AS "trialKey", t.agent, t.replicate, t.task_index AS "taskIndex",
              t.non_response AS "nonResponse", t.agent_error AS "agentError", t.result, k.task
         ${from} WHERE t.run_id = ? AND t.seq ${back ? "<" : ">"} ?${cond}
        ORDER BY t.seq ${back ? "DESC" : "ASC"} LIMIT ?`,
      runId,
      back ? q.beforeSeq! : (q.afterSeq ?? -1),
      ...params,
      q.limit,
    );
    const matched = q.count
      ? (this.db.value<number>(`SELECT COUNT(*) ${from} WHERE t.run_id = ?${cond}`, runId, ...params) ?? 0)
      : null;
    return { rows, matched };
  }

  /**
   * The store's LLM response cache (same database as the runs). Only successful responses are put;
   * errors never are, so a retry after a failure asks the model again.
   */
  /** The LLM response cache in this store (written with the trials: response-cache.ts). */
  responseCache(): ResponseCache {
    this.cache ??= new StoreResponseCache(this.db);
    return this.cache;
  }

  /**
   * Deletes a run's trials in which an agent failed (a model error that outlived its retries), so
   * that running the run again retries exactly those. Returns how many.
   */
  deleteAgentErrorTrials(runId: string): number {
    return this.db.run("DELETE FROM trials WHERE run_id = ? AND agent_error = 1", runId).changes;
  }

  /**
   * A module's own tables on this store's connection (the batch ledger, the live turns, the
   * leases): `init` creates what it needs (CREATE TABLE IF NOT EXISTS …) and returns what it keeps,
   * once per store and module. Kept here, not in this class, so each concept stays in its own file.
   */
  extension<T>(name: string, init: (db: SqlDb, readonly: boolean) => T): T {
    let ext = this.extensions.get(name) as T | undefined;
    if (ext === undefined) {
      ext = init(this.db, this.db.readonly);
      this.extensions.set(name, ext);
    }
    return ext;
  }

  close(): void {
    if (!this.db.isOpen) return;
    try {
      if (!this.db.readonly) this.cache?.write();
    } finally {
      this.db.close();
    }
  }
}
