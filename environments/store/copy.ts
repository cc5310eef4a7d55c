/**
 * Moving runs between stores (SQLite ↔ PostgreSQL, or file to file): each run with its tasks, its
 * trials and its failed trials, and with `cache` the response cache, written to the target in one
 * transaction — a copy that fails half-way (a full disk, a dropped connection, a kill) leaves the
 * target as it was. A run the target already has with the same identity gains the trials it lacks
 * (a copy can be repeated, or finish one run in two stores); one with another identity stops the
 * copy before anything is written. Leases, live turns and the batch ledger stay where they were:
 * they belong to the processes running the run there.
 */
import { UserError } from "../kernel/errors.ts";
import type { SqlDb, SqlParam } from "./sql/db.ts";
import type { Store } from "./store.ts";

/** Rows per INSERT batch while copying. */
const CHUNK = 2000;

export interface CopiedRun {
  id: string;
  /** Whether the target had no such run before. */
  created: boolean;
  /** Trials the source holds, and how many of them the target lacked (written now). */
  trials: number;
  added: number;
  failed: number;
}

export interface CopyResult {
  runs: CopiedRun[];
  cacheEntries: number;
}

const rawDb = (store: Store): SqlDb => store.extension("raw", (db) => db);

const TRIAL_COLUMNS =
  "run_id, seq, trial_key, agent, task_index, replicate, non_response, agent_error, result";
const FAILED_COLUMNS =
  "run_id, seq, trial_key, agent, task_index, replicate, kind, error, turns, usage, failed_at";

function placeholders(columns: string): string {
  return columns
    .split(",")
    .map(() => "?")
    .join(", ");
}

/** Streams the rows of a query from one store into an INSERT on another, `CHUNK` rows at a time. */
function pipe(
  from: SqlDb,
  select: string,
  params: SqlParam[],
  to: SqlDb,
  insert: string,
): { read: number; written: number } {
  let read = 0;
  let written = 0;
  let chunk: SqlParam[][] = [];
  const send = () => {
    written += to.runMany(insert, chunk).changes;
    chunk = [];
  };
  for (const row of from.iterate<Record<string, SqlParam>>(select, ...params)) {
    chunk.push(Object.values(row));
    read++;
    if (chunk.length >= CHUNK) send();
  }
  if (chunk.length > 0) send();
  return { read, written };
}

/**
 * Copies the runs with these ids (all runs when none is given) from one store to another. Every id
 * must name a run of the source; every run the target has already must have the same identity.
 */
export function copyRuns(
  source: Store,
  target: Store,
  opts: { runs?: readonly string[]; cache?: boolean } = {},
): CopyResult {
  const all = source.listRuns();
  const ids = opts.runs && opts.runs.length > 0 ? [...opts.runs] : all.map((r) => r.id);
  const byId = new Map(all.map((r) => [r.id, r]));
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length > 0) {
    throw new UserError(
      `no run ${unknown.map((id) => `"${id}"`).join(", ")} in ${source.path}`,
      all.length > 0 ? `runs there: ${all.map((r) => r.id).join(", ")}` : "the source store has no runs",
    );
  }
  for (const id of ids) {
    const there = target.getRun(id);
    if (there && JSON.stringify(there.config) !== JSON.stringify(byId.get(id)!.config)) {
      throw new UserError(
        `run ${id} exists in ${target.path} with a different configuration: nothing was copied`,
        "copy into another store, or leave that run out (--run)",
      );
    }
  }
  const from = rawDb(source);
  const to = rawDb(target);
  const failedTable = from.hasTable("failed_trials");
  return to.tx(() => {
    const runs: CopiedRun[] = [];
    for (const id of ids) {
      const created =
        to.runMany(
          "INSERT INTO runs (id, env, config, total, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
          from
            .all<Record<string, SqlParam>>(
              "SELECT id, env, config, total, created_at, updated_at FROM runs WHERE id = ?",
              id,
            )
            .map((r) => Object.values(r)),
        ).changes === 1;
      pipe(
        from,
        "SELECT run_id, task_index, task_id, task FROM tasks WHERE run_id = ? ORDER BY task_index",
        [id],
        to,
        "INSERT INTO tasks (run_id, task_index, task_id, task) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
      );
      const trials = pipe(
        from,
        `SELECT ${TRIAL_COLUMNS} FROM trials WHERE run_id = ? ORDER BY seq`,
        [id],
        to,
        `INSERT INTO trials (${TRIAL_COLUMNS}) VALUES (${placeholders(TRIAL_COLUMNS)}) ON CONFLICT DO NOTHING`,
      );
      let failed = 0;
      if (failedTable) {
        pipe(
          from,
          `SELECT ${FAILED_COLUMNS} FROM failed_trials WHERE run_id = ? ORDER BY seq`,
          [id],
          to,
          `INSERT INTO failed_trials (${FAILED_COLUMNS}) VALUES (${placeholders(FAILED_COLUMNS)}) ON CONFLICT DO NOTHING`,
        );
        // A trial failed in one store and finished in the other is finished.
        to.run(
          "DELETE FROM failed_trials WHERE run_id = ? AND seq IN (SELECT seq FROM trials WHERE run_id = ?)",
          id,
          id,
        );
        failed = to.value<number>("SELECT COUNT(*) FROM failed_trials WHERE run_id = ?", id) ?? 0;
      }
      runs.push({ id, created, trials: trials.read, added: trials.written, failed });
    }
    const cacheEntries = opts.cache
      ? pipe(
          from,
          "SELECT key, model, response, created_at FROM llm_cache ORDER BY key",
          [],
          to,
          "INSERT INTO llm_cache (key, model, response, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
        ).written
      : 0;
    return { runs, cacheEntries };
  });
}
