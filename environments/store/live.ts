/**
 * What is going on in a run right now, in the store, for another process to read (`bazaar watch
 * <run> --follow`, SQLite WAL readers do not block the writer) and for after a crash:
 * - `live_turns`: the turns of episodes still in flight. Only episodes in flight longer than one
 *   flush interval are written (fast simulated episodes never touch the table), and an episode's
 *   turns are dropped once its trial is stored or failed (the trial record keeps what an environment
 *   records of its turns). An episode cut short by a stop keeps its turns so far, and one cut short
 *   by a crash keeps what was written: until it runs again, the table shows where each one was.
 * - `runners`: each process running the run, with a heartbeat, so a follower knows when the run
 *   has ended (every runner ended, or silent for long enough to have died).
 */
import { hostname } from "node:os";
import type { Usage } from "../kernel/types.ts";
import type { SqlDb } from "./sql/db.ts";
import type { Store } from "./store.ts";

/** One turn of an episode in flight, as it is stored and shown. */
export interface LiveTurn {
  turn: number;
  role: string;
  /** The action as the agent took it (absent when it failed to act). */
  action: unknown;
  /** What the agent was answering: the environment's last message to it, in short. */
  summary: string;
  error?: string;
  usage?: Usage;
  /** Milliseconds since the epoch. */
  at: number;
}

export interface LiveEpisode {
  seq: number;
  agent: string;
  startedAt: number;
  turns: LiveTurn[];
}

export interface RunnerRow {
  runner: string;
  pid: number;
  host: string;
  startedAt: number;
  heartbeatAt: number;
  endedAt: number | null;
  status: string;
}

const DDL = `
CREATE TABLE IF NOT EXISTS live_turns (
  run_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  turn INTEGER NOT NULL,
  agent TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  turn_json TEXT NOT NULL,
  PRIMARY KEY (run_id, seq, turn)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS runners (
  run_id TEXT NOT NULL,
  runner TEXT NOT NULL,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL,
  ended_at INTEGER,
  status TEXT NOT NULL,
  PRIMARY KEY (run_id, runner)
) WITHOUT ROWID;
`;

/** The store's connection for the live tables; `null` on a read-only store written before they existed. */
function liveDb(store: Store): SqlDb | null {
  return store.extension("live", (db, readonly) => {
    if (!readonly) db.exec(DDL);
    return db.hasTable("live_turns") ? db : null;
  });
}

/** The episodes in flight of a run, as the store last heard of them (after a crash: where they stopped). */
export function liveEpisodes(store: Store, runId: string): LiveEpisode[] {
  const db = liveDb(store);
  if (!db) return [];
  const by = new Map<number, LiveEpisode>();
  // Ordered by the turn's number: an alias named `turn` would sort by the JSON text (turn 10 before 2).
  for (const r of db.iterate<{ seq: number; agent: string; startedAt: number; turnJson: string }>(
    `SELECT seq, agent, started_at AS "startedAt", turn_json AS "turnJson" FROM live_turns WHERE run_id = ? ORDER BY seq, turn`,
    runId,
  )) {
    let e = by.get(r.seq);
    if (!e) {
      e = { seq: r.seq, agent: r.agent, startedAt: r.startedAt, turns: [] };
      by.set(r.seq, e);
    }
    e.turns.push(JSON.parse(r.turnJson) as LiveTurn);
  }
  return [...by.values()];
}

export function runnersOf(store: Store, runId: string): RunnerRow[] {
  return (
    liveDb(store)?.all<RunnerRow>(
      `SELECT runner, pid, host, started_at AS "startedAt", heartbeat_at AS "heartbeatAt", ended_at AS "endedAt", status
         FROM runners WHERE run_id = ? ORDER BY started_at`,
      runId,
    ) ?? []
  );
}

