/** Writing imported runs into a store: each run and its tasks in one transaction, then its trials in one. */
import type { Store } from "../../environments/store/index.ts";
import { readPriceBenchRelease } from "./release.ts";
import { type ImportedRun, importedRuns } from "./runs.ts";

export interface ImportResult {
  runs: (ImportedRun["summary"] & { runId: string; model: string; agent: string; created: boolean })[];
}

/**
 * Reads and validates the whole release first (a malformed file throws before the store is
 * touched), then writes. Importing the same release again changes nothing: run ids and trial keys
 * are stable and stored trials are never written twice.
 */
export function importPriceBench(
  dir: string,
  openStore: () => Store,
  opts: { models?: readonly string[] } = {},
): ImportResult {
  const runs = importedRuns(readPriceBenchRelease(dir, opts));
  const store = openStore();
  try {
    return {
      runs: runs.map((r) => {
        const { created } = store.ensureRun(r.run, r.tasks);
        store.writeTrials(r.trials);
        return { ...r.summary, runId: r.run.id, model: r.model, agent: r.agent, created };
      }),
    };
  } finally {
    store.close();
  }
}
