/**
 * serve-sim's batch API, OpenAI's Files + Batches endpoints over the same simulated models:
 *
 *   POST   /v1/files                  upload (multipart: purpose, file) → File
 *   GET    /v1/files | /v1/files/<id> | /v1/files/<id>/content      DELETE /v1/files/<id>
 *   POST   /v1/batches                {input_file_id, endpoint, completion_window, metadata} → Batch
 *   GET    /v1/batches/<id>           the batch as it stands
 *   POST   /v1/batches/<id>/cancel    cancelling → cancelled
 *   GET    /v1/batches?limit&after    newest first
 *
 * A batch is validated as OpenAI validates one (JSON lines, unique custom ids, POST to the batch's
 * endpoint, one model, at most 50,000 requests and 200 MB: otherwise `failed` with its errors), then
 * after `delayMs` every line is answered as the same live request would be (`batch-lines.ts`).
 * Faults a provider has: a share of lines failing with 500 (a fresh draw per submission of a custom
 * id, so the retry can succeed), and batches that expire (by their ordinal: the first half of their
 * lines answered, the rest `batch_expired`). The counters say what clients submitted — how many
 * lines carried a custom id an earlier batch already held, above all.
 */
import type http from "node:http";
import { FileStore, readBody, readUpload } from "./batch-files.ts";
import { failsThisTime, type InputLine, LineAnswerer, type NotRunCode } from "./batch-lines.ts";
import type { SimModels } from "./decide.ts";
import type { Dialect } from "./dialects.ts";

export interface SimBatchOptions {
  /** From creating a batch to its lines being answered. Default 0. */
  delayMs?: number;
  /** Share of lines answered 500 (in the error file), drawn afresh at every submission. Default 0. */
  failRate?: number;
  /** Ordinals (1 = the first batch created) of batches that expire half done. */
  expire?: readonly number[];
  /** Requests per batch (OpenAI: 50,000). */
  maxRequests?: number;
  /** Bytes per input file (OpenAI: 200 MB). */
  maxBytes?: number;
}

export interface SimBatchStats {
  /** Files uploaded by clients (input files; not the output files batches write). */
  uploads: number;
  /** Batches created, and their request lines. */
  batches: number;
  lines: number;
  /** Lines whose custom id an earlier batch already held (a client re-submitting a request). */
  resubmitted: number;
  answered: number;
  /** Lines that earned an HTTP error (injected 500s, 400s, unknown models). */
  failedLines: number;
  expiredLines: number;
  cancelledLines: number;
  /** Batches that failed validation. */
  invalidBatches: number;
  /** Batch retrievals (polls) and cancellations asked for. */
  retrieves: number;
  cancels: number;
}

type Status =
  | "validating"
  | "failed"
  | "in_progress"
  | "finalizing"
  | "completed"
  | "expired"
  | "cancelling"
  | "cancelled";

interface BatchError {
  code: string;
  message: string;
  param: string | null;
  line: number | null;
}

interface SimBatch {
  id: string;
  object: "batch";
  endpoint: string;
  errors: { object: "list"; data: BatchError[] } | null;
  input_file_id: string;
  completion_window: string;
  status: Status;
  output_file_id: string | null;
  error_file_id: string | null;
  created_at: number;
  in_progress_at: number | null;
  expires_at: number;
  finalizing_at: number | null;
  completed_at: number | null;
  failed_at: number | null;
  expired_at: number | null;
  cancelling_at: number | null;
  cancelled_at: number | null;
  request_counts: { total: number; completed: number; failed: number };
  metadata: Record<string, string> | null;
}

const ENDPOINT = "/v1/chat/completions";
const JSON_HEADERS = { "content-type": "application/json" } as const;
const DAY_S = 24 * 60 * 60;
/** Lines answered between yields to the event loop, so polls are answered while a batch runs. */
const CHUNK = 256;

