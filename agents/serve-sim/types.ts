import type { SimBatchOptions, SimBatchStats } from "./batches.ts";
import type { Dialect } from "./dialects.ts";
import type { SimLimits, SimLimitsChange } from "./limits.ts";

/**
 * Public types of the simulated model server: its options, its counters, and the handle a caller
 * gets back. The wire shapes (OpenAI chat completions) live in `request.ts` and `wire.ts`.
 */

/** Injected failure probabilities per chat-completion request; together they must not exceed 1. */
export interface SimFaults {
  /** Answer 429 with a `retry-after` header. */
  rate429: number;
  /** Answer 500 with an OpenAI-style server error. */
  rate500: number;
  /** Hold the request `timeoutMs`, then destroy the socket without answering. */
  rateTimeout: number;
  /** Answer 200 with a truncated (unparseable) JSON body. */
  rateMalformedJson: number;
  /** Answer 200 with a plausible reply that names no option (no tool call either). */
  rateOffFormat: number;
}

export const NO_FAULTS: SimFaults = {
  rate429: 0,
  rate500: 0,
  rateTimeout: 0,
  rateMalformedJson: 0,
  rateOffFormat: 0,
};

export interface SimServerOptions {
  /** 0 (the default) picks a free ephemeral port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Added before every response (setTimeout, so it costs no CPU). Default 0. */
  latencyMs?: number;
  faults?: Partial<SimFaults>;
  /** How long a simulated timeout holds the request before destroying the socket. Default 30,000. */
  timeoutMs?: number;
  /** Sent as `retry-after` (seconds) with every injected 429. Default 1. */
  retryAfterSeconds?: number;
  /**
   * Persistent failures: this share of distinct requests (chosen by a hash of the request body and
   * the seed) is answered 500 on each of its first `attempts` arrivals, then normally — a provider
   * that drops a request through every retry of one run, for the next run to re-run it.
   */
  drop?: { rate: number; attempts: number };
  /** Which server's documented quirks the answers carry (`dialects.ts`). Default `openai`. */
  dialect?: Dialect;
  /** Answer every request without `Authorization: Bearer <apiKey>` with 401, as providers do. */
  apiKey?: string;
  /**
   * Seeds the fault stream and is mixed into every decision: two servers with the same seed give the
   * same answers to the same requests, like two replicas of one model snapshot. Default 0.
   */
  seed?: number | string;
  /** The batch API's completion delay and faults (`batches.ts`). */
  batch?: SimBatchOptions;
  /**
   * A rate limit (`limits.ts`): requests and tokens a minute as token buckets, answered 429 with
   * OpenAI's `x-ratelimit-*` and `retry-after` headers (or none, `headers: false`) beyond them.
   */
  limits?: SimLimits;
  /**
   * Latency that grows with load, as on a server with this many slots: with more requests in
   * flight than this, `latencyMs` is multiplied by their number over it. Absent: a fixed latency.
   */
  latencyKnee?: number;
  /**
   * Report prompt-cache hits as a provider does (`usage.prompt_tokens_details.cached_tokens`): the
   * tokens of the longest run of leading messages an earlier request already sent.
   */
  promptCache?: boolean;
}

/**
 * How a chat-completion request ended. `bad-request` is a 400/404 the request itself earned;
 * `limited` a 429 of the rate limit (`limits`), `429` an injected one.
 */
export const SIM_OUTCOMES = [
  "ok",
  "429",
  "500",
  "timeout",
  "malformed",
  "off-format",
  "bad-request",
  "dropped",
  "unauthorized",
  "limited",
] as const;
export type SimOutcome = (typeof SIM_OUTCOMES)[number];

export interface SimStats {
  /** Chat-completion requests received (other endpoints are not counted), preflight probes apart. */
  requests: number;
  /** bazaar's preflight probes: one-token completions that prove a key (agents/llm/preflight.ts). */
  probes: number;
  /** Valid requests per model (`sim-steep`, …); refused requests count only as `bad-request`. */
  byModel: Record<string, number>;
  byOutcome: Record<SimOutcome, number>;
  /**
   * Valid requests that carried each sampling field (`temperature`, `top_p`, `max_tokens`,
   * `max_completion_tokens`, `seed`, `reasoning_effort`) and tool results (`tool_results`: requests
   * with a `tool` message): what clients actually send.
   */
  sent: Record<string, number>;
  /** Chat-completion requests being handled right now, and the most at once since the start. */
  inFlight: number;
  maxInFlight: number;
  /** The batch API's counters: uploads, batches and lines submitted, re-submitted lines, faults. */
  batches: SimBatchStats;
}

export interface SimServer {
  /** The OpenAI base URL, ending in `/v1`, e.g. `http://127.0.0.1:8089/v1`. */
  url: string;
  port: number;
  /** The model names served, `sim-<preset>` for every catalog-choice preset. */
  models: string[];
  /** Stops listening, drops held and idle connections; resolves when the server is closed. */
  close(): Promise<void>;
  /** A snapshot of the counters. */
  stats(): SimStats;
  /** The rate limit now, and a change of it (as `POST /_sim/limits` does). */
  limits(): { rpm: number | null; tpm: number | null; burstSeconds: number; headers: boolean };
  setLimits(change: SimLimitsChange): void;
}
