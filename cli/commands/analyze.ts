import { mkdirSync } from "node:fs";
import type { Command } from "commander";
import { UserError } from "../../environments/kernel/errors.ts";
import { requireRun, trialRecords } from "../../environments/runner/records.ts";
import { Store } from "../../environments/store/index.ts";
import { ANALYZERS } from "../analyzers/index.ts";
import { type Output, printJson } from "../output.ts";
import { storeOption } from "../store-option.ts";

export function registerAnalyze(program: Command, out: Output): void {
  const cmd = program
    .command("analyze")
    .description("turn a run's trials into the estimates its audit reports (tables, JSON, or a report)")
    .argument("<run>", "run id (see `bazaar runs`)")
    .addOption(storeOption())
    .option("--json", "print the results as one JSON document")
    .option("--report <dir>", "write a markdown report with SVG figures into this folder");
  for (const a of ANALYZERS) a.addOptions?.(cmd);
  cmd.action(
    async (
      runId: string,
      o: Record<string, unknown> & { store: string; json?: boolean; report?: string },
    ) => {
      const store = Store.open(o.store, { create: false, readonly: true });
      try {
        const run = requireRun(store, runId);
        const analyzer = ANALYZERS.find((a) => a.env === run.env);
        if (!analyzer) {
          throw new UserError(
            `bazaar has no analysis for ${run.env} runs yet`,
            `analyses exist for: ${ANALYZERS.map((a) => a.env).join(", ") || "none"}`,
          );
        }
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
    },
  );
}
