/**
 * Markets in the store. A market run (`bazaar run market`) is a driver over rounds of ordinary runs:
 * per round one shop run of buyer episodes and one run of seller turns per seller agent. The
 * `markets` table keeps the market run's identity (design and agents) and `market_runs` links its
 * rounds' runs to it, so `bazaar runs`, `analyze` and `watch` find a market by its id, and a run of
 * one round by the market it belongs to.
 */
import { UserError } from "../kernel/errors.ts";
import type { SqlDb } from "./sql/db.ts";
import type { RunSummary, Store } from "./store.ts";

const DDL = `
CREATE TABLE IF NOT EXISTS markets (
  id TEXT PRIMARY KEY,
  config TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS market_runs (
  market_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  round INTEGER NOT NULL,
  part TEXT NOT NULL,
  PRIMARY KEY (market_id, run_id)
) WITHOUT ROWID;
`;

/** What a round's run is to its market: its buyer episodes, or its sellers' turns. */
export type MarketRunPart = "buyers" | "sellers";

export interface MarketRunLink {
  runId: string;
  round: number;
  part: MarketRunPart;
}

export interface MarketRecord {
  id: string;
  /** The market run's identity (design, agents): canonical JSON, as the CLI wrote it. */
  config: unknown;
  createdAt: string;
  updatedAt: string;
  /** Its rounds' runs, by round, buyers first. */
  runs: MarketRunLink[];
}

/** The markets tables; null on a read-only store written before markets existed. */
function marketsDb(store: Store): SqlDb | null {
  return store.extension("markets", (db, readonly) => {
    if (readonly) return db.hasTable("markets") ? db : null;
    db.exec(DDL);
    return db;
  });
}

const PART_ORDER = "CASE part WHEN 'buyers' THEN 0 ELSE 1 END";

/**
 * Registers a market run, or checks that an existing one with this id has the same identity (the
 * same command run again resumes it).
 */
export function ensureMarket(store: Store, market: { id: string; config: unknown }): { created: boolean } {
  const db = marketsDb(store);
  if (!db) throw new Error("markets need a writable store");
  const config = JSON.stringify(market.config);
  const now = new Date().toISOString();
  const created = db.tx(
    () =>
      db.run(
        "INSERT INTO markets (id, config, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
        market.id,
        config,
        now,
        now,
      ).changes === 1,
  );
  if (!created && db.value<string>("SELECT config FROM markets WHERE id = ?", market.id) !== config) {
    throw new UserError(
      `market ${market.id} exists in ${store.path} with a different configuration`,
      "use another --store",
    );
  }
  return { created };
}

/** Links rounds' runs to their market, in one transaction (a link made before stays as it was). */
export function linkMarketRuns(store: Store, marketId: string, links: readonly MarketRunLink[]): void {
  const db = marketsDb(store);
  if (!db) throw new Error("markets need a writable store");
  db.tx(() => {
    db.runMany(
      "INSERT INTO market_runs (market_id, run_id, round, part) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
      links.map((l) => [marketId, l.runId, l.round, l.part]),
    );
    db.run("UPDATE markets SET updated_at = ? WHERE id = ?", new Date().toISOString(), marketId);
  });
}

export function getMarket(store: Store, id: string): MarketRecord | undefined {
  const db = marketsDb(store);
  if (!db) return undefined;
  const r = db.get<{ id: string; config: string; created_at: string; updated_at: string }>(
    "SELECT * FROM markets WHERE id = ?",
    id,
  );
  if (!r) return undefined;
  const runs = db.all<MarketRunLink>(
    `SELECT run_id AS "runId", round, part FROM market_runs WHERE market_id = ? ORDER BY round, ${PART_ORDER}`,
    id,
  );
  return { id: r.id, config: JSON.parse(r.config), createdAt: r.created_at, updatedAt: r.updated_at, runs };
}

export function listMarkets(store: Store): MarketRecord[] {
  const db = marketsDb(store);
  if (!db) return [];
  return db
    .column<string>("SELECT id FROM markets ORDER BY created_at, id")
    .map((id) => getMarket(store, id)!);
}

/** The market a round's run belongs to, if any. */
export function marketOfRun(store: Store, runId: string): string | undefined {
  const db = marketsDb(store);
  if (!db) return undefined;
  return db.value<string>("SELECT market_id FROM market_runs WHERE run_id = ?", runId);
}

/**
 * A market as a run summary (what `runs`, `analyze` and `run` show of a run): its rounds' runs'
 * trials summed, the market's agents, updated when its last run was.
 */
export function marketSummary(store: Store, id: string): RunSummary | undefined {
  const market = getMarket(store, id);
  if (!market) return undefined;
  const runs = market.runs.map((l) => store.getRun(l.runId)).filter((r): r is RunSummary => r !== undefined);
  const config = market.config as { agents?: string[]; expectedTrials?: number };
  const updated = [market.updatedAt, ...runs.map((r) => r.updatedAt)].sort().at(-1)!;
  return {
    id,
    env: "market",
    createdAt: market.createdAt,
    updatedAt: updated,
    total: config.expectedTrials ?? runs.reduce((s, r) => s + r.total, 0),
    done: runs.reduce((s, r) => s + r.done, 0),
    nonResponses: runs.reduce((s, r) => s + r.nonResponses, 0),
    failed: runs.reduce((s, r) => s + r.failed, 0),
    agents: config.agents ?? [...new Set(runs.flatMap((r) => r.agents))],
    config: market.config,
  };
}
