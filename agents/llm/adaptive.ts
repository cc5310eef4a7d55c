/**
 * How many requests one model endpoint is sent at once and how fast: the decision logic, with no
 * timers and an injected clock (`admission.ts` does the waiting), so it is tested against a
 * simulated server in simulated time.
 *
 * Two limits act together, each doing what it is good at:
 *
 * - **A window** (requests in flight), moved by latency as Netflix's Gradient2 limiter moves it: a
 *   short average of the latency against a slow baseline; while the short one stays under twice the
 *   baseline the window grows by √window, beyond that it shrinks in proportion (never below half in
 *   one step), smoothed. It grows only while it is used (half full or more), so a run that sends
 *   few requests does not earn a window it never tried. `--model-concurrency` is its ceiling.
 *
 * - **A pace** (requests a second), for the provider's rate limit, which no window finds: 64 in
 *   flight at 200 ms is 320 requests a second, and a limit of 600 a minute is 10. Where the server
 *   says its limit in OpenAI's `x-ratelimit-*` headers, the limiter keeps a copy of the server's
 *   bucket — re-anchored at every answer on what the server said remained, less every request
 *   still out — refilled at 97% of the stated rate, and sends only while the copy holds a request
 *   (and the tokens estimated for it) with one to spare; a 429 with `retry-after` holds every request
 *   until then. Where the server says nothing, a 429 sets the pace to 90% of the rate the server
 *   admitted over the last second (what got through is the limit, as BBR takes the delivery rate
 *   for the bottleneck), at most once a second and only for requests sent after the last cut; while
 *   calls succeed the pace then rises by 2% of that found rate a second — an additive probe that
 *   finds a limit that was raised, and costs a 429 or two each time it overshoots.
 *
 * A fixed limiter (`--fixed-concurrency`) holds the ceiling and counts, as bazaar did before.
 */
import type { RateLimitInfo } from "./rate-headers.ts";

/** What the caller saw of one attempt, handed back with its release. */
export interface AttemptReport {
  /** From sending the request to its answer, in milliseconds. */
  latencyMs: number;
  /** The HTTP status, when the server answered. */
  status?: number;
  /** The response's rate-limit headers, when it had any. */
  limits?: RateLimitInfo;
}

/** One request let through, as the limiter remembers it until its release. */
export interface Ticket {
  /** When it went (ms). */
  readonly sentAt: number;
  /** Its estimated tokens. */
  readonly tokens: number;
  /** Requests in flight when it went (counted with it). */
  readonly inFlightAtSend: number;
}

/** What the live view and the run summary say about an endpoint. */
export interface LimiterSnapshot {
  adaptive: boolean;
  inFlight: number;
  /** Requests it lets be in flight now (the window; the ceiling for a fixed limiter). */
  window: number;
  ceiling: number;
  /** Requests a minute it paces to, where it paces (null: only the window holds it). */
  pacedPerMinute: number | null;
  /** The limit it found: the server's own words, or the rate the server admitted when it said 429. */
  found: { requestsPerMinute?: number; tokensPerMinute?: number; source: "headers" | "429s" } | null;
  /** Requests let through, and how many of them the server answered 429. */
  requests: number;
  throttled: number;
  /** Typical latency of recent answers (ms); null before the first. */
  latencyMs: number | null;
}

export interface LimiterOptions {
  /** `--model-concurrency` (times the replicas of a pool): the window never exceeds it. */
  ceiling: number;
  /** False: hold the ceiling, pace to nothing, only count. */
  adaptive: boolean;
  /** The window to start with (default: 4, or the ceiling when lower). */
  initial?: number;
}

/** The server's bucket as the limiter reconstructs it from the headers of one answer. */
interface Mirror {
  /** Units (requests or tokens) a minute the server allows. */
  perMinute: number;
  /** Most units the bucket holds (`remaining + reset × rate`: a minute's worth on OpenAI). */
  capacity: number;
  /** What the server said remained, in the last answer that came. */
  remaining: number;
  /** When that answer came (the server counted its request then or before). */
  at: number;
}

