/**
 * Trial leases: several processes running one run on one store share its trials instead of each
 * running all of them (and paying every model call once per process).
 *
 * A run's trials are cut into blocks of `LEASE_BLOCK` consecutive seqs. A runner claims a block —
 * writes its name and an expiry into `trial_leases` in one write transaction, so two runners never
 * hold the same block — runs the block's pending trials, renews its leases while it works, and
 * releases a block once every trial of it is written. Other runners skip blocks under a live lease;
 * a killed runner's leases expire and its blocks go to whoever asks next. A runner never claims again
 * a block it has already been through in this invocation, so a trial that fails (an endpoint down)
 * is tried at most once per runner and the run still ends; the same command re-runs it later.
 *
 * The block size is fixed in code, not per run: every runner of a run must cut it the same way.
 */
import type Database from "better-sqlite3";
import type { SqliteStore } from "./sqlite-store.ts";

/** Trials per lease. Small enough to spread a 600-trial LLM run over several runners, large enough that claiming is cheap. */
export const LEASE_BLOCK = 64;
/** A lease lives this long unless renewed; a runner renews every quarter of it. */
export const DEFAULT_LEASE_MS = 60_000;

const DDL = `
CREATE TABLE IF NOT EXISTS trial_leases (
  run_id TEXT NOT NULL,
  block INTEGER NOT NULL,
  owner TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (run_id, block)
) WITHOUT ROWID;
`;

interface Statements {
  leases: Database.Statement;
  storedIn: Database.Statement;
  put: Database.Statement;
  renew: Database.Statement;
  release: Database.Statement;
  releaseAll: Database.Statement;
  claim: (runId: string, owner: string, now: number, expires: number, pick: PickBlock) => Claimed | Busy;
}

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

type PickBlock = (held: ReadonlyMap<number, { owner: string; expiresAt: number }>) => {
  candidates: Iterable<number>;
  pending: (block: number, stored: ReadonlySet<number>) => number[];
};

function statements(store: SqliteStore): Statements {
  return store.extension("leases", (db, readonly) => {
    if (readonly) throw new Error("leases need a writable store");
    db.exec(DDL);
    const s = {
      leases: db.prepare("SELECT block, owner, expires_at AS expiresAt FROM trial_leases WHERE run_id = ?"),
      storedIn: db.prepare("SELECT seq FROM trials WHERE run_id = ? AND seq >= ? AND seq < ?").pluck(),
      put: db.prepare(
        "INSERT OR REPLACE INTO trial_leases (run_id, block, owner, expires_at) VALUES (?, ?, ?, ?)",
      ),
      renew: db.prepare("UPDATE trial_leases SET expires_at = ? WHERE run_id = ? AND owner = ?"),
      release: db.prepare("DELETE FROM trial_leases WHERE run_id = ? AND block = ? AND owner = ?"),
      releaseAll: db.prepare("DELETE FROM trial_leases WHERE run_id = ? AND owner = ?"),
    } as Statements;
    // One write transaction from the first read (BEGIN IMMEDIATE): two runners never see the same
    // block free and both take it.
    s.claim = db
      .transaction((runId: string, owner: string, now: number, expires: number, pick: PickBlock) => {
        const held = new Map<number, { owner: string; expiresAt: number }>();
        for (const r of s.leases.iterate(runId) as Iterable<{
          block: number;
          owner: string;
          expiresAt: number;
        }>)
          held.set(r.block, { owner: r.owner, expiresAt: r.expiresAt });
        const p = pick(held);
        let others = 0;
        let nextExpiry = Number.POSITIVE_INFINITY;
        for (const block of p.candidates) {
          const h = held.get(block);
          if (h && h.owner !== owner && h.expiresAt > now) {
            others++;
            nextExpiry = Math.min(nextExpiry, h.expiresAt);
            continue;
          }
          const from = block * LEASE_BLOCK;
          const stored = new Set(s.storedIn.all(runId, from, from + LEASE_BLOCK) as number[]);
          const seqs = p.pending(block, stored);
          if (seqs.length === 0) {
            // Done by someone (a lease that ran out after its trials were written): nothing to hold.
            if (h) s.release.run(runId, block, h.owner);
            return { block, seqs };
          }
          s.put.run(runId, block, owner, expires);
          return { block, seqs };
        }
        return { block: -1 as const, others, nextExpiry };
      })
      .immediate.bind(null) as Statements["claim"];
    return s;
  });
}

/**
 * One runner's leases on one run. `claim` hands out the next block with trials to run; `done` says
 * a block's trials are all written (called after the write), `renew` keeps the leases alive, `end`
 * lets go of every lease left (a stopped runner's blocks go to the others at once).
 */
export class TrialLeases {
  private readonly s: Statements;
  /** Blocks this runner has been through (done, or found done): never claimed again here. */
  private readonly visited = new Set<number>();
  private readonly holding = new Set<number>();
  private lowest = 0;
  private lastRenew = 0;

  constructor(
    store: SqliteStore,
    private readonly runId: string,
    readonly owner: string,
    /** Seqs below this are this runner's to run (the run, or its `--limit` prefix). */
    private readonly target: number,
    private readonly leaseMs = DEFAULT_LEASE_MS,
  ) {
    this.s = statements(store);
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
      const r = this.s.claim(this.runId, this.owner, now, now + this.leaseMs, () => ({
        candidates: this.candidates(),
        pending: (block, stored) => {
          const out: number[] = [];
          const end = Math.min(this.target, (block + 1) * LEASE_BLOCK);
          for (let seq = block * LEASE_BLOCK; seq < end; seq++) if (!stored.has(seq)) out.push(seq);
          return out;
        },
      }));
      if (!("seqs" in r)) return r;
      this.visited.add(r.block);
      if (r.seqs.length > 0) {
        this.holding.add(r.block);
        return r;
      }
    }
  }

  /** A block known to be done (every trial stored when the runner started): never claimed. */
  skip(block: number): void {
    this.visited.add(block);
  }

  private *candidates(): Iterable<number> {
    for (let b = this.lowest; b < this.blocks; b++) if (!this.visited.has(b)) yield b;
  }

  /** Every trial of the block is written: the lease goes. */
  done(block: number): void {
    if (!this.holding.delete(block)) return;
    this.s.release.run(this.runId, block, this.owner);
  }

  /** Extends this runner's leases when a quarter of their life has passed since the last time. */
  renew(now = Date.now()): void {
    if (this.holding.size === 0 || now - this.lastRenew < this.leaseMs / 4) return;
    this.lastRenew = now;
    this.s.renew.run(now + this.leaseMs, this.runId, this.owner);
  }

  /** The runner stops: whatever it still holds is free for the others now, not at expiry. */
  end(): void {
    this.s.releaseAll.run(this.runId, this.owner);
    this.holding.clear();
  }
}

/** The block a seq belongs to. */
export function blockOf(seq: number): number {
  return Math.floor(seq / LEASE_BLOCK);
}
