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
import type Database from "better-sqlite3";
import type { Usage } from "../kernel/types.ts";
import type { SqliteStore } from "./sqlite-store.ts";

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

interface Statements {
  present: boolean;
  putTurn?: Database.Statement;
  dropEpisode?: Database.Statement;
  episodes?: Database.Statement;
  putRunner?: Database.Statement;
  beat?: Database.Statement;
  end?: Database.Statement;
  runners?: Database.Statement;
  write?: (turns: [number, LiveTurn, string, number][], dropped: number[], runId: string) => void;
}

function statements(store: SqliteStore): Statements {
  return store.extension("live", (db, readonly) => {
    if (!readonly) db.exec(DDL);
    const present =
      db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'live_turns'").get() !==
      undefined;
    if (!present) return { present };
    const s: Statements = {
      present,
      episodes: db.prepare(
        "SELECT seq, turn, agent, started_at AS startedAt, turn_json AS turn FROM live_turns WHERE run_id = ? ORDER BY seq, turn",
      ),
      runners: db.prepare(
        `SELECT runner, pid, host, started_at AS startedAt, heartbeat_at AS heartbeatAt, ended_at AS endedAt, status
           FROM runners WHERE run_id = ? ORDER BY started_at`,
      ),
    };
    if (readonly) return s;
    s.putTurn = db.prepare(
      "INSERT OR REPLACE INTO live_turns (run_id, seq, turn, agent, started_at, turn_json) VALUES (?, ?, ?, ?, ?, ?)",
    );
    s.dropEpisode = db.prepare("DELETE FROM live_turns WHERE run_id = ? AND seq = ?");
    s.putRunner = db.prepare(
      `INSERT OR REPLACE INTO runners (run_id, runner, pid, host, started_at, heartbeat_at, ended_at, status)
       VALUES (?, ?, ?, ?, ?, ?, NULL, 'running')`,
    );
    s.beat = db.prepare("UPDATE runners SET heartbeat_at = ? WHERE run_id = ? AND runner = ?");
    s.end = db.prepare(
      "UPDATE runners SET heartbeat_at = ?, ended_at = ?, status = ? WHERE run_id = ? AND runner = ?",
    );
    s.write = db.transaction(
      (turns: [number, LiveTurn, string, number][], dropped: number[], runId: string) => {
        for (const seq of dropped) s.dropEpisode!.run(runId, seq);
        for (const [seq, t, agent, startedAt] of turns)
          s.putTurn!.run(runId, seq, t.turn, agent, startedAt, JSON.stringify(t));
      },
    ).immediate;
    return s;
  });
}

/** The episodes in flight of a run, as the store last heard of them (after a crash: where they stopped). */
export function liveEpisodes(store: SqliteStore, runId: string): LiveEpisode[] {
  const s = statements(store);
  if (!s.present) return [];
  const by = new Map<number, LiveEpisode>();
  for (const r of s.episodes!.iterate(runId) as Iterable<{
    seq: number;
    agent: string;
    startedAt: number;
    turn: string;
  }>) {
    let e = by.get(r.seq);
    if (!e) {
      e = { seq: r.seq, agent: r.agent, startedAt: r.startedAt, turns: [] };
      by.set(r.seq, e);
    }
    e.turns.push(JSON.parse(r.turn) as LiveTurn);
  }
  return [...by.values()];
}

export function runnersOf(store: SqliteStore, runId: string): RunnerRow[] {
  const s = statements(store);
  return s.present ? (s.runners!.all(runId) as RunnerRow[]) : [];
}

/** A name for this process's runner of a run: host, pid and a random suffix (a pid is reused). */
export function runnerName(): string {
  return `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
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
  private readonly s: Statements;
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
    store: SqliteStore,
    private readonly runId: string,
    runner = runnerName(),
  ) {
    this.s = statements(store);
    // Episodes an earlier process left in the log (interrupted, crashed): dropped when they end here.
    for (const e of liveEpisodes(store, runId)) this.stale.add(e.seq);
    this.runner = runner;
    const now = Date.now();
    this.s.putRunner?.run(runId, this.runner, process.pid, hostname(), now, now);
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
    if (rows.length > 0 || this.dropped.length > 0) this.s.write?.(rows, this.dropped, this.runId);
    this.dropped = [];
    this.s.beat?.run(Date.now(), this.runId, this.runner);
  }

  /** The runner is done (finished, interrupted, stopped or failed). */
  end(status: string): void {
    this.flush();
    const now = Date.now();
    this.s.end?.run(now, now, status, this.runId, this.runner);
  }
}