/** Short latency average: about the last five answers. */
const SHORT_GAIN = 0.2;
/**
 * The baseline follows a lower latency at a tenth a sample and a higher one at 1/2000: a server
 * slowed by load is not taken for the new normal within a run, and one that got slower for good (a
 * longer prompt) is, after a few thousand answers.
 */
const BASELINE_DOWN = 0.1;
const BASELINE_UP = 1 / 2000;
/** Latency up to twice the baseline is not a rise (LLM latency varies with the answer's length). */
const LATENCY_TOLERANCE = 2;
/** How much of a new window estimate is taken at each answer (Gradient2's smoothing). */
const SMOOTHING = 0.2;
/** The share of the server's stated rate the copy of its bucket refills at: room for jitter. */
const HEADER_RATE_SHARE = 0.97;
/** A header-described limit counts for this long after the last answer that said it. */
const HEADERS_FRESH_MS = 60_000;
/** Pace after a 429 without headers: this share of the rate admitted over the last span. */
const CUT_SHARE = 0.9;
/**
 * Cuts come at most once per two round trips (at least this far apart), and the admitted rate is
 * measured over at least a second (ten answers at 600 a minute) and four round trips.
 */
const CUT_EPOCH_MS = 250;
const ADMITTED_SPAN_MS = 1000;
/** A cut is judged after 20 answers to requests sent since, or after this long and five answers. */
const JUDGE_AFTER_MS = 3000;
/** While calls succeed the pace rises by this share of the found rate per second… */
const PROBE_GAIN_PER_S = 0.02;
/** …doubled for every this long since the last cut (at most 2⁶ times). */
const PROBE_DOUBLING_MS = 10_000;
const PROBE_MAX_DOUBLINGS = 6;
/** A share of 429s below this is never taken for noise (a limit's overshoot looks like that). */
const NOISE_FLOOR = 0.05;
const NOISE_CEILING = 0.25;
/** Answers a share of 429s is counted over, at least (reaching back up to 10 s). */
const RATIO_SAMPLE = 20;
/** Admitted answers are counted in slots of this width, over `SLOTS` of them. */
const SLOT_MS = 100;
const SLOTS = 100;

/** Events per 100 ms over the last 10 s: a rate over any recent span. */
class RecentCounts {
  private readonly counts = new Float64Array(SLOTS);
  private slot = -1;
  private since = Number.POSITIVE_INFINITY;

  private advance(now: number): number {
    const s = Math.floor(now / SLOT_MS);
    if (this.slot < 0) this.slot = s;
    for (let k = Math.min(SLOTS, s - this.slot); k > 0; k--) this.counts[(s - k + 1) % SLOTS] = 0;
    if (s > this.slot) this.slot = s;
    return s;
  }

  add(now: number): void {
    const s = this.advance(now);
    this.counts[s % SLOTS]! += 1;
    if (now < this.since) this.since = now;
  }

  /** Events in the last `spanMs` (whole slots, the current one included). */
  count(now: number, spanMs: number): number {
    const s = this.advance(now);
    const n = Math.min(SLOTS, Math.max(1, Math.round(spanMs / SLOT_MS)));
    let sum = 0;
    for (let k = 0; k < n; k++) sum += this.counts[(s - k + SLOTS) % SLOTS]!;
    return sum;
  }

  /** Events a millisecond over the last `spanMs`, or since the first event if that is later. */
  perMs(now: number, spanMs: number): number {
    const s = Math.floor(now / SLOT_MS);
    const n = Math.min(SLOTS, Math.max(1, Math.round(spanMs / SLOT_MS)));
    // The current slot is only partly over: the span runs from the start of the oldest slot.
    const covered = Math.min((n - 1) * SLOT_MS + (now - s * SLOT_MS), now - this.since);
    return this.count(now, spanMs) / Math.max(covered, 1);
  }
}

export class AdaptiveLimiter {
  readonly ceiling: number;
  readonly adaptive: boolean;
  private w: number;
  private inFlightNow = 0;
  /** Estimated tokens of the requests in flight. */
  private openTokens = 0;
  private sent = 0;
  private throttled = 0;

