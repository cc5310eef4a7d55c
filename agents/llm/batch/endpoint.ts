/**
 * One model at one endpoint, as a batch run uses it. Its `fetch` is the one ChatOpenAI calls: it
 * parks each request (the turn's custom id, the body as ChatOpenAI wrote it) and answers it once
 * the batch holding it has ended. `flush` sends what is parked — first asking the ledger where each
 * request already went, so a restarted run waits on the batches still alive and reads the ones that
 * ended, and only the rest are uploaded, in batches within the provider's limits. Every batch is
 * polled with backoff until it ends; its output and error files are read a line at a time into the
 * ledger, and each waiting request gets its line as the HTTP answer it stands for (`lines.ts`).
 *
 * What goes wrong is said the way the live path says it, so the caller's rules apply unchanged: a
 * rejected key is a 401 (the run stops), a batch or a line that failed for the provider's reasons is
 * a 5xx (the caller retries: the request goes into a later batch, up to --max-retries), a request
 * the provider refused on its merits is its 400 (the model's answer). A provider without the batch
 * API, or one that refuses the batch itself, breaks the host: the run fails with that one line.
 */
import { UserError } from "../../../environments/kernel/errors.ts";
import { classifyError } from "../resilience.ts";
import { redact } from "../secrets.ts";
import type { BatchApiClient, ProviderBatch } from "./client.ts";
import { turnContext } from "./context.ts";
import {
  type BatchLedger,
  type BatchRecord,
  type BatchState,
  LIVE,
  type LineRecord,
  type RequestState,
  WITH_FILES,
} from "./ledger.ts";
import {
  type BatchLimits,
  errorResponse,
  lineBytes,
  lineRecord,
  type ResultLine,
  readResultLine,
  requestLine,
  responseFor,
  splitIntoBatches,
} from "./lines.ts";

interface Waiter {
  resolve(r: Response): void;
  reject(e: unknown): void;
}

interface Parked {
  customId: string;
  agent: string;
  line: string;
  bytes: number;
  waiters: Waiter[];
}

interface Watch {
  localId: number;
  batchId: string;
  waiters: Map<string, Waiter[]>;
  delayMs: number;
  timer: NodeJS.Timeout | null;
}

/** What a batch run did, for its summary. */
export interface BatchCounts {
  /** Batches this process created, and their requests. */
  submitted: number;
  requests: number;
  /** Batches an earlier process sent that this one waited on or read. */
  resumed: number;
  answered: number;
  /** Lines that failed (an HTTP error) or that the batch never ran (expired, cancelled). */
  failed: number;
}

export interface EndpointOptions {
  runId: string;
  baseURL: string;
  model: string;
  client: BatchApiClient;
  ledger: BatchLedger;
  limits: BatchLimits;
  pollMs: { min: number; max: number };
  /** Whether an ended batch of another run may answer a request (not with --no-cache). */
  reuseOtherRuns: boolean;
  counts: BatchCounts;
  /** A line for the user: a batch sent, resumed, ended. */
  say(line: string): void;
  /** The host cannot go on (no batch API here, the batch refused): the run fails with this. */
  fail(err: UserError): void;
  /** A request was parked (+1) or dropped before it was sent (−1). */
  parked(delta: number): void;
}

const n = (x: number) => x.toLocaleString("en-US");

/** How long a closing endpoint waits for aborted provider calls to settle. */
const CLOSE_GRACE_MS = 2_000;

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The run was stopped", "AbortError");
}

export class BatchEndpoint {
  private queue = new Map<string, Parked>();
  private readonly watches = new Map<number, Watch>();
  private readonly running = new Set<Promise<void>>();
  /** Aborts the provider calls in flight when the run ends. */
  private readonly stop = new AbortController();
  private closed = false;

  constructor(private readonly o: EndpointOptions) {}

