/**
 * serve-sim's rate limit: requests and tokens a minute as two token buckets, refilled continuously,
 * each holding `burstSeconds` of its limit (OpenAI documents limits enforced over shorter periods:
 * 600 a minute may be 10 a second). A request is admitted when both buckets hold it (its tokens
 * estimated as OpenAI counts them: the prompt, plus `max_tokens` where sent); otherwise it is
 * answered 429 and takes nothing. Answers carry OpenAI's headers — `x-ratelimit-limit-requests`
 * (a minute's limit), `-remaining-requests` (what the bucket holds now), `-reset-requests` (until it
 * is full), the token triple, and on a 429 `retry-after` and `retry-after-ms` — unless
 * `headers` is off, as on a server that says nothing (then a 429 carries no `retry-after` either).
 * The limits change while the server runs (`set`, or `POST /_sim/limits`).
 */
import { formatDuration } from "../llm/rate-headers.ts";

export interface SimLimits {
  /** Requests a minute (absent: no request limit). */
  rpm?: number;
  /** Tokens a minute (absent: no token limit). */
  tpm?: number;
  /** Seconds of each limit a bucket holds. Default 1. */
  burstSeconds?: number;
  /** Whether answers say the limits in headers. Default true. */
  headers?: boolean;
}

/** A change of limits: a number sets one, null removes it. */
export interface SimLimitsChange {
  rpm?: number | null;
  tpm?: number | null;
  burstSeconds?: number;
  headers?: boolean;
}

export type Admitted =
  | { ok: true; headers: Record<string, string> }
  | {
      ok: false;
      headers: Record<string, string>;
      /** Which limit refused it, and the message OpenAI would write. */
      kind: "requests" | "tokens";
      message: string;
    };

class Bucket {
  level: number;
  private at: number;

  constructor(
    public perMinute: number,
    public burstSeconds: number,
    now: number,
  ) {
    this.level = this.capacity;
    this.at = now;
  }

  get capacity(): number {
    return Math.max(1, (this.perMinute * this.burstSeconds) / 60);
  }

  refill(now: number): void {
    this.level = Math.min(this.capacity, this.level + ((now - this.at) * this.perMinute) / 60_000);
    this.at = now;
  }

  /** Milliseconds until the bucket holds `n` (0: it does). */
  waitFor(n: number): number {
    const short = Math.min(n, this.capacity) - this.level;
    return short <= 0 ? 0 : (short * 60_000) / this.perMinute;
  }

  /** Milliseconds until it is full again. */
  resetMs(): number {
    return ((this.capacity - this.level) * 60_000) / this.perMinute;
  }

  /** A new limit keeps the share of the bucket that was left (a cut limit is felt at once). */
  change(perMinute: number, burstSeconds: number, now: number): void {
    this.refill(now);
    const share = this.level / this.capacity;
    this.perMinute = perMinute;
    this.burstSeconds = burstSeconds;
    this.level = share * this.capacity;
  }
}

function checkLimit(name: string, v: number | null | undefined): void {
  if (v === undefined || v === null) return;
  if (!(v > 0) || !Number.isFinite(v)) throw new RangeError(`serve-sim: ${name} must be > 0, got ${v}`);
}

export class RateLimits {
  private requests: Bucket | null = null;
  private tokens: Bucket | null = null;
  private burstSeconds = 1;
  private sayHeaders = true;

  constructor(
    limits: SimLimits = {},
    private readonly now: () => number = () => performance.now(),
  ) {
    this.set({ rpm: limits.rpm ?? null, tpm: limits.tpm ?? null, ...pick(limits) });
  }

  /** Whether any limit is set (without one, requests are not counted). */
  get active(): boolean {
    return this.requests !== null || this.tokens !== null;
  }

  /** Changes the limits (RangeError on a bad value, nothing changed). */
  set(c: SimLimitsChange): void {
    checkLimit("rpm", c.rpm);
    checkLimit("tpm", c.tpm);
    if (c.burstSeconds !== undefined) checkLimit("burstSeconds", c.burstSeconds);
    const now = this.now();
    this.burstSeconds = c.burstSeconds ?? this.burstSeconds;
    if (c.headers !== undefined) this.sayHeaders = c.headers;
    const bucket = (b: Bucket | null, v: number | null | undefined): Bucket | null => {
      if (v === null) return null;
      const perMinute = v ?? b?.perMinute;
      if (perMinute === undefined) return null;
      if (!b) return new Bucket(perMinute, this.burstSeconds, now);
      b.change(perMinute, this.burstSeconds, now);
      return b;
    };
    this.requests = bucket(this.requests, c.rpm);
    this.tokens = bucket(this.tokens, c.tpm);
  }