/** A name for this process's runner of a run: host, pid and a random suffix (a pid is reused). */
export function runnerName(): string {
  return `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Whether a runner (by its `runnerName`) ran on this machine in a process that is gone — killed or
 * crashed. False when it may be alive: another machine's, a name not of that form, or a pid in use
 * (perhaps reused by another process: then it is waited out as if alive, the safe side).
 */
export function runnerProcessGone(name: string): boolean {
  const m = /^(.*):(\d+):[0-9a-z]+$/.exec(name);
  if (!m || m[1] !== hostname()) return false;
  const pid = Number(m[2]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    // EPERM: a process of another user holds the pid; it exists.
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** A turn as the log keeps it until written: the turn, or how to build it. */
export type PendingTurn = LiveTurn | (() => LiveTurn);

export const built = (t: PendingTurn): LiveTurn => (typeof t === "function" ? t() : t);

/** How long a runner may stay silent before a follower takes it for dead. */
export const HEARTBEAT_STALE_MS = 15_000;

/** Whether any process is still running the run (one ended cleanly, or went silent, is not). */
export function runIsActive(runners: readonly RunnerRow[], now = Date.now()): boolean {
  return runners.some((r) => r.endedAt === null && now - r.heartbeatAt < HEARTBEAT_STALE_MS);
}

/**
 * One runner's log of the run: its heartbeat, and the turns of its episodes in flight. Turns wait in
 * memory and are written on the runner's flush, only for episodes already in flight at the previous
 * flush — so an episode that ends within one flush interval is never written at all.
 */
export class TurnLog {
  readonly runner: string;
  /** `null` on a read-only store: the log then keeps nothing. */
  private readonly db: SqlDb | null;
  private readonly open = new Map<
    number,
    { agent: string; startedAt: number; pending: PendingTurn[]; written: boolean; seen: boolean }
  >();
  private dropped: number[] = [];
  private readonly stale = new Set<number>();
  private interrupted: [
    number,
    { agent: string; startedAt: number; pending: PendingTurn[]; written: boolean },
  ][] = [];

  constructor(
    store: Store,
    private readonly runId: string,
    runner = runnerName(),
  ) {
    const db = liveDb(store);
    this.db = db?.readonly === false ? db : null;
    // Episodes an earlier process left in the log (interrupted, crashed): dropped when they end here.
    for (const e of liveEpisodes(store, runId)) this.stale.add(e.seq);
    this.runner = runner;
    const now = Date.now();
    this.db?.run(
      `INSERT INTO runners (run_id, runner, pid, host, started_at, heartbeat_at, ended_at, status)
       VALUES (?, ?, ?, ?, ?, ?, NULL, 'running')
       ON CONFLICT (run_id, runner) DO UPDATE SET pid = excluded.pid, host = excluded.host,
         started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at, ended_at = NULL, status = 'running'`,
      runId,
      this.runner,
      process.pid,
      hostname(),
      now,
      now,
    );
  }

  started(seq: number, agent: string): void {
    this.open.set(seq, { agent, startedAt: Date.now(), pending: [], written: false, seen: false });
  }

  /**
   * A turn of an episode in flight; as a function when building it costs something, so that only
   * the turns of episodes that outlive a flush (the few that are written) are ever built.
   */
  turn(seq: number, t: PendingTurn): void {
    this.open.get(seq)?.pending.push(t);
  }

  /**
   * The episode's trial is finished and waits to be written. One never written here is forgotten
   * at once (nothing of it is in the table), so that the turns of the many short episodes between
   * two flushes are not kept alive until the flush; one already written keeps its place until
   * `ended` drops its rows, after its trial is stored.
   */
  settled(seq: number): void {
    const e = this.open.get(seq);
    if (!e) return;
    if (!e.written && !this.stale.has(seq)) this.open.delete(seq);
    else e.pending = [];
  }

  /**
   * The episode ended. Stored or failed: its turns leave the table. Cut short (`keep`: the run was
   * stopped): its turns so far are written, to show where it was until it runs again.
   */
  ended(seq: number, keep = false): void {
    const e = this.open.get(seq);
    this.open.delete(seq);
    if (!e) return;
    if (keep) {
      if (e.pending.length > 0) this.interrupted.push([seq, e]);
    } else if (e.written || this.stale.has(seq)) this.dropped.push(seq);
    this.stale.delete(seq);
  }

  /** Writes what is due and beats the heart; called on every flush of the runner. */
  flush(): void {
    const rows: [number, LiveTurn, string, number][] = [];
    for (const [seq, e] of this.interrupted) {
      if (!e.written) this.dropped.push(seq);
      for (const t of e.pending) rows.push([seq, built(t), e.agent, e.startedAt]);
    }
    this.interrupted = [];
    for (const [seq, e] of this.open) {
      if (!e.seen) {
        e.seen = true; // in flight at this flush: written from the next one on, if still going
        continue;
      }
      if (e.pending.length === 0) continue;
      // A re-run of an episode interrupted earlier starts over: its old turns go first.
      if (!e.written) this.dropped.push(seq);
      for (const t of e.pending) rows.push([seq, built(t), e.agent, e.startedAt]);
      e.pending = [];
      e.written = true;
    }
    if (this.db && (rows.length > 0 || this.dropped.length > 0)) this.write(this.db, rows, this.dropped);
    this.dropped = [];
    this.db?.run(
      "UPDATE runners SET heartbeat_at = ? WHERE run_id = ? AND runner = ?",
      Date.now(),
      this.runId,
      this.runner,
    );
  }

  /** Dropped episodes' rows go and new turns come, in one transaction. */
  private write(db: SqlDb, rows: [number, LiveTurn, string, number][], dropped: number[]): void {
    db.tx(() => {
      db.runMany(
        "DELETE FROM live_turns WHERE run_id = ? AND seq = ?",
        dropped.map((seq) => [this.runId, seq]),
      );
      db.runMany(
        `INSERT INTO live_turns (run_id, seq, turn, agent, started_at, turn_json) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (run_id, seq, turn) DO UPDATE SET agent = excluded.agent, started_at = excluded.started_at,
           turn_json = excluded.turn_json`,
        // One row per turn (the last word on it): a statement may not touch a row twice.
        [...new Map(rows.map((r) => [`${r[0]}:${r[1].turn}`, r])).values()].map(
          ([seq, t, agent, startedAt]) => [this.runId, seq, t.turn, agent, startedAt, JSON.stringify(t)],
        ),
      );
    });
  }

  /** The runner is done (finished, interrupted, stopped or failed). */
  end(status: string): void {
    this.flush();
    const now = Date.now();
    this.db?.run(
      "UPDATE runners SET heartbeat_at = ?, ended_at = ?, status = ? WHERE run_id = ? AND runner = ?",
      now,
      now,
      status,
      this.runId,
      this.runner,
    );
  }
}
