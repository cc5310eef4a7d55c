/**
 * The stopping rule a run was last played under (`--until`), kept beside the run: `bazaar analyze`
 * reads it to report the intervals the run's headline reported. It is not part of the run's identity
 * (the run id): a run stopped at ±1.0 and the same run asked for ±0.6 are one run, whose trials the
 * tighter target extends. A table of its own (store.extension), so stores without it read as before.
 */
import type { Store } from "../store/index.ts";
import type { SqlDb } from "../store/sql/db.ts";

const DDL = `
CREATE TABLE IF NOT EXISTS run_stop_rules (
  run_id TEXT PRIMARY KEY,
  rule TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
`;

/** The rule as stored: plain data, read back by the analysis (the CLI's analyzers). */
export interface StoredStopRule {
  /** Each target: the estimand, the half-width in its own scale, and the words the user wrote. */
  targets: { estimand: string; halfWidth: number; written: string }[];
  /** Confidence level of the intervals compared with the targets. */
  level: number;
  /** How the intervals keep their level at the stopping time (for the reader; README, Method). */
  method: string;
  /** Units played before the first look, and the factor each look grows by (units.ts). */
  firstLook: number;
  lookGrowth: number;
}

/** The store's connection for the rules; null on a read-only store written before they existed. */
function rulesDb(store: Store): SqlDb | null {
  return store.extension("stop-rules", (db, readonly) => {
    if (!readonly) db.exec(DDL);
    return db.hasTable("run_stop_rules") ? db : null;
  });
}

/** Records (or replaces) the rule of a run. */
export function saveStopRule(store: Store, runId: string, rule: StoredStopRule): void {
  const db = rulesDb(store);
  if (!db) throw new Error("bug: a stopping rule written to a read-only store");
  db.run(
    `INSERT INTO run_stop_rules (run_id, rule, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (run_id) DO UPDATE SET rule = excluded.rule, updated_at = excluded.updated_at`,
    runId,
    JSON.stringify(rule),
    new Date().toISOString(),
  );
}

/** The rule a run was last played under, or null for a run played without `--until`. */
export function stopRuleOf(store: Store, runId: string): StoredStopRule | null {
  const json = rulesDb(store)?.value<string>("SELECT rule FROM run_stop_rules WHERE run_id = ?", runId);
  return json === undefined ? null : (JSON.parse(json) as StoredStopRule);
}

/**
 * Forgets the rule of a run played again without `--until`: its stored trials are then no longer
 * the sample a rule stopped at, and `analyze` must not report them as intervals at a stopping time.
 * A store that never held a rule is left as it is (no table is made for this).
 */
export function clearStopRule(store: Store, runId: string): void {
  const db = store.extension("stop-rules-existing", (db, readonly) =>
    !readonly && db.hasTable("run_stop_rules") ? db : null,
  );
  db?.run("DELETE FROM run_stop_rules WHERE run_id = ?", runId);
}