  get(): Required<Pick<SimLimits, "burstSeconds" | "headers">> & { rpm: number | null; tpm: number | null } {
    return {
      rpm: this.requests?.perMinute ?? null,
      tpm: this.tokens?.perMinute ?? null,
      burstSeconds: this.burstSeconds,
      headers: this.sayHeaders,
    };
  }

  /** Admits a request of `tokens` estimated tokens for `model`, or says why not. */
  admit(tokens: number, model: string): Admitted {
    const now = this.now();
    const r = this.requests;
    const t = this.tokens;
    r?.refill(now);
    t?.refill(now);
    const waitR = r ? r.waitFor(1) : 0;
    const waitT = t ? t.waitFor(tokens) : 0;
    const ok = waitR === 0 && waitT === 0;
    if (ok) {
      if (r) r.level -= 1;
      if (t) t.level -= Math.min(tokens, t.capacity);
    }
    const headers: Record<string, string> = {};
    if (this.sayHeaders) {
      if (r) {
        headers["x-ratelimit-limit-requests"] = String(r.perMinute);
        headers["x-ratelimit-remaining-requests"] = String(Math.max(0, Math.floor(r.level)));
        headers["x-ratelimit-reset-requests"] = formatDuration(r.resetMs());
      }
      if (t) {
        headers["x-ratelimit-limit-tokens"] = String(t.perMinute);
        headers["x-ratelimit-remaining-tokens"] = String(Math.max(0, Math.floor(t.level)));
        headers["x-ratelimit-reset-tokens"] = formatDuration(t.resetMs());
      }
    }
    if (ok) return { ok, headers };
    const byRequests = waitR >= waitT;
    const waitMs = Math.max(waitR, waitT);
    if (this.sayHeaders) {
      headers["retry-after"] = String(Math.max(1, Math.ceil(waitMs / 1000)));
      headers["retry-after-ms"] = String(Math.ceil(waitMs));
    }
    const b = byRequests ? r! : t!;
    const used = Math.round(b.capacity - b.level);
    const message = byRequests
      ? `Rate limit reached for ${model} on requests per min (RPM): Limit ${r!.perMinute}, Used ${used}, Requested 1. Please try again in ${formatDuration(waitMs)}. (simulated by serve-sim)`
      : `Rate limit reached for ${model} on tokens per min (TPM): Limit ${t!.perMinute}, Used ${used}, Requested ${tokens}. Please try again in ${formatDuration(waitMs)}. (simulated by serve-sim)`;
    return { ok, headers, kind: byRequests ? "requests" : "tokens", message };
  }
}

function pick(l: SimLimits): SimLimitsChange {
  return {
    ...(l.burstSeconds === undefined ? {} : { burstSeconds: l.burstSeconds }),
    ...(l.headers === undefined ? {} : { headers: l.headers }),
  };
}

const CHANGE_FIELDS = ["rpm", "tpm", "burstSeconds", "headers"];

/** A `POST /_sim/limits` body as a change, or what is wrong with it (the 400's message). */
export function parseLimitsChange(text: string): SimLimitsChange | string {
  let c: unknown;
  try {
    c = JSON.parse(text);
  } catch {
    return 'expected JSON like {"rpm": 300, "tpm": null, "burstSeconds": 1, "headers": true}';
  }
  if (typeof c !== "object" || c === null || Array.isArray(c)) return "expected a JSON object";
  const o = c as Record<string, unknown>;
  for (const k of Object.keys(o))
    if (!CHANGE_FIELDS.includes(k)) return `unknown field ${k} (${CHANGE_FIELDS.join(", ")})`;
  for (const k of ["rpm", "tpm"] as const)
    if (o[k] !== undefined && o[k] !== null && typeof o[k] !== "number")
      return `${k} must be a number or null`;
  if (o.burstSeconds !== undefined && typeof o.burstSeconds !== "number")
    return "burstSeconds must be a number";
  if (o.headers !== undefined && typeof o.headers !== "boolean") return "headers must be true or false";
  return o as SimLimitsChange;
}
