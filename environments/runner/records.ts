import { UserError } from "../kernel/errors.ts";
import type { Usage } from "../kernel/types.ts";
import { environmentNamed } from "../registry.ts";
import type { RunSummary, Store } from "../store/index.ts";

/**
 * A run's trial records (the export contract), streamed from the store: each stored outcome joined
 * with its task and shaped by the run's environment.
 */
export function* trialRecords(store: Store, runId: string): Generator<Record<string, unknown>> {
  const env = environmentNamed(requireRun(store, runId).env);
  for (const row of store.trialRows(runId)) {
    const result = row.result as { outcome: unknown; usage: Usage };
    yield env.record({
      run: runId,
      trialKey: row.trialKey,
      seq: row.seq,
      agent: row.agent,
      replicate: row.replicate,
      task: row.task,
      outcome: result.outcome,
      usage: result.usage,
    });
  }
}

/** The trial records at these seqs (stored ones only), for a follower that sees trials finish. */
export function trialRecordsAt(
  store: Store,
  runId: string,
  seqs: readonly number[],
): Record<string, unknown>[] {
  const env = environmentNamed(requireRun(store, runId).env);
  return store.trialRowsAt(runId, seqs).map((row) => {
    const result = row.result as { outcome: unknown; usage: Usage };
    return env.record({
      run: runId,
      trialKey: row.trialKey,
      seq: row.seq,
      agent: row.agent,
      replicate: row.replicate,
      task: row.task,
      outcome: result.outcome,
      usage: result.usage,
    });
  });
}

/** The run with this id, or a UserError that lists the runs the store does have. */
export function requireRun(store: Store, runId: string): RunSummary {
  const run = store.getRun(runId);
  if (run) return run;
  const ids = store.listRuns().map((r) => r.id);
  throw new UserError(
    `no run "${runId}" in ${store.path}`,
    ids.length ? `runs there: ${ids.join(", ")}` : "the store has no runs yet",
  );
}
