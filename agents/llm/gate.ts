import { AgentFailure, type FailureRecord } from "../../environments/kernel/failures.ts";
import type { CachedResponse, ResponseCache } from "./cache.ts";
import { CircuitBreaker, RateLimiter, Semaphore } from "./resilience.ts";
import type { LlmSettings } from "./settings.ts";

/** What happened at the wire: for live views and tests (counts, not contents). */
export interface CallEvents {
  onRetry?(info: { model: string; attempt: number; delayMs: number; reason: string }): void;
  onBreakerOpen?(info: { model: string; reason: string; untilMs: number }): void;
}

/** How one HTTP attempt went, for the circuit breaker ("aborted" tells it nothing). */
export type AttemptOutcome = "success" | "aborted" | { failure: string };

/** The final result of a request, handed to the identical requests that waited for it. */
export type Settled = { response: CachedResponse } | { error: string; failure?: FailureRecord };

/**
 * Everything a model call shares with every other call to the same model: the response cache, the
 * de-duplication of identical requests in flight, the concurrency cap, the rate limiter and the
 * circuit breaker. `LocalGate` holds them in this thread; an agent in a worker thread reaches the
 * main thread's gate by messages (`workers.ts`), so the guarantees hold across threads.
 */
export interface CallGate {
  /**
   * A cached answer, or the answer of an identical request already in flight (rejecting as it does);
   * null when there is neither — the caller then owns the key and must `settle` it exactly once.
   */
  claim(key: string): Promise<CachedResponse | null>;
  /** Waits for the breaker to close, a concurrency slot and the rate limiter; returns the release. */
  acquire(tokens: number, signal?: AbortSignal): Promise<(outcome: AttemptOutcome) => void>;
  settle(key: string, result: Settled): void;
}

class Deferred {
  readonly promise: Promise<CachedResponse>;
  resolve!: (r: CachedResponse) => void;
  reject!: (e: Error) => void;
  constructor() {
    this.promise = new Promise<CachedResponse>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Nobody may be waiting for an owner that fails: that is not an unhandled rejection.
    this.promise.catch(() => {});
  }
}

/**
 * One model endpoint as the whole process shares it: the concurrency cap, the rate limiter and the
 * circuit breaker hold for every agent that talks to this model at this URL.
 */
class Endpoint {
  readonly semaphore: Semaphore;
  readonly limiter: RateLimiter;
  readonly breaker: CircuitBreaker;
  readonly inflight = new Map<string, Deferred>();

  constructor(s: LlmSettings, events: CallEvents) {
    this.semaphore = new Semaphore(s.concurrency);
    this.limiter = new RateLimiter(s.requestsPerMinute, s.tokensPerMinute);
    this.breaker = new CircuitBreaker(s.breakerThreshold, s.breakerCooldownMs, (reason, untilMs) =>
      events.onBreakerOpen?.({ model: s.model, reason, untilMs }),
    );
  }
}

const endpoints = new Map<string, Endpoint>();

function endpointFor(s: LlmSettings, events: CallEvents): Endpoint {
  const id = `${s.baseURL}|${s.model}`;
  let e = endpoints.get(id);
  if (!e) {
    e = new Endpoint(s, events);
    endpoints.set(id, e);
  }
  return e;
}

/** The gate of this thread: the endpoint shared per model and URL, and this agent's cache. */
export class LocalGate implements CallGate {
  private readonly endpoint: Endpoint;
  private readonly cache: ResponseCache | undefined;
  private readonly model: string;

  constructor(settings: LlmSettings, cache: ResponseCache | undefined, events: CallEvents) {
    this.endpoint = endpointFor(settings, events);
    this.cache = settings.useCache ? cache : undefined;
    this.model = settings.model;
  }

  async claim(key: string): Promise<CachedResponse | null> {
    const hit = this.cache?.get(key);
    if (hit) return hit;
    // Identical requests in flight at once (same task, agent and replicate) make one HTTP call.
    const pending = this.endpoint.inflight.get(key);
    if (pending) return pending.promise;
    this.endpoint.inflight.set(key, new Deferred());
    return null;
  }

  async acquire(tokens: number, signal?: AbortSignal): Promise<(outcome: AttemptOutcome) => void> {
    const { breaker, semaphore, limiter } = this.endpoint;
    await breaker.waitUntilClosed(signal);
    const release = await semaphore.acquire();
    try {
      await limiter.take(tokens, signal);
    } catch (err) {
      release();
      throw err;
    }
    return (outcome) => {
      if (outcome === "success") breaker.success();
      else if (outcome !== "aborted") breaker.failure(outcome.failure);
      release();
    };
  }

  settle(key: string, result: Settled): void {
    const pending = this.endpoint.inflight.get(key);
    this.endpoint.inflight.delete(key);
    if ("response" in result) {
      // Only successes are cached.
      this.cache?.put(key, this.model, result.response);
      pending?.resolve(result.response);
    } else
      pending?.reject(
        result.failure
          ? new AgentFailure(result.failure.kind, result.error, result.failure.hint)
          : new Error(result.error),
      );
  }
}
