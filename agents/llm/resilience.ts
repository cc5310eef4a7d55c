/**
 * Staying up against a real model endpoint: a concurrency cap, a request/token rate limiter, retries
 * with exponential backoff and jitter that honour `retry-after`, and a circuit breaker that pauses a
 * model after repeated failures. All of it is shared per model endpoint, so several agents on the
 * same model respect one budget.
 */
import type { Rng } from "../../environments/kernel/rng.ts";
import { notACompletionIn } from "./completion-check.ts";
import { readRateLimit } from "./rate-headers.ts";

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error("aborted"));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error("aborted"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Requests and tokens per minute as two token buckets refilled continuously. `take` waits until
 * both budgets allow the call; tokens are estimated before the call and need not be exact.
 */
export class RateLimiter {
  private requests: number;
  private tokens: number;
  private last = Date.now();

  constructor(
    readonly requestsPerMinute: number,
    readonly tokensPerMinute: number,
  ) {
    this.requests = requestsPerMinute;
    this.tokens = tokensPerMinute;
  }

  private refill(): void {
    const now = Date.now();
    const minutes = (now - this.last) / 60_000;
    this.last = now;
    this.requests = Math.min(this.requestsPerMinute, this.requests + minutes * this.requestsPerMinute);
    this.tokens = Math.min(this.tokensPerMinute, this.tokens + minutes * this.tokensPerMinute);
  }

  /** Milliseconds to wait before a call of `tokens` tokens fits both budgets (0 = go now). */
  delayFor(tokens: number): number {
    this.refill();
    const needReq = Number.isFinite(this.requestsPerMinute)
      ? Math.max(0, 1 - this.requests) / this.requestsPerMinute
      : 0;
    const wanted = Math.min(tokens, this.tokensPerMinute);
    const needTok = Number.isFinite(this.tokensPerMinute)
      ? Math.max(0, wanted - this.tokens) / this.tokensPerMinute
      : 0;
    return Math.ceil(Math.max(needReq, needTok) * 60_000);
  }

  async take(tokens: number, signal?: AbortSignal): Promise<void> {
    for (let wait = this.delayFor(tokens); wait > 0; wait = this.delayFor(tokens)) await sleep(wait, signal);
    this.requests -= 1;
    this.tokens -= Math.min(tokens, this.tokensPerMinute);
  }
}

/** A failure worth another try (rate limit, server error, timeout, broken response), or not. */
export interface Classified {
  retryable: boolean;
  /** The HTTP status, when the server answered. */
  status?: number;
  /** Seconds the server asked us to wait (`retry-after`), if it said. */
  retryAfterSeconds?: number;
  /** A short, key-free description for records and logs. */
  summary: string;
  /**
   * Where the error came from: the server (it answered: a status, or a 2xx that is not a chat
   * completion), the network between (a timeout, a dropped connection, a body cut short), or
   * neither — an error raised on this side with no answer behind it, which is bazaar's own.
   */
  origin: "server" | "network" | "client";
  /** What failed in a few words, where it has its own (a 2xx that is not a chat completion). */
  label?: string;
  /** A 429 saying the account's quota is spent (`insufficient_quota`): the run's configuration. */
  noQuota?: true;
}

/** The first `status` on the error or its causes (LangChain wraps a context overflow's 400). */
function statusIn(
  err: unknown,
): { status: number; headers: unknown; message: string; code?: string } | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e && typeof e === "object"; depth++) {
    const x = e as {
      status?: unknown;
      headers?: unknown;
      message?: unknown;
      cause?: unknown;
      code?: unknown;
    };
    if (typeof x.status === "number")
      return {
        status: x.status,
        headers: x.headers,
        message: String(x.message ?? ""),
        ...(typeof x.code === "string" ? { code: x.code } : {}),
      };
    e = x.cause;
  }
  return undefined;
}

function header(headers: unknown, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const v = (headers as Record<string, unknown>)[name];
  return typeof v === "string" ? v : undefined;
}