  // Latency (Gradient2).
  private shortMs = 0;
  private baselineMs = 0;
  private samples = 0;

  // The server's words.
  private requestsMirror: Mirror | null = null;
  private tokensMirror: Mirror | null = null;
  private headersAt = Number.NEGATIVE_INFINITY;
  private holdUntil = 0;

  // Probing where the server says nothing: requests a millisecond (Infinity: not paced).
  private pace = Number.POSITIVE_INFINITY;
  private foundPerMs: number | null = null;
  private nextAt = 0;
  private lastCutAt = Number.NEGATIVE_INFINITY;
  private lastRaiseAt = 0;
  /** When a request last had to wait for the pace (probing only raises a pace that holds). */
  private pacedAt = Number.NEGATIVE_INFINITY;
  /** Answers and 429s of the last seconds (the admitted rate, the share answered 429). */
  private readonly answered = new RecentCounts();
  private readonly limited = new RecentCounts();
  /**
   * The last cut, until it is judged: the pace it replaced and what the requests sent since got.
   * A cut that did not lower the share of 429s was cutting for 429s that are not the rate's.
   */
  private judging: {
    from: number;
    fromFound: number | null;
    ratioBefore: number;
    /** Cut on fewer than 40 answers (a run's first second): no share before it to compare with. */
    early: boolean;
    ok: number;
    limited: number;
  } | null = null;
  /** A share of 429s that pacing did not lower (noise, not a limit), halving every 30 s. */
  private noise = 0;
  private noiseAt = 0;

  constructor(o: LimiterOptions) {
    this.ceiling = Math.max(1, Math.floor(o.ceiling));
    this.adaptive = o.adaptive;
    this.w = o.adaptive ? Math.min(this.ceiling, Math.max(1, o.initial ?? 4)) : this.ceiling;
  }

  get inFlight(): number {
    return this.inFlightNow;
  }

  /** Requests it lets be in flight now. */
  get window(): number {
    return Math.max(1, Math.floor(this.w));
  }

  private headersFresh(now: number): boolean {
    return now - this.headersAt < HEADERS_FRESH_MS;
  }

  /**
   * Units the copy of the server's bucket holds now: what the last answer said remained, refilled
   * at a share of the stated rate since, less every unit still out — each request in flight is
   * taken as not yet counted by the server. Requests overtake one another on the way (a busy
   * client sends some late, a new connection is slower), so no other rule is safe; in a steady
   * state it costs only the bucket's headroom, not its rate.
   */
  private static available(m: Mirror, now: number, out: number): number {
    const refill = (Math.max(0, now - m.at) * m.perMinute * HEADER_RATE_SHARE) / 60_000;
    return Math.min(m.capacity, m.remaining + refill) - out;
  }

  /** Milliseconds until the copy holds `need` units (0: now). */
  private static waitFor(m: Mirror, need: number, now: number, out: number): number {
    const want = Math.min(need, m.capacity);
    const short = want - AdaptiveLimiter.available(m, now, out);
    if (short <= 0) return 0;
    return Math.ceil((short * 60_000) / (m.perMinute * HEADER_RATE_SHARE));
  }

  /**
   * Milliseconds until a request estimated at `tokens` may be sent: 0 now, Infinity while the
   * window is full (a release frees it).
   */
  wait(tokens: number, now: number): number {
    if (this.inFlightNow >= this.window) return Number.POSITIVE_INFINITY;
    if (!this.adaptive) return 0;
    let until = Math.max(this.holdUntil, 0);
    if (this.headersFresh(now)) {
      const r = this.requestsMirror;
      const t = this.tokensMirror;
      // This request and one to spare.
      if (r) until = Math.max(until, now + AdaptiveLimiter.waitFor(r, 2, now, this.inFlightNow));
      if (t && tokens > 0)
        until = Math.max(until, now + AdaptiveLimiter.waitFor(t, tokens, now, this.openTokens));
    } else if (Number.isFinite(this.pace)) {
      if (this.nextAt > now) this.pacedAt = now;
      until = Math.max(until, this.nextAt);
    }
    return Math.max(0, until - now);
  }

