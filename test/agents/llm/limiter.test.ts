/**
 * The adaptive limiter's decisions in simulated time (limiter-sim.ts): a token-bucket server, a
 * client that always has work, no timer and no socket — so the figures hold on a loaded machine.
 */
import { describe, expect, it } from "vitest";
import { AdaptiveLimiter } from "../../../agents/llm/adaptive.ts";
import { Admission, type AdmissionClock } from "../../../agents/llm/admission.ts";
import { perMinute, type SimModel, simulate } from "./limiter-sim.ts";

const MINUTE = 60_000;
const at200 = () => 200;

function run(model: SimModel, o: { minutes: number; ceiling?: number; adaptive?: boolean; demand?: number }) {
  const limiter = new AdaptiveLimiter({ ceiling: o.ceiling ?? 64, adaptive: o.adaptive ?? true });
  return simulate({ model, limiter, demand: o.demand ?? 64, durationMs: o.minutes * MINUTE });
}

/** Answers a minute and the share of attempts answered 429, between `from` and `to` (ms). */
function window(r: ReturnType<typeof run>, from: number, to: number) {
  const ok = r.okAt.filter((t) => t >= from && t < to).length;
  const limited = r.throttledAt.filter((t) => t >= from && t < to).length;
  return { perMinute: perMinute(r.okAt, from, to), share429: limited / Math.max(1, ok + limited) };
}

