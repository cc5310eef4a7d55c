import { mkdirSync } from "node:fs";
import { UserError } from "../../environments/kernel/errors.ts";
import { requireRun, trialRecords } from "../../environments/runner/records.ts";
import { Store } from "../../environments/store/index.ts";
import { marketSummary } from "../../environments/store/markets.ts";
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
    // A market run (`bazaar run market`) is no run of its own: its rounds' runs, summed.
    const run = store.getRun(runId) ?? marketSummary(store, runId) ?? requireRun(store, runId);
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
        ? `${run.failed.toLocaleString("en-US")} trial${run.failed === 1 ? "" : "s"} of this run failed (its agent could not act: \`bazaar runs\` says what failed) and ${run.failed === 1 ? "is" : "are"} in no estimate; the run's own \`bazaar run\` command runs them again`
        : null;
    // Non-responses that are answers cut at the output cap: the cap's doing, not the model's answer.
    const cut = store.cutNonResponseCount(runId);
    const cutNote =
      cut > 0
        ? `${cut.toLocaleString("en-US")} of the non-responses ${cut === 1 ? "is an answer" : "are answers"} cut at the output cap (finish_reason "length"), not ${cut === 1 ? "an answer" : "answers"} the model finished: raise --max-tokens (a new run)`
        : null;
    const notes = [failedNote, cutNote].filter((n): n is string => n !== null);
    if (o.json)
      printJson(
        out,
        result.json !== null && typeof result.json === "object" && !Array.isArray(result.json)
          ? { ...result.json, failedTrials: run.failed, nonResponsesCutAtCap: cut }
          : result.json,
      );
    else if (!o.report) out.log([result.text, ...notes].join("\n\n"));
    if (o.json || o.report) for (const n of notes) out.error(n);
  } finally {
    store.close();
  }
}
