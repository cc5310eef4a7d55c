/**
 * A rate-limited model server and a client that always has work, in simulated time: the
 * adaptive limiter's decisions are tested here against what a server with a token bucket does,
 * without a timer or a socket (so the figures hold on a loaded machine). The server admits a request
 * when its bucket (refilled at the limit, holding `burstSeconds` of it) has one, else answers 429;
 * it says its state in OpenAI's headers when asked to. The client retries a 429 after `retry-after`
 * or an exponential backoff, as the caller does, and every attempt goes through the limiter.
 */
import type { AdaptiveLimiter, AttemptReport, Ticket } from "../../../agents/llm/adaptive.ts";
import { readRateLimit } from "../../../agents/llm/rate-headers.ts";
import { createRng, type Rng } from "../../../environments/kernel/rng.ts";

export interface SimModel {
  /** Requests a minute the server allows at time `t` (ms). */
  limitPerMinute: (t: number) => number;
  /** Seconds of the limit the bucket holds (OpenAI documents limits enforced per second). */
  burstSeconds: number;
  /** Latency of a request that finds `inFlight` requests at the server (its own included). */
  latencyMs: (inFlight: number) => number;
  /** Whether answers carry `x-ratelimit-*` and 429s `retry-after`. */
  headers: boolean;
  /** A share of requests answered 429 whatever the rate (serve-sim's injected faults). */
  random429?: number;
}

export interface SimResult {
  /** Attempts sent, answered, answered 429. */
  sent: number;
  ok: number;
  throttled: number;
  /** When each answer came (ms), in order. */
  okAt: number[];
  /** 429s by when they came. */
  throttledAt: number[];
  limiter: AdaptiveLimiter;
}

class Heap {
  private readonly items: { at: number; n: number; run: () => void }[] = [];
  private n = 0;
  push(at: number, run: () => void): void {
    const a = this.items;
    a.push({ at, n: this.n++, run });
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.less(p, i)) break;
      [a[p], a[i]] = [a[i]!, a[p]!];
      i = p;
    }
  }
  private less(i: number, j: number): boolean {
    const a = this.items[i]!;
    const b = this.items[j]!;
    return a.at < b.at || (a.at === b.at && a.n < b.n);
  }
  pop(): { at: number; run: () => void } | undefined {
    const a = this.items;
    if (a.length === 0) return undefined;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.less(l, m)) m = l;
        if (r < a.length && this.less(r, m)) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i]!, a[m]!];
        i = m;
      }
    }
    return top;
  }
}

/** The server's bucket: refilled at the limit of the moment, holding `burstSeconds` of it. */
class SimBucket {
  private level: number;
  private last = 0;
  constructor(private readonly model: SimModel) {
    this.level = this.capacity(0);
  }

  private capacity(t: number): number {
    return Math.max(1, (this.model.limitPerMinute(t) * this.model.burstSeconds) / 60);
  }

  /** Takes one request if the bucket holds one. */
  take(now: number): boolean {
    const rate = this.model.limitPerMinute(now) / 60_000;
    this.level = Math.min(this.capacity(now), this.level + (now - this.last) * rate);
    this.last = now;
    if (this.level < 1) return false;
    this.level -= 1;
    return true;
  }

  /** OpenAI's headers for the answer just decided (a 429's with `retry-after-ms`). */
  headers(now: number, admitted: boolean): Record<string, string> {
    const limit = this.model.limitPerMinute(now);
    const rate = limit / 60_000;
    const h: Record<string, string> = {
      "x-ratelimit-limit-requests": String(limit),
      "x-ratelimit-remaining-requests": String(Math.max(0, Math.floor(this.level))),
      "x-ratelimit-reset-requests": `${Math.ceil((this.capacity(now) - this.level) / rate)}ms`,
    };
    if (!admitted) h["retry-after-ms"] = String(Math.ceil((1 - this.level) / rate));
    return h;
  }
}

/** The caller's backoff after a 429: retry-after where given, else jitter from 250 ms doubling. */
function backoff(attempt: number, report: AttemptReport, rng: Rng): number {
  const cap = Math.min(30_000, 250 * 2 ** Math.min(attempt, 6));
  return report.limits?.retryAfterMs ?? rng.uniform(cap / 2, cap);
}

export function simulate(o: {
  model: SimModel;
  limiter: AdaptiveLimiter;
  /** Requests the client keeps wanting at once (the runner's trials in flight). */
  demand: number;
  durationMs: number;
  seed?: string;
  /** False: a 429 is not retried (`--max-retries 0`). */
  retries?: boolean;
  /** Called every `everyMs` of simulated time (a trace of the limiter, for figures and tests). */
  every?: { ms: number; fn: (now: number, limiter: AdaptiveLimiter) => void };
}): SimResult {
  const { model, limiter } = o;
  const rng = createRng(o.seed ?? "limiter-sim");
  const events = new Heap();
  let now = 0;
  const bucket = new SimBucket(model);
  let atServer = 0;
  const r: SimResult = { sent: 0, ok: 0, throttled: 0, okAt: [], throttledAt: [], limiter };
  const waiting: { attempt: number }[] = [];
  let pumpAt = Number.POSITIVE_INFINITY;

  const send = (attempt: number, ticket: Ticket) => {
    r.sent++;
    const admitted = bucket.take(now) && !(model.random429 && rng.next() < model.random429);
    atServer++;
    const latency = model.latencyMs(atServer);
    const h = model.headers ? bucket.headers(now, admitted) : {};
    const sentAt = now;
    events.push(now + latency, () => {
      atServer--;
      const report: AttemptReport = {
        latencyMs: now - sentAt,
        status: admitted ? 200 : 429,
        ...(model.headers ? { limits: readRateLimit((n) => h[n], now) } : {}),
      };
      limiter.done(ticket, admitted, report, now);
      if (admitted) {
        r.ok++;
        r.okAt.push(now);
        want(0);
      } else {
        r.throttled++;
        r.throttledAt.push(now);
        // Without retries the trial fails and the runner starts the next one at once.
        if (o.retries === false) want(0);
        else events.push(now + backoff(attempt, report, rng), () => want(attempt + 1));
      }
      pump();
    });
  };

  const pump = () => {
    while (waiting.length > 0) {
      const d = limiter.wait(0, now);
      if (d === 0) {
        const w = waiting.shift()!;
        send(w.attempt, limiter.send(0, now));
        continue;
      }
      if (Number.isFinite(d) && now + d < pumpAt) {
        pumpAt = now + d;
        events.push(pumpAt, () => {
          pumpAt = Number.POSITIVE_INFINITY;
          pump();
        });
      }
      return;
    }
  };

  const want = (attempt: number) => {
    waiting.push({ attempt });
    pump();
  };

  const every = o.every;
  const tick = () => {
    every?.fn(now, limiter);
    if (every) events.push(now + every.ms, tick);
  };
  if (every) events.push(every.ms, tick);
  for (let i = 0; i < o.demand; i++) want(0);
  for (let e = events.pop(); e && e.at <= o.durationMs; e = events.pop()) {
    now = e.at;
    e.run();
  }
  return r;
}

/** Answers a minute between `from` and `to` (ms). */
export function perMinute(times: readonly number[], from: number, to: number): number {
  let n = 0;
  for (const t of times) if (t >= from && t < to) n++;
  return (n * 60_000) / (to - from);
}