  /** Records a request let through (after `wait` said 0). */
  send(tokens: number, now: number): Ticket {
    this.inFlightNow++;
    this.sent++;
    this.openTokens += tokens;
    if (Number.isFinite(this.pace)) this.nextAt = Math.max(this.nextAt, now) + 1 / this.pace;
    return {
      sentAt: now,
      tokens,
      inFlightAtSend: this.inFlightNow,
    };
  }

  /**
   * A request came back: `ok` for an answer, false for a failure (a 429 says so in `report`), and
   * no report at all for an attempt that was abandoned (it tells nothing).
   */
  done(ticket: Ticket, ok: boolean, report: AttemptReport | undefined, now: number): void {
    this.inFlightNow = Math.max(0, this.inFlightNow - 1);
    this.openTokens = Math.max(0, this.openTokens - ticket.tokens);
    if (!report) return;
    const limited = report.status === 429;
    if (limited) this.throttled++;
    if (!this.adaptive) {
      if (ok) this.latency(report.latencyMs);
      return;
    }
    if (report.limits) this.heard(report.limits, now);
    else if (ok && this.headersFresh(now)) {
      // An answer without them: the server no longer says its limit (a copy of its bucket that
      // nothing re-anchors would hold every later request back a little more).
      this.requestsMirror = null;
      this.tokensMirror = null;
      this.headersAt = Number.NEGATIVE_INFINITY;
    }
    const since = ticket.sentAt >= this.lastCutAt;
    if (limited) {
      this.limited.add(now);
      if (this.judging && since) this.judging.limited++;
      const after = report.limits?.retryAfterMs;
      if (after !== undefined) this.holdUntil = Math.max(this.holdUntil, now + after);
      if (!this.headersFresh(now)) this.cut(ticket, now);
      this.judge(now);
      return;
    }
    if (!ok) return;
    this.answered.add(now);
    if (this.judging && since) this.judging.ok++;
    this.judge(now);
    this.latency(report.latencyMs);
    this.grow(ticket);
    this.raise(now);
  }

  /** The server's headers: the copies of its buckets start again from the answer that just came. */
  private heard(l: RateLimitInfo, now: number): void {
    const mirror = (
      old: Mirror | null,
      limit: number | undefined,
      remaining: number | undefined,
      resetMs: number | undefined,
    ): Mirror | null => {
      if (limit === undefined || limit <= 0 || remaining === undefined) return old;
      // The bucket's size: what remains plus what refills until it is full again.
      const capacity =
        resetMs === undefined ? Math.max(limit / 60, remaining) : remaining + (resetMs * limit) / 60_000;
      return {
        perMinute: limit,
        capacity: Math.max(1, capacity),
        remaining,
        // Refilled from when the answer came, not when the request went: the server counted it
        // somewhere between, and a busy client's request may have reached it late.
        at: now,
      };
    };
    const r = mirror(this.requestsMirror, l.limitRequests, l.remainingRequests, l.resetRequestsMs);
    const t = mirror(this.tokensMirror, l.limitTokens, l.remainingTokens, l.resetTokensMs);
    // Fresh headers only where they make a bucket to pace to: a limit without what remains of it
    // (a partial set) must not turn off pacing on 429s while nothing paces to the headers.
    if (r !== this.requestsMirror || t !== this.tokensMirror) this.headersAt = now;
    this.requestsMirror = r;
    this.tokensMirror = t;
  }

  /** The share of recent answers that were 429s, over `spanMs`. */
  private ratio(now: number, spanMs: number): number {
    const limited = this.limited.count(now, spanMs);
    const total = limited + this.answered.count(now, spanMs);
    return total === 0 ? 0 : limited / total;
  }

