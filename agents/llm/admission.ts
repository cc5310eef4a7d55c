/**
 * The waiting room in front of one model endpoint: requests wait here, in arrival order, until the
 * endpoint's limiter (`adaptive.ts`) lets them go — a slot of its window, its pace, the server's
 * bucket. It keeps at most one timer (for the head of the line) and wakes on every release.
 */
import type { AdaptiveLimiter, AttemptReport, Ticket } from "./adaptive.ts";

/** Time for the waiting room; tests pass a fake one. */
export interface AdmissionClock {
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export const REAL_CLOCK: AdmissionClock = {
  now: () => performance.now(),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (h) => clearTimeout(h as NodeJS.Timeout),
};

interface Waiter {
  tokens: number;
  resolve: (t: Ticket) => void;
  reject: (e: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export class Admission {
  private readonly queue: Waiter[] = [];
  private timer: unknown = null;
  private timerAt = Number.POSITIVE_INFINITY;

  constructor(
    readonly limiter: AdaptiveLimiter,
    private readonly clock: AdmissionClock = REAL_CLOCK,
  ) {}

  /** Waits until the limiter lets a request of `tokens` estimated tokens go; the caller must `release`. */
  acquire(tokens: number, signal?: AbortSignal): Promise<Ticket> {
    if (signal?.aborted) return Promise.reject(signal.reason ?? new Error("aborted"));
    // The fast path: nobody waits and the limiter says go.
    if (this.queue.length === 0 && this.limiter.wait(tokens, this.clock.now()) === 0)
      return Promise.resolve(this.limiter.send(tokens, this.clock.now()));
    return new Promise<Ticket>((resolve, reject) => {
      const w: Waiter = { tokens, resolve, reject, signal };
      if (signal) {
        w.onAbort = () => {
          const i = this.queue.indexOf(w);
          if (i >= 0) this.queue.splice(i, 1);
          reject(signal.reason ?? new Error("aborted"));
          this.pump();
        };
        signal.addEventListener("abort", w.onAbort, { once: true });
      }
      this.queue.push(w);
      this.pump();
    });
  }

  /**
   * A request is done: `ok` for an answer, and what the caller saw (no report: abandoned, which
   * tells the limiter nothing).
   */
  release(ticket: Ticket, ok: boolean, report?: AttemptReport): void {
    this.limiter.done(ticket, ok, report, this.clock.now());
    this.pump();
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      const now = this.clock.now();
      const wait = this.limiter.wait(head.tokens, now);
      if (wait === 0) {
        this.queue.shift();
        if (head.onAbort) head.signal?.removeEventListener("abort", head.onAbort);
        head.resolve(this.limiter.send(head.tokens, now));
        continue;
      }
      // A full window waits for a release; a pace or a bucket for its time.
      if (Number.isFinite(wait)) this.wake(now + wait);
      return;
    }
    this.cancelTimer();
  }

  private wake(at: number): void {
    if (this.timer !== null && this.timerAt <= at) return;
    this.cancelTimer();
    this.timerAt = at;
    this.timer = this.clock.setTimer(
      () => {
        this.timer = null;
        this.timerAt = Number.POSITIVE_INFINITY;
        this.pump();
      },
      Math.max(1, Math.ceil(at - this.clock.now())),
    );
  }

  private cancelTimer(): void {
    if (this.timer === null) return;
    this.clock.clearTimer(this.timer);
    this.timer = null;
    this.timerAt = Number.POSITIVE_INFINITY;
  }

  /** Requests waiting now. */
  get waiting(): number {
    return this.queue.length;
  }
}
