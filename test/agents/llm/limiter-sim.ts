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
import { createRng } from "../../../environments/kernel/rng.ts";

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

export function simulate(o: {
  model: SimModel;
  limiter: AdaptiveLimiter;
  /** Requests the client keeps wanting at once (the runner's trials in flight). */
  demand: number;
  durationMs: number;
  seed?: string;
  /** Called every `everyMs` of simulated time (a trace of the limiter, for figures and tests). */
  every?: { ms: number; fn: (now: number, limiter: AdaptiveLimiter) => void };
}): SimResult {
  const { model, limiter } = o;
  const rng = createRng(o.seed ?? "limiter-sim");
  const events = new Heap();
  let now = 0;
  // The server's bucket.
  let tokens = (model.limitPerMinute(0) * model.burstSeconds) / 60;
  let last = 0;
  let atServer = 0;
  const r: SimResult = { sent: 0, ok: 0, throttled: 0, okAt: [], throttledAt: [], limiter };
  const waiting: { attempt: number }[] = [];
  let pumpAt = Number.POSITIVE_INFINITY;

  const capacity = (t: number) => Math.max(1, (model.limitPerMinute(t) * model.burstSeconds) / 60);
  const refill = () => {
    const rate = model.limitPerMinute(now) / 60_000;
    tokens = Math.min(capacity(now), tokens + (now - last) * rate);
    last = now;
  };
  const headers = (limit: number): Record<string, string> => {
    const rate = limit / 60_000;
    const reset = (capacity(now) - tokens) / rate;
    return {
      "x-ratelimit-limit-requests": String(limit),
      "x-ratelimit-remaining-requests": String(Math.max(0, Math.floor(tokens))),
      "x-ratelimit-reset-requests": `${Math.ceil(reset)}ms`,
    };
  };

  const send = (attempt: number, ticket: Ticket) => {
    r.sent++;
    refill();
    const limit = model.limitPerMinute(now);
    const admitted = tokens >= 1 && !(model.random429 && rng.next() < model.random429);
    if (admitted) tokens -= 1;
    atServer++;
    const latency = model.latencyMs(atServer);
    let h: Record<string, string> = {};
    if (model.headers) {
      h = headers(limit);
      if (!admitted) h["retry-after-ms"] = String(Math.ceil((1 - tokens) / (limit / 60_000)));
    }
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
        // The caller's backoff: retry-after where given, else full jitter from 250 ms doubling.
        const after = report.limits?.retryAfterMs;
        const cap = Math.min(30_000, 250 * 2 ** Math.min(attempt, 6));
        const delay = after ?? rng.uniform(cap / 2, cap);
        events.push(now + delay, () => want(attempt + 1));
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
  if (every) {
    const tick = () => {
      every.fn(now, limiter);
      events.push(now + every.ms, tick);
    };
    events.push(every.ms, tick);
  }
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
