/**
 * An endpoint pool: one model served by several OpenAI-compatible replicas (vLLM or Ray Serve on
 * several hosts) behind one agent spec. Each request goes to the replica with the fewest requests in
 * flight; a failing replica is taken out by its own circuit breaker and put back once its cooldown
 * has passed and a probe succeeds; a retry goes to another replica when there is one. Only when
 * every replica is out does a request wait.
 *
 * The pool is one logical endpoint: the response cache key uses `poolIdentity` (the sorted replica
 * list), never the replica that answered, and a run's identity does not depend on the replica list
 * at all (`settings.ts`).
 */
import { CircuitBreaker, sleep } from "../resilience.ts";

/** A replica's counts, for the run summary. */
export interface ReplicaStats {
  url: string;
  requests: number;
  failures: number;
  /** Times its breaker took it out. */
  takenOut: number;
  inFlight: number;
  /** Whether it is out right now. */
  out: boolean;
}

interface Replica extends ReplicaStats {
  breaker: CircuitBreaker;
}

/** Why nothing can be sent: every replica is out, with its reason and when the first comes back. */
export interface AllOut {
  reason: string;
  untilMs: number;
}

export const trimUrl = (url: string) => url.replace(/\/+$/, "");

/**
 * The pool as one endpoint, for cache keys: its replicas sorted, so that `a,b` and `b,a` share the
 * cache; a single URL is itself (today's key, so existing caches stay valid).
 */
export function poolIdentity(urls: readonly string[]): string {
  if (urls.length === 1) return urls[0]!;
  return [...new Set(urls.map(trimUrl))].sort().join(",");
}

export class ReplicaPool {
  private readonly replicas: Replica[];
  /** Where the last tie was broken, so that ties go round the replicas. */
  private cursor = 0;

  constructor(
    urls: readonly string[],
    threshold: number,
    cooldownMs: number,
    /** Told when a replica is taken out (its URL, why, until when). */
    private readonly onOut: (url: string, reason: string, untilMs: number) => void = () => {},
  ) {
    this.replicas = urls.map((url) => {
      const r: Replica = {
        url,
        requests: 0,
        failures: 0,
        takenOut: 0,
        inFlight: 0,
        out: false,
        breaker: new CircuitBreaker(threshold, cooldownMs, (reason, untilMs) => {
          r.takenOut++;
          this.onOut(url, reason, untilMs);
        }),
      };
      return r;
    });
  }

  get size(): number {
    return this.replicas.length;
  }

  url(i: number): string {
    return this.replicas[i]!.url;
  }

  /** Whether a replica takes a request now: not out, and a half-open one only its single probe. */
  private available(r: Replica): boolean {
    if (r.breaker.isOpen) return false;
    return !r.breaker.isHalfOpen || r.inFlight === 0;
  }

  /**
   * The replica to send to now (fewest in flight; ties round-robin), preferring any but `avoid` (the
   * one that just failed this request); null when every replica is out.
   */
  choose(avoid?: number): number | null {
    const n = this.replicas.length;
    let best: number | null = null;
    // Ordered by (is the one to avoid, requests in flight); ties go to the first from the cursor.
    const rank = (i: number) => (i === avoid ? n * 1e9 : 0) + this.replicas[i]!.inFlight;
    for (let k = 0; k < n; k++) {
      const i = (this.cursor + k) % n;
      if (!this.available(this.replicas[i]!)) continue;
      if (best === null || rank(i) < rank(best)) best = i;
    }
    if (best !== null) this.cursor = (best + 1) % n;
    return best;
  }

  /** When every replica is out: which and why, and when the first is back. */
  allOut(): AllOut | null {
    if (this.replicas.some((r) => this.available(r))) return null;
    const open = this.replicas.filter((r) => r.breaker.isOpen);
    return {
      reason: `every replica is out: ${this.replicas
        .map((r) => `${r.url} (${r.breaker.isOpen ? r.breaker.reason : "probing"})`)
        .join("; ")}`,
      untilMs: open.length > 0 ? Math.min(...open.map((r) => r.breaker.openUntilMs)) : Date.now() + 5,
    };
  }

  /**
   * Waits for a replica (only when every one is out, telling `onAllOut` once per wait) and counts the
   * request against it; the caller must `finish` it.
   */
  async start(
    avoid: number | undefined,
    signal?: AbortSignal,
    onAllOut?: (o: AllOut) => void,
  ): Promise<number> {
    let told = false;
    for (;;) {
      const i = this.choose(avoid);
      if (i !== null) {
        const r = this.replicas[i]!;
        r.requests++;
        r.inFlight++;
        return i;
      }
      const out = this.allOut()!;
      if (!told) onAllOut?.(out);
      told = true;
      await sleep(Math.max(1, Math.min(out.untilMs - Date.now(), 1_000)), signal);
    }
  }

  /** How the request sent to replica `i` went ("aborted" tells its breaker nothing). */
  finish(i: number, outcome: "success" | "aborted" | { failure: string }): void {
    const r = this.replicas[i]!;
    r.inFlight--;
    if (outcome === "success") r.breaker.success();
    else if (outcome !== "aborted") {
      r.failures++;
      r.breaker.failure(outcome.failure);
    }
  }

  stats(): ReplicaStats[] {
    return this.replicas.map(({ breaker, ...r }) => ({ ...r, out: breaker.isOpen }));
  }
}
