/**
 * The gate of batch calls: the response cache and the de-duplication of identical requests, as the
 * live gate has them, but no concurrency cap, rate limiter or circuit breaker — a batch is one
 * upload, not thousands of requests, and the provider queues it. Claiming a key also tells the
 * turn's context which request this is (`context.ts`): the key becomes the request's custom id.
 */
import { AgentFailure } from "../../../environments/kernel/failures.ts";
import type { CachedResponse, ResponseCache } from "../cache.ts";
import type { AttemptOutcome, CallGate, Settled } from "../gate.ts";
import { turnContext } from "./context.ts";

interface Pending {
  promise: Promise<CachedResponse>;
  resolve: (r: CachedResponse) => void;
  reject: (e: Error) => void;
}

function pending(): Pending {
  let resolve!: (r: CachedResponse) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<CachedResponse>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Nobody may be waiting on an owner that fails: not an unhandled rejection.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

const noRelease = (_outcome: AttemptOutcome): void => {};

export class BatchGate implements CallGate {
  private readonly inflight = new Map<string, Pending>();

  constructor(
    /** Absent with `--no-cache`: every request is asked (a resumed run finds its answers in the ledger). */
    private readonly cache: ResponseCache | undefined,
    private readonly model: string,
  ) {}

  async claim(key: string): Promise<CachedResponse | null> {
    const turn = turnContext.getStore();
    if (turn) turn.key = key;
    const hit = this.cache?.get(key);
    if (hit) return hit;
    const waiting = this.inflight.get(key);
    if (waiting) return waiting.promise;
    this.inflight.set(key, pending());
    return null;
  }

  async acquire(): Promise<(outcome: AttemptOutcome) => void> {
    return noRelease;
  }

  settle(key: string, result: Settled): void {
    const waiting = this.inflight.get(key);
    this.inflight.delete(key);
    if ("response" in result) {
      // A resumed batch run replays its finished turns from here.
      this.cache?.put(key, this.model, result.response);
      waiting?.resolve(result.response);
    } else
      waiting?.reject(
        result.failure
          ? new AgentFailure(result.failure.kind, result.error, result.failure.hint)
          : new Error(result.error),
      );
  }
}