  /**
   * The share of 429s over at least `spanMs`, reaching further back (up to 10 s) until it counts
   * `RATIO_SAMPLE` answers: one 429 of the first two answers is no share to judge a cut by.
   */
  private sampledRatio(now: number, spanMs: number): number {
    let span = spanMs;
    const enough = (ms: number) => this.limited.count(now, ms) + this.answered.count(now, ms) >= RATIO_SAMPLE;
    while (span < SLOTS * SLOT_MS && !enough(span)) span += SLOT_MS;
    return this.ratio(now, span);
  }

  /** The share of 429s taken for noise: what a cut failed to lower, halving every 30 s. */
  private noiseNow(now: number): number {
    return this.noise * 0.5 ** ((now - this.noiseAt) / 30_000);
  }

  /** A 429 without headers: pace to what the server admitted, once per epoch. */
  private cut(ticket: Ticket, now: number): void {
    // A request sent before the last cut was sent at the old pace: it says nothing new.
    const epoch = Math.max(CUT_EPOCH_MS, 2 * this.shortMs);
    if (ticket.sentAt < this.lastCutAt || now - this.lastCutAt < epoch) return;
    let span = Math.max(ADMITTED_SPAN_MS, 4 * this.shortMs);
    let ratio = this.sampledRatio(now, span);
    // A storm (most answers 429s): the bucket is empty, and what the last round trips admitted is
    // the limit itself, not the burst that emptied it.
    const stormSample = this.limited.count(now, epoch) + this.answered.count(now, epoch) >= 8;
    if (stormSample && this.ratio(now, epoch) >= Math.max(0.3, 2 * this.noiseNow(now) + 0.1)) {
      ratio = Math.max(ratio, this.ratio(now, epoch));
      // Over enough answers to be a rate (eight), as far back as the usual span.
      const long = span;
      for (span = epoch; span < long && this.answered.count(now, span) < 8; span += SLOT_MS);
    }
    // 429s at the share that pacing did not lower before are not the rate's.
    if (ratio <= 2 * this.noiseNow(now) + 0.01) return;
    // While the last cut is judged, only a storm (five answers at least, a third of them 429s)
    // cuts again: a lone 429 right after a cut is no evidence the cut was too small.
    const j = this.judging;
    if (j && (j.ok + j.limited < 5 || j.limited / (j.ok + j.limited) < 0.3)) return;
    const admitted = this.answered.perMs(now, span);
    const current = this.pace;
    // Nothing got through in the span: halve what was sent (a floor of one request in 10 s) — a
    // window a round trip, timed by this 429 where no answer has been timed yet (a bucket emptied
    // by another process: every first answer a 429).
    const roundTripMs = Math.max(1, this.shortMs || now - ticket.sentAt);
    const basis =
      admitted > 0 ? Math.min(current, admitted) : Math.min(current, this.window / roundTripMs) / 2;
    // Judged against the share of 429s over the last 10 s, not the share that set the cut off: a
    // cut comes when that share is high, by chance too, and would then seem to have lowered it.
    const whole = SLOTS * SLOT_MS;
    const early = this.limited.count(now, whole) + this.answered.count(now, whole) < 40;
    this.judging = {
      from: current,
      fromFound: this.foundPerMs,
      ratioBefore: early ? ratio : this.ratio(now, whole),
      early,
      ok: 0,
      limited: 0,
    };
    this.pace = Math.max(1 / 10_000, CUT_SHARE * basis);
    this.foundPerMs = admitted > 0 ? admitted : this.pace;
    this.lastCutAt = now;
    this.lastRaiseAt = now;
    this.nextAt = Math.max(this.nextAt, now + 1 / this.pace);
  }