/** Reads the OpenAI SDK's error shapes (status, headers, name) without depending on its classes. */
export function classifyError(err: unknown): Classified {
  const e = err as {
    status?: number;
    headers?: unknown;
    name?: string;
    message?: string;
    code?: string;
    cause?: unknown;
  };
  const notACompletion = notACompletionIn(err);
  if (notACompletion)
    return {
      retryable: true,
      summary: notACompletion.message,
      origin: "server",
      label: notACompletion.label,
    };
  const answered = statusIn(err);
  const name = e?.name ?? "Error";
  const message = (answered?.message || e?.message || String(err)).split("\n")[0]!.slice(0, 200);
  if (answered) {
    const { status } = answered;
    // The one reading of the server's headers the limiter reads too: `retry-after-ms`, else
    // `retry-after` in seconds or as an HTTP date.
    const retryAfterMs = readRateLimit((n) => header(answered.headers, n))?.retryAfterMs;
    const retryAfter = retryAfterMs === undefined ? undefined : retryAfterMs / 1000;
    // A 429 that says the account has no quota left is no rate limit: waiting does not clear it.
    const noQuota = status === 429 && answered.code === "insufficient_quota";
    const retryable = status === 408 || status === 409 || (status === 429 && !noQuota) || status >= 500;
    return {
      retryable,
      status,
      ...(noQuota ? { noQuota } : {}),
      retryAfterSeconds: retryAfter,
      summary: `HTTP ${status}: ${message}`,
      origin: "server",
    };
  }
  const transient =
    /timeout|timed out|ECONNRESET|ECONNREFUSED|EPIPE|socket hang up|fetch failed|Connection error|JSON|Unexpected token|Unexpected end/i;
  if (transient.test(`${name} ${message} ${e?.code ?? ""}`))
    return { retryable: true, summary: `${name}: ${message}`, origin: "network" };
  return { retryable: false, summary: `${name}: ${message}`, origin: "client" };
}

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 5, baseDelayMs: 500, maxDelayMs: 30_000 };

/** Full-jitter exponential backoff, or the server's `retry-after` when it gave one. */
export function backoffMs(
  attempt: number,
  policy: RetryPolicy,
  rng: Rng,
  retryAfterSeconds?: number,
): number {
  if (retryAfterSeconds !== undefined) return Math.min(policy.maxDelayMs, retryAfterSeconds * 1000);
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(rng.uniform(cap / 2, cap));
}

/**
 * Opens after `threshold` consecutive failures: callers then wait until `cooldownMs` has passed
 * (half-open: the next call is a probe; success closes it, failure re-opens it). `onOpen` says why.
 */
export class CircuitBreaker {
  private failures = 0;
  private openUntil = 0;
  /** Opened and not yet closed by a success: after the cooldown, one failure re-opens it. */
  private probing = false;
  private why = "";
  /** Times it opened with no success between: a model that fails every call, cooldown after cooldown. */
  private opensInARow = 0;

  constructor(
    readonly threshold: number,
    readonly cooldownMs: number,
    private readonly onOpen: (reason: string, untilMs: number, inARow: number) => void = () => {},
  ) {}

  get isOpen(): boolean {
    return Date.now() < this.openUntil;
  }

  /** Past its cooldown but not yet closed by a success: the next call is the probe. */
  get isHalfOpen(): boolean {
    return this.probing && !this.isOpen;
  }

  /** When it closes (ms since the epoch; in the past when closed). */
  get openUntilMs(): number {
    return this.openUntil;
  }

  /** Why it last opened. */
  get reason(): string {
    return this.why;
  }

  async waitUntilClosed(signal?: AbortSignal): Promise<void> {
    while (this.isOpen) await sleep(Math.max(1, this.openUntil - Date.now()), signal);
  }

  success(): void {
    this.failures = 0;
    this.probing = false;
    this.opensInARow = 0;
  }

  failure(reason: string): void {
    if (this.isOpen) return;
    this.failures++;
    if (this.probing) this.open(`the probe after the cooldown failed: ${reason}`);
    else if (this.failures >= this.threshold)
      this.open(`${this.failures} consecutive failures, last: ${reason}`);
  }

  private open(why: string): void {
    this.openUntil = Date.now() + this.cooldownMs;
    this.probing = true;
    this.why = why;
    this.failures = 0;
    this.opensInARow++;
    this.onOpen(why, this.openUntil, this.opensInARow);
  }
}

/**
 * A request the server refused on its merits (a 400 for this request: the context is too long, the
 * messages are malformed): the model's answer to it, stored as a non-response with the error. Named
 * so that it is told apart from bazaar's own errors (`BazaarBug`), across threads too.
 */
export class RequestRefused extends Error {
  override readonly name = "RequestRefused";
}

export function isRequestRefused(err: unknown): boolean {
  return (err as { name?: unknown } | null)?.name === "RequestRefused";
}
