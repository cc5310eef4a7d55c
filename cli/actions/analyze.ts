import { mkdirSync } from "node:fs";
import { UserError } from "../../environments/kernel/errors.ts";
import { requireRun, trialRecords } from "../../environments/runner/records.ts";
import { Store } from "../../environments/store/index.ts";
import { ANALYZERS } from "../analyzers/index.ts";
import { type Output, printJson } from "../output.ts";

/** `bazaar analyze <run>`: the run's environment's analysis, as tables, JSON or a report. */
export async function analyzeRun(
  runId: string,
  o: Record<string, unknown> & { store: string; json?: boolean; report?: string },
  out: Output,
): Promise<void> {
  const store = Store.open(o.store, { create: false, readonly: true });
  try {
    const run = requireRun(store, runId);
    const entry = ANALYZERS.find((a) => a.env === run.env);
    if (!entry) {
      throw new UserError(
        `bazaar has no analysis for ${run.env} runs yet`,
        `analyses exist for: ${ANALYZERS.map((a) => a.env).join(", ") || "none"}`,
      );
    }
    const analyzer = await entry.load();
    const result = await analyzer.analyze({
      run,
      store,
      records: () => trialRecords(store, runId),
      options: o,
    });
    if (o.report) {
      mkdirSync(o.report, { recursive: true });
      const files = result.writeReport(o.report);
      out.error(`wrote ${files.length} files to ${o.report}: ${files.join(", ")}`);
    }
    // Failed trials are missing data: in no estimate above, and said so.
    const failedNote =
      run.failed > 0
        ? `${run.failed.toLocaleString("en-US")} trial${run.failed === 1 ? "" : "s"} of this run failed (a model call that failed after every retry) and ${run.failed === 1 ? "is" : "are"} in no estimate; the run's own \`bazaar run\` command runs them again`
        : null;
    if (o.json)
      printJson(
        out,
        result.json !== null && typeof result.json === "object" && !Array.isArray(result.json)
          ? { ...result.json, failedTrials: run.failed }
          : result.json,
      );
    else if (!o.report) out.log(failedNote ? `${result.text}\n\n${failedNote}` : result.text);
    if (failedNote && (o.json || o.report)) out.error(failedNote);
  } finally {
    store.close();
  }
}