  /**
   * Whether the last cut helped, once 20 requests sent after it are answered (or five, three
   * seconds on): if the share of
   * 429s stayed about what it was (within a factor of two, and no storm), they are noise — the cut
   * is undone and that share tolerated — else the cut holds.
   */
  private judge(now: number): void {
    const j = this.judging;
    if (!j) return;
    const n = j.ok + j.limited;
    if (n < 20 && !(n >= 5 && now - this.lastCutAt >= JUDGE_AFTER_MS)) return;
    this.judging = null;
    const after = j.limited / (j.ok + j.limited);
    // Fewer 429s: the cut helped. Many more: it was too small (the next cut goes further). A few
    // (under 5%) are the overshoot of probing a limit, too few to be told from noise: the cut holds.
    // Many (over a quarter) are a storm to answer, never noise. An early cut has no share before
    // it to have lowered (a chance streak of 429s in the first answers would seem lowered): only
    // fewer than 5% after it show that it helped.
    const helped = !j.early && (j.ratioBefore >= 0.5 || after < j.ratioBefore / 2);
    if (after < NOISE_FLOOR || after > NOISE_CEILING || helped || after > 2 * j.ratioBefore + 0.05) return;
    this.noise = Math.max(this.noiseNow(now), after);
    this.noiseAt = now;
    this.pace = j.from;
    this.foundPerMs = j.fromFound;
    this.nextAt = now;
  }

  /**
   * While calls succeed, a pace that holds the sender back rises: additively at first (a limit
   * just found is near), then faster the longer no cut came — the gain doubles every
   * `PROBE_DOUBLING_MS` — so a rate found too low (429s that were not the limit's, a sender that
   * was still starting) is left behind in tens of seconds, not hours. A pace the window could never
   * reach is no pace: it is dropped, and with it the limit it stood for.
   */
  private raise(now: number): void {
    if (!Number.isFinite(this.pace) || this.foundPerMs === null) return;
    const dt = Math.min(1000, now - this.lastRaiseAt);
    this.lastRaiseAt = now;
    if (now - this.pacedAt > 1000) return;
    const boost = 2 ** Math.min(PROBE_MAX_DOUBLINGS, (now - this.lastCutAt) / PROBE_DOUBLING_MS);
    this.pace += (PROBE_GAIN_PER_S * boost * this.foundPerMs * dt) / 1000;
    if (this.judging === null && this.shortMs > 0 && this.pace * this.shortMs > 2 * this.ceiling) {
      this.pace = Number.POSITIVE_INFINITY;
      this.foundPerMs = null;
    }
  }

  private latency(ms: number): void {
    this.samples++;
    if (this.samples === 1) {
      this.shortMs = ms;
      this.baselineMs = ms;
      return;
    }
    this.shortMs += SHORT_GAIN * (ms - this.shortMs);
    this.baselineMs += (ms < this.baselineMs ? BASELINE_DOWN : BASELINE_UP) * (ms - this.baselineMs);
  }

  /** Gradient2's step, on an answer that found the window at least half used. */
  private grow(ticket: Ticket): void {
    if (ticket.inFlightAtSend < this.w / 2 || this.shortMs <= 0) return;
    const gradient = Math.max(0.5, Math.min(1, (LATENCY_TOLERANCE * this.baselineMs) / this.shortMs));
    const estimate = this.w * gradient + Math.sqrt(this.w);
    this.w = Math.max(1, Math.min(this.ceiling, this.w * (1 - SMOOTHING) + estimate * SMOOTHING));
  }

  snapshot(now: number): LimiterSnapshot {
    const fresh = this.headersFresh(now);
    const r = fresh ? this.requestsMirror : null;
    const t = fresh ? this.tokensMirror : null;
    const found: LimiterSnapshot["found"] =
      r || t
        ? {
            ...(r ? { requestsPerMinute: r.perMinute } : {}),
            ...(t ? { tokensPerMinute: t.perMinute } : {}),
            source: "headers",
          }
        : this.foundPerMs !== null
          ? { requestsPerMinute: this.foundPerMs * 60_000, source: "429s" }
          : null;
    const pacedPerMinute = !this.adaptive
      ? null
      : r
        ? r.perMinute * HEADER_RATE_SHARE
        : Number.isFinite(this.pace) && !fresh
          ? this.pace * 60_000
          : null;
    return {
      adaptive: this.adaptive,
      inFlight: this.inFlightNow,
      window: this.window,
      ceiling: this.ceiling,
      pacedPerMinute,
      found,
      requests: this.sent,
      throttled: this.throttled,
      latencyMs: this.samples > 0 ? this.shortMs : null,
    };
  }
}