describe("the adaptive limiter against a rate-limited server (simulated time)", () => {
  it("paces to the server's x-ratelimit headers: the limit's rate, no 429s", () => {
    const r = run(
      { limitPerMinute: () => 600, burstSeconds: 1, latencyMs: at200, headers: true },
      { minutes: 2 },
    );
    const w = window(r, 30_000, 2 * MINUTE);
    expect(w.perMinute).toBeGreaterThan(0.95 * 600);
    expect(w.perMinute).toBeLessThanOrEqual(610);
    expect(r.throttled).toBeLessThanOrEqual(2);
    const s = r.limiter.snapshot(2 * MINUTE);
    expect(s.found).toEqual({ requestsPerMinute: 600, source: "headers" });
    // Ten a second at 200 ms need two in flight: the window stays far under the ceiling of 64.
    expect(s.window).toBeLessThan(32);
  });

  it("without headers finds the limit from its 429s: most of the rate, few 429s", () => {
    const r = run(
      { limitPerMinute: () => 600, burstSeconds: 1, latencyMs: at200, headers: false },
      { minutes: 3 },
    );
    const w = window(r, MINUTE, 3 * MINUTE);
    expect(w.perMinute).toBeGreaterThan(0.85 * 600);
    expect(w.share429).toBeLessThan(0.03);
    const found = r.limiter.snapshot(3 * MINUTE).found!;
    expect(found.source).toBe("429s");
    expect(found.requestsPerMinute).toBeGreaterThan(500);
    expect(found.requestsPerMinute).toBeLessThan(720);
  });

  it("follows a limit that drops mid-run (600 → 300) within seconds, headers or none", () => {
    for (const headers of [true, false]) {
      const r = run(
        { limitPerMinute: (t) => (t < MINUTE ? 600 : 300), burstSeconds: 1, latencyMs: at200, headers },
        { minutes: 2 },
      );
      // From ten seconds after the drop: the new limit, without a storm of 429s.
      const w = window(r, MINUTE + 10_000, 2 * MINUTE);
      expect(w.perMinute).toBeGreaterThan(0.85 * 300);
      expect(w.perMinute).toBeLessThan(1.05 * 300);
      expect(w.share429).toBeLessThan(0.05);
    }
  });

  it("finds a limit that was raised again (additive probing)", () => {
    const r = run(
      { limitPerMinute: (t) => (t < MINUTE ? 300 : 600), burstSeconds: 1, latencyMs: at200, headers: false },
      { minutes: 3 },
    );
    expect(window(r, 2 * MINUTE, 3 * MINUTE).perMinute).toBeGreaterThan(0.8 * 600);
  });

  it("takes random 429s that pacing does not lower for noise, and keeps its rate", () => {
    const noisy = { limitPerMinute: () => 1e9, burstSeconds: 1, latencyMs: at200, headers: false };
    const adaptive = run({ ...noisy, random429: 0.15 }, { minutes: 1 });
    const fixed = run({ ...noisy, random429: 0.15 }, { minutes: 1, adaptive: false });
    expect(window(adaptive, 20_000, MINUTE).perMinute).toBeGreaterThan(
      0.8 * window(fixed, 20_000, MINUTE).perMinute,
    );
    // With no retries (`--max-retries 0`) each 429 fails a trial and the next starts at once.
    const once = (adaptive: boolean) =>
      simulate({
        model: { ...noisy, latencyMs: () => 5, random429: 0.1 },
        limiter: new AdaptiveLimiter({ ceiling: 16, adaptive }),
        demand: 16,
        durationMs: 20_000,
        retries: false,
      }).ok;
    expect(once(true)).toBeGreaterThan(0.8 * once(false));
  });

  it("starts modest and grows its window while answers come back as fast; a latency rise stops it", () => {
    const fast = run(
      { limitPerMinute: () => 1e9, burstSeconds: 1, latencyMs: () => 50, headers: false },
      { minutes: 0.5 },
    );
    expect(fast.limiter.window).toBe(64);
    const first = new AdaptiveLimiter({ ceiling: 64, adaptive: true });
    expect(first.window).toBe(4);
    // A server with eight slots: past eight in flight every request waits for the others.
    const slots = run(
      {
        limitPerMinute: () => 1e9,
        burstSeconds: 1,
        latencyMs: (n) => 100 * Math.max(1, n / 8),
        headers: false,
      },
      { minutes: 1 },
    );
    expect(slots.limiter.window).toBeLessThanOrEqual(24);
    expect(slots.limiter.window).toBeGreaterThanOrEqual(8);
  });

  it("a fixed limiter holds its ceiling, paces to nothing and counts the 429s", () => {
    const r = run(
      { limitPerMinute: () => 600, burstSeconds: 1, latencyMs: at200, headers: true },
      { minutes: 0.5, ceiling: 8, adaptive: false },
    );
    const s = r.limiter.snapshot(30_000);
    expect(s).toMatchObject({ adaptive: false, window: 8, ceiling: 8, pacedPerMinute: null });
    expect(s.throttled).toBe(r.throttled);
    expect(r.throttled).toBeGreaterThan(0);
  });

  it("holds every request until a 429's retry-after has passed", () => {
    const l = new AdaptiveLimiter({ ceiling: 8, adaptive: true });
    const t = l.send(0, 0);
    l.done(t, false, { latencyMs: 10, status: 429, limits: { retryAfterMs: 500 } }, 10);
    expect(l.wait(0, 10)).toBe(500);
    expect(l.wait(0, 510)).toBe(0);
  });

  it("paces to the token headers: a request waits while its tokens are not in the bucket", () => {
    const l = new AdaptiveLimiter({ ceiling: 8, adaptive: true });
    const t = l.send(0, 0);
    // 6,000 tokens a minute (100 a second), 500 left: a 100-token request goes, a 1,000-token one waits.
    l.done(
      t,
      true,
      { latencyMs: 10, limits: { limitTokens: 6000, remainingTokens: 500, resetTokensMs: 5000 } },
      10,
    );
    expect(l.wait(100, 10)).toBe(0);
    const waitMs = l.wait(1000, 10);
    expect(waitMs).toBeGreaterThan(4000); // 500 tokens more at 100 a second: about 5 s
    expect(waitMs).toBeLessThanOrEqual(5000 / 0.9); // refilled at a share of the stated rate (a margin)
  });

  it("a server that says its limit but not what remains of it is paced by its 429s, as one that says nothing", () => {
    const paced = (limits: { limitRequests: number } | undefined) => {
      const l = new AdaptiveLimiter({ ceiling: 64, adaptive: true });
      // 200 answers over 2 s; from the 40th every other one a 429.
      for (let i = 0; i < 200; i++) {
        const t = l.send(0, i * 10);
        const limited = i >= 40 && i % 2 === 0;
        const report = { latencyMs: 300, ...(limited ? { status: 429 } : {}), ...(limits ? { limits } : {}) };
        l.done(t, !limited, report, i * 10 + 300);
      }
      return l.snapshot(2300);
    };
    const silent = paced(undefined);
    expect(silent.pacedPerMinute).not.toBeNull();
    expect(paced({ limitRequests: 600 })).toMatchObject({
      pacedPerMinute: silent.pacedPerMinute,
      found: silent.found,
    });
  });

  it("a start of nothing but 429s finds no faster limit than its window a round trip", () => {
    const l = new AdaptiveLimiter({ ceiling: 64, adaptive: true });
    const window = l.snapshot(0).window;
    const tickets = Array.from({ length: window }, () => l.send(0, 0));
    for (const t of tickets) l.done(t, false, { latencyMs: 300, status: 429 }, 300);
    const found = l.snapshot(300).found;
    expect(found?.source).toBe("429s");
    expect(found!.requestsPerMinute).toBeLessThanOrEqual((window * MINUTE) / 300);
  });
});