  /** The fetch ChatOpenAI calls for this endpoint's batch turns. */
  readonly fetch: typeof globalThis.fetch = (input, init) => {
    const key = turnContext.getStore()?.key;
    const agent = turnContext.getStore()?.agent ?? "";
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!key) return Promise.reject(new Error("a batch request outside a batch turn (no custom id)"));
    if (!url.endsWith("/chat/completions"))
      return Promise.reject(new Error(`batch turns carry chat completions only, not ${url}`));
    if (typeof init?.body !== "string") return Promise.reject(new Error("a batch request needs a JSON body"));
    const signal = init.signal ?? undefined;
    const body = init.body;
    return new Promise<Response>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError(signal));
      const onAbort = () => {
        this.drop(key, waiter);
        reject(abortError(signal!));
      };
      const waiter: Waiter = {
        resolve: (r) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(r);
        },
        reject: (e) => {
          signal?.removeEventListener("abort", onAbort);
          reject(e);
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.park(key, agent, body, waiter);
    });
  };

  private park(customId: string, agent: string, body: string, waiter: Waiter): void {
    if (this.closed) {
      waiter.resolve(errorResponse(503, "the batch run has ended", "closed"));
      return;
    }
    const queued = this.queue.get(customId);
    if (queued) {
      queued.waiters.push(waiter);
      return;
    }
    const line = requestLine(customId, body);
    this.queue.set(customId, { customId, agent, line, bytes: lineBytes(line), waiters: [waiter] });
    this.o.parked(1);
  }

  /** A stopped turn leaves the queue, or stops waiting on its batch (which is left to run). */
  private drop(customId: string, waiter: Waiter): void {
    const queued = this.queue.get(customId);
    if (queued) {
      queued.waiters = queued.waiters.filter((w) => w !== waiter);
      if (queued.waiters.length === 0) {
        this.queue.delete(customId);
        this.o.parked(-1);
      }
      return;
    }
    for (const w of this.watches.values()) {
      const ws = w.waiters.get(customId);
      if (!ws) continue;
      const left = ws.filter((x) => x !== waiter);
      if (left.length > 0) w.waiters.set(customId, left);
      else w.waiters.delete(customId);
    }
  }

  get queued(): number {
    return this.queue.size;
  }

  /**
   * A signal for one provider call, aborted with the endpoint: the OpenAI SDK adds a listener to the
   * signal of every request and never removes it, so the endpoint's own would collect one per poll.
   */
  private linked(): { signal: AbortSignal; done: () => void } {
    const c = new AbortController();
    const onStop = () => c.abort();
    if (this.stop.signal.aborted) c.abort();
    else this.stop.signal.addEventListener("abort", onStop, { once: true });
    return { signal: c.signal, done: () => this.stop.signal.removeEventListener("abort", onStop) };
  }

  private async call<T>(f: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const l = this.linked();
    try {
      return await f(l.signal);
    } finally {
      l.done();
    }
  }

  private track(p: Promise<void>): void {
    this.running.add(p);
    p.finally(() => this.running.delete(p)).catch(() => {});
  }

  /** Sends what is parked (see the file comment). */
  flush(): void {
    if (this.queue.size === 0 || this.closed) return;
    const items = [...this.queue.values()];
    this.queue = new Map();
    this.track(this.send(items));
  }

  /** Whether the batch a request went into can still answer it (rather than sending it again). */
  private answersFrom(found: { batch: BatchRecord; state: RequestState }): boolean {
    const b = found.batch;
    if (LIVE.has(b.state)) return b.batchId !== null;
    if (b.state === "uploaded") return b.fileId !== null;
    if (!WITH_FILES.has(b.state) || found.state === "failed" || b.batchId === null) return false;
    return this.o.reuseOtherRuns || b.runId === this.o.runId;
  }

  private async send(items: Parked[]): Promise<void> {
    const latest = this.o.ledger.latest(items.map((p) => p.customId));
    const fresh: Parked[] = [];
    const earlier = new Map<number, { batch: BatchRecord; items: Parked[] }>();
    for (const p of items) {
      const found = latest.get(p.customId);
      if (found && this.answersFrom(found)) {
        const g = earlier.get(found.batch.localId) ?? { batch: found.batch, items: [] };
        g.items.push(p);
        earlier.set(found.batch.localId, g);
      } else {
        if (found?.batch.state === "uploading")
          // An upload a stopped process never finished: no batch was made from it.
          this.o.ledger.update(found.batch.localId, {
            state: "unsent",
            error: "the process stopped during its upload",
          });
        fresh.push(p);
      }
    }
    for (const g of earlier.values()) {
      const batchId = await this.adopt(g.batch);
      if (this.closed) return;
      if (batchId === null) fresh.push(...g.items);
      else {
        this.o.counts.resumed++;
        this.o.say(
          `batch ${g.batch.localId} (${batchId}, ${g.batch.state}): ${n(g.items.length)} request${g.items.length === 1 ? "" : "s"} to ${this.o.model} sent earlier, waited on — not sent again`,
        );
        this.watch(g.batch.localId, batchId, g.items, WITH_FILES.has(g.batch.state));
      }
    }
    const { batches, oversized } = splitIntoBatches(fresh, this.o.limits);
    for (const p of oversized)
      for (const w of p.waiters)
        w.resolve(
          errorResponse(
            400,
            `the request is ${n(p.bytes)} bytes, more than a batch file may hold (${n(this.o.limits.bytes)})`,
            "request_too_large",
          ),
        );
    for (const chunk of batches) {
      if (this.closed) return;
      await this.submit(chunk);
    }
  }

  /**
   * The provider's id of a batch sent earlier. A batch whose file was uploaded by a process that
   * stopped before it heard back from create may exist anyway: it is looked for among the newest
   * batches (by its input file); if none was made from the file, its requests go again.
   */
  private async adopt(b: BatchRecord): Promise<string | null> {
    if (b.batchId !== null) return b.batchId;
    const since = Date.parse(b.createdAt) / 1000 - 3600;
    const l = this.linked();
    try {
      let seen = 0;
      for await (const p of this.o.client.list(l.signal)) {
        if (p.input_file_id === b.fileId) {
          this.o.ledger.update(b.localId, { batchId: p.id, state: p.status as BatchState });
          return p.id;
        }
        if (p.created_at < since || ++seen >= 10_000) break;
      }
    } catch {
      // Not knowing is not finding: the requests go again (the worst case pays twice, never loses).
    } finally {
      l.done();
    }
    if (this.closed) return null;
    this.o.ledger.update(b.localId, { state: "unsent", error: "no batch was made from its uploaded file" });
    return null;
  }

  private async submit(items: Parked[]): Promise<void> {
    const o = this.o;
    const localId = o.ledger.open({
      runId: o.runId,
      baseURL: o.baseURL,
      model: o.model,
      bytes: items.reduce((a, p) => a + p.bytes, 0),
      requests: items.map((p) => ({ customId: p.customId, agent: p.agent })),
    });
    let batch: ProviderBatch;
    try {
      const fileId = await this.call((signal) =>
        o.client.upload(
          items.map((p) => p.line),
          `bazaar-${o.runId}-${localId}.jsonl`,
          signal,
        ),
      );
      o.ledger.update(localId, { state: "uploaded", fileId });
      batch = await this.call((signal) =>
        o.client.create(fileId, { bazaar_run: o.runId, bazaar_batch: String(localId) }, signal),
      );
      o.ledger.update(localId, { state: batch.status as BatchState, batchId: batch.id });
    } catch (err) {
      // Stopped mid-way, the outcome is unknown (the provider may have made the batch): the ledger
      // keeps `uploading` or `uploaded`, and the next run looks for the batch before sending again.
      if (this.closed) return;
      const c = classifyError(err);
      const reason = redact(c.summary);
      o.ledger.update(localId, { state: "unsent", error: reason });
      o.ledger.failAll(localId, reason);
      this.refuse(
        items.flatMap((p) => p.waiters),
        c.status,
        c.retryable,
        `could not submit a batch: ${reason}`,
      );
      return;
    }
    o.counts.submitted++;
    o.counts.requests += items.length;
    o.say(
      `batch ${localId} (${batch.id}): ${n(items.length)} request${items.length === 1 ? "" : "s"} to ${o.model} submitted`,
    );
    this.watch(localId, batch.id, items, false);
  }

  /**
   * Waiters whose batch could not be sent or followed, answered as the live path would be: a
   * rejected key as the 401 it is, a passing fault as a 5xx (retried into a later batch); an endpoint
   * without the batch API, or one that refuses the batch, fails the run.
   */
  private refuse(waiters: Waiter[], status: number | undefined, retryable: boolean, message: string): void {
    if (status === 401 || status === 403) {
      for (const w of waiters) w.resolve(errorResponse(status, message, "invalid_api_key"));
      return;
    }
    if (retryable) {
      for (const w of waiters) w.resolve(errorResponse(503, message, "batch_unavailable"));
      return;
    }
    this.o.fail(
      new UserError(
        status === 404
          ? `${this.o.baseURL} has no batch API for ${this.o.model} (${message})`
          : `${this.o.baseURL} refused the batch for ${this.o.model} (${message})`,
        "run without --batch, or point --base-url at a server with /v1/files and /v1/batches; what finished is stored and the same command resumes",
      ),
    );
    for (const w of waiters) w.resolve(errorResponse(400, message, "batch_refused"));
  }

  private watch(localId: number, batchId: string, items: Parked[], ended: boolean): void {
    let w = this.watches.get(localId);
    if (!w) {
      w = { localId, batchId, waiters: new Map(), delayMs: this.o.pollMs.min, timer: null };
      this.watches.set(localId, w);
      this.schedule(w, ended ? 0 : w.delayMs);
    }
    for (const p of items) w.waiters.set(p.customId, [...(w.waiters.get(p.customId) ?? []), ...p.waiters]);
  }

  private schedule(w: Watch, ms: number): void {
    if (this.closed) return;
    w.timer = setTimeout(() => {
      w.timer = null;
      this.track(this.poll(w));
    }, ms);
  }

  private later(w: Watch): void {
    w.delayMs = Math.min(this.o.pollMs.max, Math.ceil(w.delayMs * 1.5));
    this.schedule(w, w.delayMs);
  }

  private end(w: Watch): Waiter[] {
    this.watches.delete(w.localId);
    const left = [...w.waiters.values()].flat();
    w.waiters.clear();
    return left;
  }

  private async poll(w: Watch): Promise<void> {
    let b: ProviderBatch;
    try {
      b = await this.call((signal) => this.o.client.retrieve(w.batchId, signal));
    } catch (err) {
      if (this.closed) return;
      const c = classifyError(err);
      if (c.status === 401 || c.status === 403) {
        this.refuse(
          this.end(w),
          c.status,
          false,
          `could not follow batch ${w.batchId}: ${redact(c.summary)}`,
        );
        return;
      }
      if (c.status === 404) {
        // The provider no longer knows it (a restarted local server, a deleted batch): send again.
        const why = `the provider no longer knows batch ${w.batchId}`;
        this.o.ledger.update(w.localId, { state: "lost", error: why });
        this.o.ledger.failAll(w.localId, why);
        this.refuse(this.end(w), 503, true, why);
        return;
      }
      // A passing fault while polling changes nothing at the provider: poll again, later.
      this.later(w);
      return;
    }
    if (this.closed) return;
    const state = b.status as BatchState;
    this.o.ledger.update(w.localId, {
      state,
      completed: b.request_counts?.completed ?? 0,
      failed: b.request_counts?.failed ?? 0,
      outputFileId: b.output_file_id ?? null,
      errorFileId: b.error_file_id ?? null,
    });
    if (LIVE.has(state)) return this.later(w);
    if (WITH_FILES.has(state)) return this.ingest(w, b);
    // Failed validation (or a status we do not know): no line ran; the requests go again.
    const why = (b.errors?.data ?? []).map((e) => `${e.code ?? "error"}: ${e.message ?? ""}`).join("; ");
    const message = `batch ${w.batchId} ${state}${why ? ` (${why})` : ""}`;
    this.o.ledger.update(w.localId, { error: message });
    this.o.ledger.failAll(w.localId, message);
    this.o.say(`batch ${w.localId} (${w.batchId}): ${message}`);
    this.refuse(this.end(w), 503, true, message);
  }

  /** Reads an ended batch's files into the ledger and answers every request waiting on it. */
  private async ingest(w: Watch, b: ProviderBatch): Promise<void> {
    const records: LineRecord[] = [];
    const answers: [Waiter[], ResultLine][] = [];
    let answered = 0;
    let failed = 0;
    const l = this.linked();
    try {
      for (const fileId of [b.output_file_id, b.error_file_id]) {
        if (!fileId) continue;
        for await (const text of this.o.client.lines(fileId, l.signal)) {
          const line = readResultLine(text);
          if (typeof line === "string") continue; // not a line of ours: nobody waits on it
          const record = lineRecord(line);
          records.push(record);
          if (record.state === "answered") answered++;
          else failed++;
          const ws = w.waiters.get(line.customId);
          if (ws) {
            w.waiters.delete(line.customId);
            answers.push([ws, line]);
          }
        }
      }
    } catch (err) {
      if (this.closed) return;
      const c = classifyError(err);
      const reason = `could not read the files of batch ${w.batchId}: ${redact(c.summary)}`;
      if (c.status === 404) {
        // Its files are gone (providers delete them after a while): what it answered is lost, so
        // its requests go again, in a new batch.
        this.o.ledger.update(w.localId, { state: "lost", error: reason });
        this.o.ledger.failAll(w.localId, reason);
      }
      // Otherwise its files will still be there: the requests retry, and find this batch again.
      for (const [ws] of answers)
        for (const x of ws) x.resolve(errorResponse(503, reason, "batch_unavailable"));
      this.refuse(this.end(w), 503, true, reason);
      return;
    } finally {
      l.done();
    }
    if (this.closed) return;
    this.o.ledger.ingest(w.localId, records);
    this.o.counts.answered += answered;
    this.o.counts.failed += failed;
    for (const [ws, line] of answers) for (const x of ws) x.resolve(responseFor(line, w.batchId));
    const missing = this.end(w);
    for (const x of missing)
      x.resolve(
        errorResponse(
          503,
          `batch ${w.batchId} ended (${b.status}) with no line for this request`,
          "batch_missing_line",
        ),
      );
    this.o.say(
      `batch ${w.localId} (${w.batchId}): ${b.status} — ${n(answered)} answered, ${n(failed)} failed or not run`,
    );
  }

  /**
   * Stops polling and aborts the provider calls in flight; what the provider holds stays there for
   * the next run to pick up. It waits for those calls to settle (they record what they learnt), but
   * not for ever: one that ignores the abort is left behind, and the ledger's `uploaded` makes the
   * next run look for its batch.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.stop.abort();
    for (const w of this.watches.values()) if (w.timer) clearTimeout(w.timer);
    const settled = Promise.allSettled([...this.running]);
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([settled, new Promise<void>((r) => (grace = setTimeout(r, CLOSE_GRACE_MS)))]);
    clearTimeout(grace);
    for (const p of this.queue.values())
      for (const w of p.waiters) w.resolve(errorResponse(503, "the batch run has ended", "closed"));
    this.queue.clear();
  }
}
