/**
 * What the server said about one attempt beyond its answer — its status and rate-limit headers —
 * for the adaptive limiter. LangChain hands back the message, not the response, so the client's
 * `fetch` is wrapped: each attempt carries a private header naming it, which the wrapper takes off
 * before the request leaves (no server ever sees it) and files the response's headers under.
 */
import { type RateLimitInfo, readRateLimit } from "./rate-headers.ts";

export const ATTEMPT_HEADER = "x-bazaar-attempt";

export interface Observed {
  status: number;
  limits?: RateLimitInfo;
}

function attemptOf(headers: ConstructorParameters<typeof Headers>[0]): {
  id: string | null;
  rest: ConstructorParameters<typeof Headers>[0];
} {
  if (!headers) return { id: null, rest: headers };
  const h = new Headers(headers);
  const id = h.get(ATTEMPT_HEADER);
  if (id === null) return { id, rest: headers };
  h.delete(ATTEMPT_HEADER);
  return { id, rest: h };
}

/** One client's attempts in flight and what their responses said. */
export class AttemptObserver {
  private next = 0;
  private readonly seen = new Map<string, Observed>();

  /** The `fetch` for the client (over `inner`): files each named attempt's status and headers. */
  readonly fetch: typeof globalThis.fetch;

  constructor(inner: typeof globalThis.fetch = globalThis.fetch) {
    this.fetch = async (input, init) => {
      const { id, rest } = attemptOf(init?.headers);
      if (id === null) return inner(input, init);
      const res = await inner(input, { ...init, headers: rest });
      const limits = readRateLimit((name) => res.headers.get(name));
      this.seen.set(id, { status: res.status, ...(limits ? { limits } : {}) });
      return res;
    };
  }

  /** A name for the next attempt, to send as the `ATTEMPT_HEADER` header. */
  begin(): string {
    return String(++this.next);
  }

  /** What the attempt's response said (once; undefined when none came). */
  take(id: string): Observed | undefined {
    const o = this.seen.get(id);
    this.seen.delete(id);
    return o;
  }
}