/** A clock the test moves: timers fire when it passes them. */
function fakeClock(): AdmissionClock & { advance(ms: number): void } {
  let now = 0;
  let timers: { at: number; fn: () => void }[] = [];
  return {
    now: () => now,
    setTimer(fn, ms) {
      const t = { at: now + ms, fn };
      timers.push(t);
      return t;
    },
    clearTimer(h) {
      timers = timers.filter((t) => t !== h);
    },
    advance(ms) {
      now += ms;
      const due = timers.filter((t) => t.at <= now);
      timers = timers.filter((t) => t.at > now);
      for (const t of due) t.fn();
    },
  };
}

describe("the waiting room in front of an endpoint", () => {
  it("lets requests go in arrival order as the window frees, and a stopped waiter leaves the line", async () => {
    const clock = fakeClock();
    const room = new Admission(new AdaptiveLimiter({ ceiling: 2, adaptive: false }), clock);
    const order: number[] = [];
    const first = await room.acquire(0);
    const second = await room.acquire(0);
    const stop = new AbortController();
    const waiting = [3, 4, 5].map((i) =>
      room.acquire(0, i === 4 ? stop.signal : undefined).then(
        (t) => {
          order.push(i);
          return t;
        },
        () => order.push(-i),
      ),
    );
    expect(room.waiting).toBe(3);
    stop.abort();
    await Promise.resolve();
    room.release(first, true, { latencyMs: 1, status: 200 });
    room.release(second, true, { latencyMs: 1, status: 200 });
    await Promise.all(waiting);
    expect(order).toEqual([-4, 3, 5]);
    expect(room.waiting).toBe(0);
  });

  it("wakes the head of the line when the server's bucket has refilled", async () => {
    const clock = fakeClock();
    const limiter = new AdaptiveLimiter({ ceiling: 8, adaptive: true });
    const room = new Admission(limiter, clock);
    const t = await room.acquire(0);
    // The server says its 60-a-minute bucket is empty, full again in a second: one a second.
    room.release(t, true, {
      latencyMs: 5,
      status: 200,
      limits: { limitRequests: 60, remainingRequests: 0, resetRequestsMs: 1000 },
    });
    let granted = false;
    const next = room.acquire(0).then(() => {
      granted = true;
    });
    await Promise.resolve();
    expect(granted).toBe(false);
    clock.advance(500);
    await Promise.resolve();
    expect(granted).toBe(false);
    clock.advance(1_000);
    await next;
    expect(granted).toBe(true);
  });
});