function now(): number {
  return Math.floor(Date.now() / 1000);
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function apiError(
  status: number,
  message: string,
  type = "invalid_request_error",
  code: string | null = null,
) {
  return { status, body: JSON.stringify({ error: { message, type, param: null, code } }) };
}

export interface BatchApi {
  /** Answers a request under /v1/files or /v1/batches; false for any other path. */
  handle(req: http.IncomingMessage, res: http.ServerResponse, path: string, query: string): boolean;
  stats(): SimBatchStats;
  close(): void;
}

export function createBatchApi(args: {
  models: SimModels;
  dialect: Dialect;
  seed: string;
  options?: SimBatchOptions;
}): BatchApi {
  const o = args.options ?? {};
  const delayMs = o.delayMs ?? 0;
  const failRate = o.failRate ?? 0;
  const expire = new Set(o.expire ?? []);
  const maxRequests = o.maxRequests ?? 50_000;
  const maxBytes = o.maxBytes ?? 200 * 1024 * 1024;
  if (!(delayMs >= 0 && Number.isFinite(delayMs)))
    throw new RangeError(`serve-sim: batch delay must be ≥ 0 ms, got ${delayMs}`);
  if (!(failRate >= 0 && failRate <= 1))
    throw new RangeError(`serve-sim: batch fail rate must be in [0, 1], got ${failRate}`);
  for (const n of expire)
    if (!Number.isInteger(n) || n < 1)
      throw new RangeError(`serve-sim: batches to expire are ordinals from 1, got ${n}`);

  const files = new FileStore();
  const answerer = new LineAnswerer(args.models, args.dialect);
  const batches = new Map<string, SimBatch>();
  const order: string[] = [];
  /** Submissions so far of every custom id (the fail draw's attempt number; resubmissions). */
  const submissions = new Map<string, number>();
  const cancelRequested = new Set<string>();
  /** Each batch's lines as validated when it was created (parsed once, used when it runs). */
  const validated = new Map<string, ReturnType<typeof validate>>();
  const timers = new Map<string, NodeJS.Timeout>();
  let closed = false;
  const counts: SimBatchStats = {
    uploads: 0,
    batches: 0,
    lines: 0,
    resubmitted: 0,
    answered: 0,
    failedLines: 0,
    expiredLines: 0,
    cancelledLines: 0,
    invalidBatches: 0,
    retrieves: 0,
    cancels: 0,
  };

  function send(
    res: http.ServerResponse,
    status: number,
    body: string | Buffer,
    headers: Record<string, string> = JSON_HEADERS,
  ) {
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(status, headers);
    res.end(body);
  }

  function sendError(res: http.ServerResponse, e: { status: number; body: string }) {
    send(res, e.status, e.body);
  }

  /** The input file's lines, or the errors OpenAI's validation would give. */
  function validate(batch: SimBatch): { lines: InputLine[] } | { errors: BatchError[] } {
    const file = files.get(batch.input_file_id);
    if (!file)
      return {
        errors: [{ code: "file_not_found", message: "The input file is gone.", param: null, line: null }],
      };
    if (file.content.length > maxBytes)
      return {
        errors: [
          {
            code: "file_too_large",
            message: `The input file is ${file.content.length} bytes; at most ${maxBytes} are allowed.`,
            param: null,
            line: null,
          },
        ],
      };
    const errors: BatchError[] = [];
    const lines: InputLine[] = [];
    const seen = new Set<string>();
    let model: unknown;
    const texts = file.content.toString("utf8").split("\n");
    for (let i = 0; i < texts.length && errors.length < 10; i++) {
      const text = texts[i]!;
      if (text.trim() === "") continue;
      const line = i + 1;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        errors.push({
          code: "invalid_json_line",
          message: "This line is not valid JSON.",
          param: null,
          line,
        });
        continue;
      }
      if (!isObject(parsed) || typeof parsed.custom_id !== "string" || parsed.custom_id === "") {
        errors.push({
          code: "missing_required_parameter",
          message: "Missing custom_id.",
          param: "custom_id",
          line,
        });
        continue;
      }
      if (seen.has(parsed.custom_id)) {
        errors.push({
          code: "duplicate_custom_id",
          message: `The custom_id ${parsed.custom_id} is used more than once in this file.`,
          param: "custom_id",
          line,
        });
        continue;
      }
      seen.add(parsed.custom_id);
      if (parsed.method !== "POST" || parsed.url !== batch.endpoint) {
        errors.push({
          code: "invalid_url",
          message: `Every line must POST to the batch's endpoint ${batch.endpoint}.`,
          param: "url",
          line,
        });
        continue;
      }
      if (!isObject(parsed.body)) {
        errors.push({
          code: "invalid_request",
          message: "The line has no request body.",
          param: "body",
          line,
        });
        continue;
      }
      if (model === undefined) model = parsed.body.model;
      else if (parsed.body.model !== model) {
        errors.push({
          code: "mismatched_model",
          message: "Every line of a batch must name the same model.",
          param: "body.model",
          line,
        });
        continue;
      }
      lines.push({ customId: parsed.custom_id, body: parsed.body });
    }
    if (errors.length === 0 && lines.length === 0)
      errors.push({
        code: "empty_file",
        message: "The input file has no requests.",
        param: null,
        line: null,
      });
    if (errors.length === 0 && lines.length > maxRequests)
      errors.push({
        code: "too_many_requests",
        message: `The input file has ${lines.length} requests; a batch takes at most ${maxRequests}.`,
        param: null,
        line: null,
      });
    return errors.length > 0 ? { errors } : { lines };
  }

  function writeFiles(batch: SimBatch, out: string[], err: string[]): void {
    if (out.length > 0)
      batch.output_file_id = files.add(
        `${batch.id}_output.jsonl`,
        "batch_output",
        Buffer.from(`${out.join("\n")}\n`),
      ).id;
    if (err.length > 0)
      batch.error_file_id = files.add(
        `${batch.id}_error.jsonl`,
        "batch_output",
        Buffer.from(`${err.join("\n")}\n`),
      ).id;
  }

  /** Runs a batch: validation, then every line, a chunk at a time; expiry and cancellation on the way. */
  async function run(batch: SimBatch, ordinal: number): Promise<void> {
    timers.delete(batch.id);
    const checked = validated.get(batch.id) ?? validate(batch);
    validated.delete(batch.id);
    if ("errors" in checked) {
      counts.invalidBatches++;
      batch.status = "failed";
      batch.failed_at = now();
      batch.errors = { object: "list", data: checked.errors };
      return;
    }
    const lines = checked.lines;
    batch.request_counts.total = lines.length;
    if (batch.status === "validating") {
      batch.status = "in_progress";
      batch.in_progress_at = now();
    }
    // How far the batch gets before its window closes: half its lines, for an expiring one.
    const reach = expire.has(ordinal) ? Math.floor(lines.length / 2) : lines.length;
    const out: string[] = [];
    const err: string[] = [];
    let stopped: NotRunCode | null = null;
    for (let i = 0; i < lines.length; i++) {
      if (closed) return;
      if (stopped === null && cancelRequested.has(batch.id)) stopped = "batch_cancelled";
      if (stopped === null && i >= reach) stopped = "batch_expired";
      const line = lines[i]!;
      if (stopped) {
        err.push(answerer.notRun(line.customId, stopped).text);
        if (stopped === "batch_expired") counts.expiredLines++;
        else counts.cancelledLines++;
        continue;
      }
      const attempt = submissions.get(line.customId) ?? 1;
      const answered = await answerer.answer(line, failsThisTime(args.seed, line, attempt, failRate));
      if (answered.ok) {
        out.push(answered.text);
        counts.answered++;
        batch.request_counts.completed++;
      } else {
        err.push(answered.text);
        counts.failedLines++;
        batch.request_counts.failed++;
      }
      if ((i + 1) % CHUNK === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (closed) return;
    batch.finalizing_at = now();
    writeFiles(batch, out, err);
    const t = now();
    if (stopped === "batch_cancelled") {
      batch.status = "cancelled";
      batch.cancelled_at = t;
    } else if (stopped === "batch_expired") {
      batch.status = "expired";
      batch.expired_at = t;
    } else {
      batch.status = "completed";
      batch.completed_at = t;
    }
  }

  /** A batch cancelled before it started: every line is written as not run. */
  function cancelUnstarted(batch: SimBatch): void {
    const timer = timers.get(batch.id);
    if (timer) clearTimeout(timer);
    timers.delete(batch.id);
    const checked = validated.get(batch.id) ?? validate(batch);
    validated.delete(batch.id);
    const err: string[] = [];
    if ("lines" in checked) {
      batch.request_counts.total = checked.lines.length;
      for (const line of checked.lines) {
        err.push(answerer.notRun(line.customId, "batch_cancelled").text);
        counts.cancelledLines++;
      }
    }
    writeFiles(batch, [], err);
    batch.status = "cancelled";
    batch.cancelled_at = now();
  }

  function create(body: unknown): { status: number; body: string } {
    if (!isObject(body)) return apiError(400, "the request body must be a JSON object");
    const fileId = body.input_file_id;
    if (typeof fileId !== "string" || !files.get(fileId))
      return apiError(400, `No such input file: ${String(fileId)}`, "invalid_request_error", "invalid_file");
    if (body.endpoint !== ENDPOINT)
      return apiError(
        400,
        `serve-sim batches take only the endpoint ${ENDPOINT}, got ${String(body.endpoint)}`,
      );
    if (body.completion_window !== "24h")
      return apiError(400, `completion_window must be "24h", got ${String(body.completion_window)}`);
    const metadata = isObject(body.metadata) ? (body.metadata as Record<string, string>) : null;
    const ordinal = ++counts.batches;
    const created = now();
    const batch: SimBatch = {
      id: `batch_sim${ordinal}`,
      object: "batch",
      endpoint: ENDPOINT,
      errors: null,
      input_file_id: fileId,
      completion_window: "24h",
      status: "validating",
      output_file_id: null,
      error_file_id: null,
      created_at: created,
      in_progress_at: null,
      expires_at: created + DAY_S,
      finalizing_at: null,
      completed_at: null,
      failed_at: null,
      expired_at: null,
      cancelling_at: null,
      cancelled_at: null,
      request_counts: { total: 0, completed: 0, failed: 0 },
      metadata,
    };
    // Count what was submitted now, whatever happens to the batch later.
    const checked = validate(batch);
    validated.set(batch.id, checked);
    if ("lines" in checked) {
      batch.request_counts.total = checked.lines.length;
      for (const line of checked.lines) {
        const n = (submissions.get(line.customId) ?? 0) + 1;
        submissions.set(line.customId, n);
        counts.lines++;
        if (n > 1) counts.resubmitted++;
      }
    }
    batches.set(batch.id, batch);
    order.push(batch.id);
    const timer = setTimeout(() => {
      run(batch, ordinal).catch((err: unknown) => {
        batch.status = "failed";
        batch.failed_at = now();
        batch.errors = {
          object: "list",
          data: [{ code: "server_error", message: String(err), param: null, line: null }],
        };
      });
    }, delayMs);
    timers.set(batch.id, timer);
    return { status: 200, body: JSON.stringify(batch) };
  }

  function list(query: string): string {
    const params = new URLSearchParams(query);
    const limit = Math.min(100, Math.max(1, Number(params.get("limit") ?? 20) || 20));
    const newest = [...order].reverse();
    const after = params.get("after");
    const start = after ? newest.indexOf(after) + 1 : 0;
    const page = newest.slice(start, start + limit).map((id) => batches.get(id)!);
    return JSON.stringify({
      object: "list",
      data: page,
      first_id: page[0]?.id ?? null,
      last_id: page.at(-1)?.id ?? null,
      has_more: start + limit < newest.length,
    });
  }

  async function onFiles(req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void> {
    const rest = path.slice("/v1/files".length);
    if (req.method === "POST" && rest === "") {
      const body = await readBody(req, maxBytes + 1024 * 1024);
      if (body === null) return sendError(res, apiError(413, `file over ${maxBytes} bytes`));
      const upload = await readUpload(req.headers["content-type"], body);
      if (typeof upload === "string") return sendError(res, apiError(400, upload));
      counts.uploads++;
      return send(res, 200, JSON.stringify(files.add(upload.filename, upload.purpose, upload.content)));
    }
    req.resume();
    if (req.method === "GET" && rest === "")
      return send(res, 200, JSON.stringify({ object: "list", data: files.list(), has_more: false }));
    const m = /^\/([^/]+)(\/content)?$/.exec(rest);
    const file = m ? files.get(decodeURIComponent(m[1]!)) : undefined;
    if (!m || !file)
      return sendError(
        res,
        apiError(404, `No such file: ${rest.slice(1)}`, "invalid_request_error", "not_found"),
      );
    if (req.method === "GET" && m[2])
      return send(res, 200, file.content, { "content-type": "application/octet-stream" });
    if (req.method === "GET") return send(res, 200, JSON.stringify(file.meta));
    if (req.method === "DELETE") {
      files.delete(file.meta.id);
      return send(res, 200, JSON.stringify({ id: file.meta.id, object: "file", deleted: true }));
    }
    sendError(res, apiError(405, `${req.method} is not allowed on ${path}`));
  }

  async function onBatches(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    path: string,
    query: string,
  ): Promise<void> {
    const rest = path.slice("/v1/batches".length);
    if (req.method === "POST" && rest === "") {
      const raw = await readBody(req, 1024 * 1024);
      let body: unknown;
      try {
        body = raw === null ? null : JSON.parse(raw.toString("utf8"));
      } catch {
        return sendError(res, apiError(400, "could not parse the request body as JSON"));
      }
      const created = create(body);
      return send(res, created.status, created.body);
    }
    req.resume();
    if (req.method === "GET" && rest === "") return send(res, 200, list(query));
    const m = /^\/([^/]+)(\/cancel)?$/.exec(rest);
    const batch = m ? batches.get(decodeURIComponent(m[1]!)) : undefined;
    if (!m || !batch)
      return sendError(
        res,
        apiError(404, `No such batch: ${rest.slice(1)}`, "invalid_request_error", "not_found"),
      );
    if (req.method === "GET" && !m[2]) {
      counts.retrieves++;
      return send(res, 200, JSON.stringify(batch));
    }
    if (req.method === "POST" && m[2]) {
      counts.cancels++;
      if (!["validating", "in_progress", "finalizing"].includes(batch.status))
        return sendError(res, apiError(400, `Cannot cancel a batch with status ${batch.status}.`));
      batch.cancelling_at = now();
      cancelRequested.add(batch.id);
      const unstarted = timers.has(batch.id);
      const answer = JSON.stringify({ ...batch, status: "cancelling" });
      if (unstarted) cancelUnstarted(batch);
      else batch.status = "cancelling";
      return send(res, 200, answer);
    }
    sendError(res, apiError(405, `${req.method} is not allowed on ${path}`));
  }

  return {
    handle(req, res, path, query) {
      const files = path === "/v1/files" || path.startsWith("/v1/files/");
      const batchPath = path === "/v1/batches" || path.startsWith("/v1/batches/");
      if (!files && !batchPath) return false;
      const done = files ? onFiles(req, res, path) : onBatches(req, res, path, query);
      done.catch((err: unknown) =>
        sendError(
          res,
          apiError(
            500,
            `serve-sim failed: ${err instanceof Error ? err.message : String(err)}`,
            "server_error",
          ),
        ),
      );
      return true;
    },
    stats: () => ({ ...counts }),
    close() {
      closed = true;
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
    },
  };
}
