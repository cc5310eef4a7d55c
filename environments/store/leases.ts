/**
 * Trial leases: several processes running one run on one store share its trials instead of each
 * running all of them (and paying every model call once per process).
 *
 * A run's trials are cut into blocks of `LEASE_BLOCK` consecutive seqs. A runner claims a block —
 * writes its name and an expiry into the block's row of `trial_leases` in one statement that locks
 * the row as it picks it, so two runners never hold the same block — runs the block's pending trials, renews its leases while it works, and
 * releases a block once every trial of it is written. Other runners skip blocks under a live lease;
 * a killed runner's leases expire and its blocks go to whoever asks next — at once, on a SQLite
 * store, when its process ran on this machine and is gone. A runner never claims again
 * a block it has already been through in this invocation, so a trial that fails (an endpoint down)
 * is tried at most once per runner and the run still ends; the same command re-runs it later.
 *
 * The block size is fixed in code, not per run: every runner of a run must cut it the same way.
 */
import { runnerProcessGone } from "./live.ts";
import type { SqlDb } from "./sql/db.ts";
import type { Store } from "./store.ts";

/** Trials per lease. Small enough to spread a 600-trial LLM run over several runners, large enough that claiming is cheap. */
export const LEASE_BLOCK = 64;
/** A lease lives this long unless renewed; a runner renews every quarter of it. */
export const DEFAULT_LEASE_MS = 60_000;

/** A block nobody holds has an empty owner (its row stays, for PostgreSQL to lock). */
const DDL = `
CREATE TABLE IF NOT EXISTS trial_leases (
  run_id TEXT NOT NULL,
  block INTEGER NOT NULL,
  owner TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (run_id, block)
) WITHOUT ROWID;
`;

/** A block this runner now holds, with the seqs of it still to run (below the runner's target). */
export interface Claimed {
  block: number;
  seqs: number[];
}

/** No block to claim now: `others` blocks are held by other runners under live leases. */
export interface Busy {
  block: -1;
  others: number;
  /** When the first of those leases runs out (ms since the epoch), unless renewed. */
  nextExpiry: number;
}

function leaseDb(store: Store): SqlDb {
  return store.extension("leases", (db, readonly) => {
    if (readonly) throw new Error("leases need a writable store");
    db.exec(DDL);
    return db;
  });
}

/**
 * One runner's leases on one run. `claim` hands out the next block with trials to run; `done` says
 * a block's trials are all written (called after the write), `renew` keeps the leases alive, `end`
 * lets go of every lease left (a stopped runner's blocks go to the others at once).
 */
export class TrialLeases {
  private readonly db: SqlDb;
  /** Blocks this runner has been through (done, or found done): never claimed again here. */
  private readonly visited = new Set<number>();
  private readonly holding = new Set<number>();
  private lowest = 0;
  private lastRenew = 0;

  constructor(
    store: Store,
    private readonly runId: string,
    readonly owner: string,
    /** Seqs below this are this runner's to run (the run, or its `--limit` prefix). */
    private readonly target: number,
    private readonly leaseMs = DEFAULT_LEASE_MS,
  ) {
    this.db = leaseDb(store);
    // One row per block, free until claimed: a claim locks the row it takes, so runners claiming at
    // once on PostgreSQL each take a different block (SKIP LOCKED) instead of queueing.
    const rows: [string, number][] = [];
    for (let b = 0; b < this.blocks; b++) rows.push([runId, b]);
    this.db.runMany(
      "INSERT INTO trial_leases (run_id, block, owner, expires_at) VALUES (?, ?, '', 0) ON CONFLICT DO NOTHING",
      rows,
    );
  }

  get blocks(): number {
    return Math.ceil(this.target / LEASE_BLOCK);
  }

  /**
   * The next block with pending trials, leased to this runner; or, when every block left is held by
   * other runners, how many and when the first lease runs out; `null` when nothing is left at all.
   */
  claim(now = Date.now()): Claimed | Busy | null {
    for (;;) {
      while (this.visited.has(this.lowest)) this.lowest++;
      if (this.lowest >= this.blocks) return null;
      const r = this.claimOnce(now);
      if (!("seqs" in r)) {
        if (r.others > 0 && this.freeLeasesOfGoneRunners(now) > 0) continue;
        return r.others > 0 ? r : null;
      }
      this.visited.add(r.block);
      if (r.seqs.length > 0) {
        this.holding.add(r.block);
        return r;
      }
    }
  }

