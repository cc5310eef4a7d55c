/**
 * The JSONL of the batch API (OpenAI's format, which compatible servers follow):
 *
 * - an input line per request: `{"custom_id", "method": "POST", "url": "/v1/chat/completions", "body"}`,
 *   the body exactly as ChatOpenAI wrote it (kept as its text, never re-serialized);
 * - an output or error line per request: `{"id", "custom_id", "response": {"status_code",
 *   "request_id", "body"} | null, "error": {"code", "message"} | null}` — a request that earned an
 *   HTTP error keeps its status and error body; one the batch never ran (expired, cancelled) has
 *   only `error`.
 *
 * A line becomes the HTTP answer ChatOpenAI would have had live, so everything downstream (its
 * parsing, the caller's classification of errors: a 401 stops the run, a 5xx is retried, a 400 is
 * the model's answer) is the live path's. A request the batch never ran has no HTTP status; it is
 * answered as a retryable one would be (408 for an expired window, 503 otherwise) and says why.
 */
import type { LineRecord } from "./ledger.ts";

export const BATCH_ENDPOINT = "/v1/chat/completions";

/** OpenAI's limits per batch: requests, and bytes of the input file. */
export interface BatchLimits {
  requests: number;
  bytes: number;
}

export const OPENAI_LIMITS: BatchLimits = { requests: 50_000, bytes: 200_000_000 };

export function requestLine(customId: string, bodyText: string): string {
  return `{"custom_id":${JSON.stringify(customId)},"method":"POST","url":"${BATCH_ENDPOINT}","body":${bodyText}}`;
}

/** Bytes of a line in the file (UTF-8, with its newline). */
export function lineBytes(line: string): number {
  return Buffer.byteLength(line, "utf8") + 1;
}

/**
 * Splits lines into batches within both limits, in order. A line that alone is over the byte limit
 * cannot go in any file: it is returned apart, for its request to be refused.
 */
export function splitIntoBatches<T extends { bytes: number }>(
  items: readonly T[],
  limits: BatchLimits,
): { batches: T[][]; oversized: T[] } {
  const batches: T[][] = [];
  const oversized: T[] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    if (item.bytes > limits.bytes) {
      oversized.push(item);
      continue;
    }
    if (current.length > 0 && (current.length >= limits.requests || bytes + item.bytes > limits.bytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += item.bytes;
  }
  if (current.length > 0) batches.push(current);
  return { batches, oversized };
}

/** One line of an output or error file, read. */
export interface ResultLine {
  customId: string;
  /** The HTTP status the request got, or null when the batch never ran it. */
  status: number | null;
  /** The response body (a chat completion, or an error body); null when never run. */
  body: unknown;
  /** For a request never run: why (`batch_expired`, `batch_cancelled`, …). */
  code: string | null;
  message: string | null;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** A result line, or a string saying what is wrong with it. */
export function readResultLine(text: string): ResultLine | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 80)}`;
  }
  if (!isObject(parsed) || typeof parsed.custom_id !== "string") return `no custom_id: ${text.slice(0, 80)}`;
  const response = parsed.response;
  if (isObject(response) && typeof response.status_code === "number")
    return {
      customId: parsed.custom_id,
      status: response.status_code,
      body: response.body ?? null,
      code: null,
      message: null,
    };
  const error = isObject(parsed.error) ? parsed.error : {};
  return {
    customId: parsed.custom_id,
    status: null,
    body: null,
    code: typeof error.code === "string" ? error.code : "unknown",
    message: typeof error.message === "string" ? error.message : "the batch did not run this request",
  };
}

function errorMessage(body: unknown): string | null {
  if (!isObject(body) || !isObject(body.error)) return null;
  return typeof body.error.message === "string" ? body.error.message : null;
}

/** The ledger's record of a line: answered with its tokens, or failed with why. */
export function lineRecord(line: ResultLine): LineRecord {
  const ok = line.status !== null && line.status >= 200 && line.status < 300;
  const usage = ok && isObject(line.body) && isObject(line.body.usage) ? line.body.usage : {};
  const details = isObject(usage.completion_tokens_details) ? usage.completion_tokens_details : {};
  const prompt = isObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  // A count that is not a non-negative number (a malformed line) counts nothing, never against the rest.
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);
  return {
    customId: line.customId,
    state: ok ? "answered" : "failed",
    status: line.status,
    error: ok
      ? null
      : line.status === null
        ? `${line.code}: ${line.message}`
        : `HTTP ${line.status}: ${errorMessage(line.body) ?? "error"}`,
    inputTokens: n(usage.prompt_tokens),
    // Prompt-cache hits of a batch call (OpenAI reports them in batch output as live, and bills them at
    // the batch rate of cached input): the agent's trial usage counts them too (ChatOpenAI reads the
    // same body), so the ledger keeps them apart from the live calls' hits for the price.
    cachedInputTokens: Math.min(n(usage.prompt_tokens), n(prompt.cached_tokens)),
    outputTokens: n(usage.completion_tokens),
    reasoningTokens: n(details.reasoning_tokens),
  };
}

const JSON_HEADERS = { "content-type": "application/json" };

/** An error answer with an OpenAI error body, as a server would have sent it. */
export function errorResponse(status: number, message: string, code: string): Response {
  return new Response(JSON.stringify({ error: { message, type: "batch_error", param: null, code } }), {
    status,
    headers: JSON_HEADERS,
  });
}

/** The HTTP answer a result line stands for (see the file comment). */
export function responseFor(line: ResultLine, batchId: string): Response {
  if (line.status !== null)
    return new Response(JSON.stringify(line.body), { status: line.status, headers: JSON_HEADERS });
  const status = line.code === "batch_expired" ? 408 : 503;
  return errorResponse(
    status,
    `${line.code}: ${line.message} (batch ${batchId})`,
    line.code ?? "batch_error",
  );
}
