/**
 * What a server says about its rate limit in response headers, read the way OpenAI sends them:
 *
 *   x-ratelimit-limit-requests: 5000        requests a minute
 *   x-ratelimit-remaining-requests: 4999    requests that may be sent now
 *   x-ratelimit-reset-requests: 12ms        until the budget is full again
 *   x-ratelimit-limit-tokens / -remaining-tokens / -reset-tokens   the same in tokens
 *   retry-after: 1   (seconds, or an HTTP date)   retry-after-ms: 20   (OpenAI's finer one)
 *
 * Azure OpenAI, Groq, OpenRouter, Together and vLLM's rate-limiting proxies use the same names.
 * A server that sends none of them is probed instead (`adaptive.ts`).
 */

/** The rate-limit headers of one response; every field absent when the server did not send it. */
export interface RateLimitInfo {
  limitRequests?: number;
  remainingRequests?: number;
  /** Milliseconds until the request budget is full again. */
  resetRequestsMs?: number;
  limitTokens?: number;
  remainingTokens?: number;
  resetTokensMs?: number;
  /** Milliseconds the server asked the client to wait (`retry-after-ms`, else `retry-after`). */
  retryAfterMs?: number;
}

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, ns: 1e-6 };

/**
 * A duration as OpenAI writes it ("12ms", "1s", "6m0s", "1h2m3.5s"), or a bare number of seconds;
 * undefined for anything else.
 */
export function parseDuration(text: string): number | undefined {
  const t = text.trim();
  if (t === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t) * 1000;
  const part = /(\d+(?:\.\d+)?)(ms|us|ns|h|m|s)/y;
  let ms = 0;
  let at = 0;
  while (at < t.length) {
    part.lastIndex = at;
    const m = part.exec(t);
    if (!m) return undefined;
    ms += Number(m[1]) * UNIT_MS[m[2]!]!;
    at = part.lastIndex;
  }
  return ms;
}

function count(v: string | null | undefined): number | undefined {
  if (v === null || v === undefined || v.trim() === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** `retry-after` as seconds or an HTTP date (RFC 9110), in milliseconds from `nowMs`. */
function retryAfter(v: string | null | undefined, nowMs: number): number | undefined {
  if (v === null || v === undefined || v.trim() === "") return undefined;
  const seconds = count(v);
  if (seconds !== undefined) return seconds * 1000;
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : undefined;
}

/**
 * The rate-limit headers of a response (`get` is `Headers.get` or a record lookup, lower-case
 * names); undefined when it carries none.
 */
export function readRateLimit(
  get: (name: string) => string | null | undefined,
  nowMs = Date.now(),
): RateLimitInfo | undefined {
  const info: RateLimitInfo = {};
  const set = <K extends keyof RateLimitInfo>(k: K, v: number | undefined) => {
    if (v !== undefined) info[k] = v;
  };
  set("limitRequests", count(get("x-ratelimit-limit-requests")));
  set("remainingRequests", count(get("x-ratelimit-remaining-requests")));
  const resetRequests = get("x-ratelimit-reset-requests");
  set("resetRequestsMs", resetRequests ? parseDuration(resetRequests) : undefined);
  set("limitTokens", count(get("x-ratelimit-limit-tokens")));
  set("remainingTokens", count(get("x-ratelimit-remaining-tokens")));
  const resetTokens = get("x-ratelimit-reset-tokens");
  set("resetTokensMs", resetTokens ? parseDuration(resetTokens) : undefined);
  set("retryAfterMs", count(get("retry-after-ms")) ?? retryAfter(get("retry-after"), nowMs));
  return Object.keys(info).length > 0 ? info : undefined;
}

/** A duration the way OpenAI writes it: "12ms" under a second, "1.5s", "6m0s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.ceil(ms))}ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(3))}s`;
  const m = Math.floor(ms / 60_000);
  return `${m}m${Number(((ms - m * 60_000) / 1000).toFixed(3))}s`;
}
