import { BazaarBug, isBazaarBug, isUserError, UserError } from "../../environments/kernel/errors.ts";
import {
  AgentFailure,
  encodeFailure,
  type FailureRecord,
  failureOf,
} from "../../environments/kernel/failures.ts";
import { AdaptiveLimiter, type AttemptReport, type LimiterSnapshot } from "./adaptive.ts";
import { Admission } from "./admission.ts";
import type { CachedResponse, ResponseCache } from "./cache.ts";
import { poolIdentity, ReplicaPool, type ReplicaStats } from "./pool/replicas.ts";
import { CircuitBreaker, isRequestRefused, RateLimiter, RequestRefused } from "./resilience.ts";
import type { LlmSettings } from "./settings.ts";

/** What happened at the wire: for live views and tests (counts, not contents). */
export interface CallEvents {
  onRetry?(info: { model: string; attempt: number; delayMs: number; reason: string }): void;
  /** `inARow`: times the breaker opened with no successful call between (absent for a pool). */
  onBreakerOpen?(info: { model: string; reason: string; untilMs: number; inARow?: number }): void;
  /** A replica of an endpoint pool was taken out by its breaker (the others take its requests). */
  onReplicaOut?(info: { model: string; replica: string; reason: string; untilMs: number }): void;
}

/** How one HTTP attempt went, for the circuit breaker ("aborted" tells it nothing). */
export type AttemptOutcome = "success" | "aborted" | { failure: string };

/**
 * What `acquire` grants: the release to call with the attempt's outcome and what the caller saw of
 * it (latency, status, rate-limit headers: the adaptive limiter's signals), and for an endpoint pool
 * the replica (index into `settings.replicas`) the attempt must be sent to.
 */
export type Grant = ((outcome: AttemptOutcome, report?: AttemptReport) => void) & { replica?: number };

/**
 * The final result of a request, handed to the identical requests that waited for it: the answer,
 * or the error with what it means (a failure, the server's refusal of the request, bazaar's bug).
 */
export type Settled = { response: CachedResponse } | SettledError;

/**
 * A failed request's error as it is handed to identical requests and across threads: its message
 * and what it means — a failure, the server's refusal, bazaar's bug, or the user's error (a store
 * that stopped answering: said as it is, with its hint).
 */
export interface SettledError {
  error: string;
  failure?: FailureRecord;
  refused?: true;
  bug?: true;
  user?: { hint?: string };
}

/** The error a settled failure stands for, as its owner threw it (what it means included). */
export function settledError(s: SettledError): Error {
  if (s.failure) return new AgentFailure(s.failure.kind, s.error, s.failure.hint, s.failure.label);
  if (s.refused) return new RequestRefused(s.error);
  if (s.user) return new UserError(s.error, s.user.hint);
  return s.bug ? new BazaarBug(s.error) : new Error(s.error);
}

/**
 * An error as it is settled for identical requests and crosses threads: its message and what it
 * means — its failure if it is an `AgentFailure`, or that it is the server's refusal of the request,
 * bazaar's own bug or the user's error.
 */
export function encodeError(err: unknown): SettledError {
  const f = failureOf(err);
  const error = err instanceof Error ? err.message : String(err);
  if (f) return { error, failure: encodeFailure(f) };
  if (isRequestRefused(err)) return { error, refused: true };
  if (isUserError(err)) {
    const hint = (err as { hint?: unknown }).hint;
    return { error, user: typeof hint === "string" ? { hint } : {} };
  }
  return isBazaarBug(err) ? { error, bug: true } : { error };
}

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
  /**
   * Waits for the breaker to close, the endpoint's limiter (a slot of its window, its pace) and the
   * hard rate caps; returns the release. With an endpoint pool it then picks the replica — last, so
   * that the counts it compares are those of the moment the request is sent — preferring any but
   * `avoid` (a retry's last); only when every replica is out does it wait, saying once why.
   */
  acquire(tokens: number, signal?: AbortSignal, avoid?: number): Promise<Grant>;
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
 * One model endpoint as the whole process shares it: the adaptive concurrency and pace (or the
 * fixed cap), the hard rate caps and the circuit breaker hold for every agent that talks to this
 * model at this URL — an endpoint pool is one endpoint.
 */
class Endpoint {
  readonly admission: Admission;
  /** `--rpm`/`--tpm`: hard caps, whatever the adaptive limiter finds. */
  readonly limiter: RateLimiter;
  readonly breaker: CircuitBreaker;
  /** An endpoint pool's replicas, each with its own breaker (then `breaker` is not used). */
  readonly pool: ReplicaPool | undefined;
  readonly inflight = new Map<string, Deferred>();