  /**
   * The lowest block not visited here that nobody else holds under a live lease, taken in one
   * statement (an UPDATE of the row its subquery picks: atomic on SQLite; on PostgreSQL the row is
   * locked as it is picked, skipping rows another runner is taking at this moment), and let go again
   * at once when every trial of it is already stored.
   */
  private claimOnce(now: number): Claimed | Busy {
    const d = this.db.dialect;
    const visited = JSON.stringify([...this.visited].filter((b) => b >= this.lowest));
    const block = this.db.value<number>(
      `UPDATE trial_leases SET owner = ?, expires_at = ?
        WHERE run_id = ? AND block = (
          SELECT block FROM trial_leases
           WHERE run_id = ? AND block >= ? AND block < ? AND ${d.inList("block", true)}
             AND (owner = '' OR owner = ? OR expires_at <= ?)
           ORDER BY block LIMIT 1${d.lockSkipLocked})
        RETURNING block`,
      this.owner,
      now + this.leaseMs,
      this.runId,
      this.runId,
      this.lowest,
      this.blocks,
      visited,
      this.owner,
      now,
    );
    if (block === undefined) {
      const left = this.db.get<{ rows: number; others: number; nextExpiry: number | null }>(
        `SELECT COUNT(*) AS "rows",
                COALESCE(SUM(CASE WHEN owner <> '' AND owner <> ? AND expires_at > ? THEN 1 ELSE 0 END), 0) AS others,
                MIN(CASE WHEN owner <> '' AND owner <> ? AND expires_at > ? THEN expires_at END) AS "nextExpiry"
           FROM trial_leases WHERE run_id = ? AND block >= ? AND block < ? AND ${d.inList("block", true)}`,
        this.owner,
        now,
        this.owner,
        now,
        this.runId,
        this.lowest,
        this.blocks,
        visited,
      )!;
      // Blocks left that are neither free nor under another's live lease are being taken by another
      // runner this instant (PostgreSQL skipped their locked rows): ask again shortly.
      if (left.others === 0 && left.rows > 0) return { block: -1, others: left.rows, nextExpiry: now + 25 };
      return { block: -1, others: left.others, nextExpiry: left.nextExpiry ?? Number.POSITIVE_INFINITY };
    }
    const from = block * LEASE_BLOCK;
    const stored = new Set(
      this.db.column<number>(
        "SELECT seq FROM trials WHERE run_id = ? AND seq >= ? AND seq < ?",
        this.runId,
        from,
        from + LEASE_BLOCK,
      ),
    );
    const seqs: number[] = [];
    const end = Math.min(this.target, from + LEASE_BLOCK);
    for (let seq = from; seq < end; seq++) if (!stored.has(seq)) seqs.push(seq);
    // Done by someone (a lease that ran out after its trials were written): nothing to hold.
    if (seqs.length === 0)
      this.db.run(
        "UPDATE trial_leases SET owner = '', expires_at = 0 WHERE run_id = ? AND block = ? AND owner = ?",
        this.runId,
        block,
        this.owner,
      );
    return { block, seqs };
  }

  /**
   * Frees the live leases of runners that ran on this machine in a process now gone (killed, crashed):
   * nobody will renew them, so the same command run again after a kill need not wait them out. Only
   * on SQLite, a store of one machine: runners on several machines share a PostgreSQL store, and two
   * of them may carry the same host name. Returns the leases freed.
   */
  private freeLeasesOfGoneRunners(now: number): number {
    if (this.db.dialect.name !== "sqlite") return 0;
    const owners = this.db.column<string>(
      "SELECT DISTINCT owner FROM trial_leases WHERE run_id = ? AND owner <> '' AND owner <> ? AND expires_at > ?",
      this.runId,
      this.owner,
      now,
    );
    let freed = 0;
    for (const owner of owners.filter(runnerProcessGone))
      freed += this.db.run(
        "UPDATE trial_leases SET owner = '', expires_at = 0 WHERE run_id = ? AND owner = ?",
        this.runId,
        owner,
      ).changes;
    return freed;
  }

  /** Whether no block is left that this runner has not been through (so `claim` would find none). */
  exhausted(): boolean {
    while (this.visited.has(this.lowest)) this.lowest++;
    return this.lowest >= this.blocks;
  }

  /** A block known to be done (every trial stored when the runner started): never claimed. */
  skip(block: number): void {
    this.visited.add(block);
  }

  /** Every trial of the block is written: the lease goes. */
  done(block: number): void {
    if (!this.holding.delete(block)) return;
    this.db.run(
      "UPDATE trial_leases SET owner = '', expires_at = 0 WHERE run_id = ? AND block = ? AND owner = ?",
      this.runId,
      block,
      this.owner,
    );
  }

  /** Extends this runner's leases when a quarter of their life has passed since the last time. */
  renew(now = Date.now()): void {
    if (this.holding.size === 0 || now - this.lastRenew < this.leaseMs / 4) return;
    this.lastRenew = now;
    this.db.run(
      "UPDATE trial_leases SET expires_at = ? WHERE run_id = ? AND owner = ?",
      now + this.leaseMs,
      this.runId,
      this.owner,
    );
  }

  /** The runner stops: whatever it still holds is free for the others now, not at expiry. */
  end(): void {
    this.db.run(
      "UPDATE trial_leases SET owner = '', expires_at = 0 WHERE run_id = ? AND owner = ?",
      this.runId,
      this.owner,
    );
    this.holding.clear();
  }
}

/** The block a seq belongs to. */
export function blockOf(seq: number): number {
  return Math.floor(seq / LEASE_BLOCK);
}
