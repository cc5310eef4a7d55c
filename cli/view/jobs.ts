/**
 * The viewer's slow work — a run's analysis, a comparison — done once per state of the run in a
 * worker thread (worker.ts), one job at a time (two cores: the server keeps the other), and kept:
 * a page asks, the job starts or is already on its way, and the page shows its progress until the
 * result is in. When trials are added the next ask starts a new job, the last result showing
 * meanwhile (marked stale).
 */
import type { Worker } from "node:worker_threads";
import { startModuleWorker } from "../../environments/kernel/module-worker.ts";
import type { AnalysisView, ComparePage } from "./api-types.ts";
import type { CompareJob } from "./compare.ts";
import type { WorkerJob, WorkerMessage } from "./worker.ts";

type AnalysisResult = Extract<WorkerMessage, { type: "analysis" }>;
type CompareResult = Extract<WorkerMessage, { type: "compare" }>["result"];

interface Entry<R> {
  /** The state the last finished job was of, and its result or error. */
  doneState: string | null;
  result: R | null;
  error: string | null;
  tookMs: number | null;
  /** The state the job in flight (or queued) is of. */
  runningState: string | null;
  progress: { phase: string; read: number; total: number } | null;
  started: number;
}

function entry<R>(): Entry<R> {
  return {
    doneState: null,
    result: null,
    error: null,
    tookMs: null,
    runningState: null,
    progress: null,
    started: 0,
  };
}

export class Jobs {
  private readonly analyses = new Map<string, Entry<AnalysisResult>>();
  private readonly comparisons = new Map<string, Entry<CompareResult>>();
  private readonly queue: { job: WorkerJob; entry: Entry<unknown>; state: string }[] = [];
  private worker: Worker | null = null;
  private closed = false;

  constructor(private readonly storePath: string) {}

  /** The run's analysis for `state` (its stored trials and last change), starting it if need be. */
  analysis(runId: string, state: string, trials: number): AnalysisView {
    let e = this.analyses.get(runId);
    if (!e) {
      e = entry();
      this.analyses.set(runId, e);
    }
    if (e.doneState !== state && e.runningState === null && trials > 0)
      this.enqueue({ kind: "analysis", store: this.storePath, runId }, e as Entry<unknown>, state);
    const r = e.result;
    const running = e.runningState !== null;
    return {
      status: running ? "running" : r ? "ready" : e.error ? "failed" : "none",
      trials: r?.trials ?? 0,
      stale: r !== null && e.doneState !== state,
      progress:
        running && e.progress ? { ...e.progress, elapsedMs: e.started ? Date.now() - e.started : 0 } : null,
      headline: r?.headline ?? [],
      blocks: r?.blocks ?? [],
      figures: r?.figures ?? [],
      notes: r?.notes ?? [],
      error: e.error,
      tookMs: e.tookMs,
    };
  }

  /** The headline of the run's last analysis, if there was one (starts nothing). */
  headline(runId: string): AnalysisResult["headline"] | null {
    return this.analyses.get(runId)?.result?.headline ?? null;
  }

  compare(
    job: CompareJob,
    state: string,
  ): {
    result: CompareResult | null;
    error: string | null;
    progress: ComparePage["progress"];
    running: boolean;
  } {
    const key = JSON.stringify(job);
    let e = this.comparisons.get(key);
    if (!e) {
      e = entry();
      this.comparisons.set(key, e);
      // A handful at most: each holds a page list of differing tasks.
      if (this.comparisons.size > 8) this.comparisons.delete(this.comparisons.keys().next().value!);
    }
    if (e.doneState !== state && e.runningState === null)
      this.enqueue({ kind: "compare", store: this.storePath, ...job }, e as Entry<unknown>, state);
    return {
      result: e.doneState === state || e.runningState === null ? e.result : e.result,
      error: e.error,
      progress: e.progress ? { read: e.progress.read, total: e.progress.total } : null,
      running: e.runningState !== null,
    };
  }

  private enqueue(job: WorkerJob, e: Entry<unknown>, state: string): void {
    e.runningState = state;
    e.progress = { phase: "waiting for another job", read: 0, total: 0 };
    this.queue.push({ job, entry: e, state });
    this.next();
  }

  private next(): void {
    if (this.worker || this.closed) return;
    const item = this.queue.shift();
    if (!item) return;
    const { job, entry: e, state } = item;
    e.started = Date.now();
    e.progress = { phase: "starting", read: 0, total: 0 };
    const worker = startModuleWorker(
      import.meta.url,
      { source: "./worker.ts", compiled: "view-worker" },
      { workerData: job },
    );
    this.worker = worker;
    let settled = false;
    const finish = (apply: () => void) => {
      if (settled) return;
      settled = true;
      apply();
      e.runningState = null;
      e.progress = null;
      e.doneState = state;
      e.tookMs = Date.now() - e.started;
      this.worker = null;
      void worker.terminate();
      this.next();
    };
    worker.on("message", (m: WorkerMessage) => {
      if (m.type === "progress") e.progress = { phase: m.phase, read: m.read, total: m.total };
      else if (m.type === "error")
        finish(() => {
          e.error = m.message;
          e.result = null;
        });
      else
        finish(() => {
          e.error = null;
          e.result = m.type === "analysis" ? m : m.result;
        });
    });
    worker.on("error", (err) =>
      finish(() => {
        e.error = err.message;
      }),
    );
    worker.on("exit", (code) => {
      if (!settled)
        finish(() => {
          e.error = `the analysis stopped (exit ${code})`;
        });
    });
  }

  close(): Promise<unknown> {
    this.closed = true;
    this.queue.length = 0;
    return this.worker ? this.worker.terminate() : Promise.resolve();
  }
}