  constructor(s: LlmSettings, events: CallEvents) {
    // A pool's cap is per replica: n replicas take n times the requests of one.
    this.admission = new Admission(
      new AdaptiveLimiter({
        ceiling: s.concurrency * (s.replicas?.length ?? 1),
        adaptive: s.adaptiveConcurrency,
      }),
    );
    this.pool =
      s.replicas &&
      new ReplicaPool(s.replicas, s.breakerThreshold, s.breakerCooldownMs, (replica, reason, untilMs) =>
        events.onReplicaOut?.({ model: s.model, replica, reason, untilMs }),
      );
    this.limiter = new RateLimiter(s.requestsPerMinute, s.tokensPerMinute);
    this.breaker = new CircuitBreaker(s.breakerThreshold, s.breakerCooldownMs, (reason, untilMs, inARow) =>
      events.onBreakerOpen?.({ model: s.model, reason, untilMs, inARow }),
    );
  }
}

const endpoints = new Map<string, Endpoint>();

function endpointFor(s: LlmSettings, events: CallEvents): Endpoint {
  const id = `${s.replicas ? poolIdentity(s.replicas) : s.baseURL}|${s.model}`;
  let e = endpoints.get(id);
  if (!e) {
    e = new Endpoint(s, events);
    endpoints.set(id, e);
  }
  return e;
}

/** An endpoint's limiter as the live view and the run summary show it. */
export interface EndpointLimits extends LimiterSnapshot {
  model: string;
  /** The base URL, or the pool's replicas joined by commas. */
  url: string;
}

/** Every endpoint of this process and what its limiter does now (for the live view and the summary). */
export function endpointLimits(): EndpointLimits[] {
  const now = performance.now();
  return [...endpoints].map(([id, e]) => {
    const cut = id.lastIndexOf("|");
    return { model: id.slice(cut + 1), url: id.slice(0, cut), ...e.admission.limiter.snapshot(now) };
  });
}

/** Every endpoint pool of this process and its replicas' counts (for the run summary). */
export function poolStats(): { model: string; replicas: ReplicaStats[] }[] {
  const out: { model: string; replicas: ReplicaStats[] }[] = [];
  for (const [id, e] of endpoints)
    if (e.pool) out.push({ model: id.slice(id.lastIndexOf("|") + 1), replicas: e.pool.stats() });
  return out;
}

/** The gate of this thread: the endpoint shared per model and URL, and this agent's cache. */
export class LocalGate implements CallGate {
  private readonly endpoint: Endpoint;
  private readonly cache: ResponseCache | undefined;
  private readonly model: string;

  constructor(
    settings: LlmSettings,
    cache: ResponseCache | undefined,
    private readonly events: CallEvents,
  ) {
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

  async acquire(tokens: number, signal?: AbortSignal, avoid?: number): Promise<Grant> {
    const { breaker, admission, limiter, pool } = this.endpoint;
    if (!pool) await breaker.waitUntilClosed(signal);
    const ticket = await admission.acquire(tokens, signal);
    let replica: number | undefined;
    try {
      await limiter.take(tokens, signal);
      if (pool)
        replica = await pool.start(avoid, signal, ({ reason, untilMs }) =>
          this.events.onBreakerOpen?.({ model: this.model, reason, untilMs }),
        );
    } catch (err) {
      admission.release(ticket, false);
      throw err;
    }
    const adaptive = admission.limiter.adaptive;
    let done = false;
    const release = (outcome: AttemptOutcome, report?: AttemptReport) => {
      if (done) return;
      done = true;
      // A 429 is the adaptive limiter's signal to slow down, not the endpoint failing: bursts of
      // them while it finds the limit must not pause the model (a fixed cap counts them, as before).
      const throttled = adaptive && report?.status === 429;
      const told: AttemptOutcome = throttled && outcome !== "success" ? "aborted" : outcome;
      if (pool) pool.finish(replica!, told);
      else if (told === "success") breaker.success();
      else if (told !== "aborted") breaker.failure(told.failure);
      admission.release(ticket, outcome === "success", outcome === "aborted" ? undefined : report);
    };
    return replica === undefined ? release : Object.assign(release, { replica });
  }

  settle(key: string, result: Settled): void {
    const pending = this.endpoint.inflight.get(key);
    this.endpoint.inflight.delete(key);
    if ("response" in result) {
      // Only successes are cached.
      this.cache?.put(key, this.model, result.response);
      pending?.resolve(result.response);
    } else pending?.reject(settledError(result));
  }
}
