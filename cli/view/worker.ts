/**
 * The viewer's worker thread: a run's analysis (the same analyzer and defaults as `bazaar analyze`)
 * or a comparison of two sides, computed away from the server's thread so pages keep answering
 * while a large run is read. It opens the store itself (read-only), says how far it has read, and
 * posts the result once.
 */
import { parentPort, workerData } from "node:worker_threads";
import { UserError } from "../../environments/kernel/errors.ts";
import { requireRun, trialRecords } from "../../environments/runner/records.ts";
import { Store } from "../../environments/store/index.ts";
import { marketSummary } from "../../environments/store/markets.ts";
import { ANALYZERS } from "../analyzers/index.ts";
import type { Block, ComparePage, FigureView } from "./api-types.ts";
import { textBlocks } from "./blocks.ts";
import { type CompareJob, compareSides } from "./compare.ts";

export type WorkerJob =
  | { kind: "analysis"; store: string; runId: string }
  | ({ kind: "compare"; store: string } & CompareJob);

export type WorkerMessage =
  | { type: "progress"; phase: string; read: number; total: number }
  | {
      type: "analysis";
      headline: Block[];
      blocks: Block[];
      figures: FigureView[];
      notes: string[];
      trials: number;
    }
  | { type: "compare"; result: Omit<ComparePage, "next" | "prev" | "status" | "progress"> }
  | { type: "error"; message: string; user: boolean };

function post(m: WorkerMessage): void {
  parentPort?.postMessage(m);
}

/** Counts the records as the analysis reads them, and says so every 200 ms. */
function* counted(
  records: Iterable<Record<string, unknown>>,
  total: number,
  progress: (phase: string, read: number, total: number) => void,
): Generator<Record<string, unknown>> {
  let read = 0;
  let said = 0;
  for (const r of records) {
    read++;
    const now = Date.now();
    if (now - said > 200) {
      said = now;
      progress("reading trials", read, total);
    }
    yield r;
  }
  progress("estimating", read, total);
}

/** A run's analysis as the viewer shows it (the worker posts it; a bundle writes it). */
export async function analysisFor(
  store: Store,
  runId: string,
  progress: (phase: string, read: number, total: number) => void = () => {},
): Promise<Extract<WorkerMessage, { type: "analysis" }>> {
  const run = store.getRun(runId) ?? marketSummary(store, runId) ?? requireRun(store, runId);
  const entry = ANALYZERS.find((a) => a.env === run.env);
  if (!entry) throw new UserError(`bazaar has no analysis for ${run.env} runs yet`);
  progress("loading the analysis", 0, run.done);
  const analyzer = await entry.load();
  const result = await analyzer.analyze({
    run,
    store,
    records: () => counted(trialRecords(store, runId), run.done, progress),
    options: {},
  });
  const notes: string[] = [];
  if (run.failed > 0)
    notes.push(
      `${run.failed.toLocaleString("en-US")} trial${run.failed === 1 ? "" : "s"} of this run failed (its agent could not act) and ${run.failed === 1 ? "is" : "are"} in no estimate; the run's own \`bazaar run\` command runs them again`,
    );
  const cut = run.env === "market" ? 0 : store.cutNonResponseCount(runId);
  if (cut > 0)
    notes.push(
      `${cut.toLocaleString("en-US")} of the non-responses ${cut === 1 ? "is an answer" : "are answers"} cut at the output cap, not ${cut === 1 ? "an answer" : "answers"} the model finished`,
    );
  return {
    type: "analysis",
    headline: textBlocks(result.headline.lines),
    blocks: textBlocks(result.text),
    figures: (result.figures?.() ?? []).map((f) => ({
      file: f.file,
      title: f.title,
      ...(f.spec ? { spec: f.spec } : {}),
      ...(f.svg ? { svg: f.svg } : {}),
    })),
    notes,
    trials: run.done,
  };
}

async function main(job: WorkerJob): Promise<void> {
  const store = Store.open(job.store, { create: false, readonly: true });
  try {
    const progress = (phase: string, read: number, total: number) =>
      post({ type: "progress", phase, read, total });
    if (job.kind === "analysis") post(await analysisFor(store, job.runId, progress));
    else
      post({
        type: "compare",
        result: compareSides(store, job, (read, total) => progress("reading trials", read, total)),
      });
  } catch (err) {
    post({
      type: "error",
      message: err instanceof Error ? err.message : String(err),
      user: err instanceof UserError,
    });
  } finally {
    store.close();
  }
}

if (parentPort) await main(workerData as WorkerJob);
