/**
 * The live run dashboard's state: runner events (progress, finished trials, model retries, errors)
 * folded into counters, and a snapshot of them taken a few times a second for the views. Folding a
 * trial is O(1) and allocation-light because it happens for every trial of a run; everything that
 * costs more (view models, feed lines, rates) waits for the snapshot.
 */
import type { Usage } from "../../../environments/kernel/types.ts";
import { built, type PendingTurn } from "../../../environments/store/live.ts";
import type { EndpointRow } from "../endpoints.ts";
import { type AnyAdapter, adapterFor, type EpisodeModel, episodeModel } from "../records/index.ts";
import { liveLine, liveModel } from "../records/live.ts";
import type { EpisodeSummary, StatsView, TrialRecord } from "../records/types.ts";
import { type UntilView, untilTarget } from "../until.ts";

export interface AgentPlan {
  agent: string;
  /** Trials of this agent this invocation aims to have stored. */
  total: number;
  /** Of those, already stored before it started. */
  storedBefore: number;
}

export interface AgentRow {
  agent: string;
  done: number;
  /** Its trials this invocation aims at; with a stopping rule, at most (`bounded`). */
  total: number;
  /** `total` is an upper bound: a stopping rule (`--until`) may stop the agent sooner. */
  bounded: boolean;
  ranNow: number;
  trialsPerSecond: number;
  etaSeconds: number;
  nonResponses: number;
  errors: number;
  retries: number;
  usage: Usage;
  costUsd: number | null;
}

/** A line of the finished-episode feed (printed once, above the live area). */
export type FeedItem =
  | { id: number; kind: "episode"; summary: EpisodeSummary }
  | { id: number; kind: "more"; count: number };

export interface FeaturedEpisode {
  model: EpisodeModel;
  /** Turns shown so far (the episode plays out step by step). */
  step: number;
  paused: boolean;
}

/** An episode in flight, as the list below the focused one shows it. */
export interface InFlightRow {
  seq: number;
  agent: string;
  turns: number;
  line: string;
  focused: boolean;
}

/** The episode in flight shown up close, turn by turn as its turns arrive. */
export interface FocusedEpisode {
  model: EpisodeModel;
  pinned: boolean;
}

export interface DashboardView {
  runId: string;
  env: string;
  elapsedMs: number;
  /** Episodes in flight long enough to watch (slow agents), oldest first; the focused one up close. */
  inFlight: readonly InFlightRow[];
  /** How many episodes are in flight in all (the list shows the first few). */
  inFlightCount: number;
  focus: FocusedEpisode | null;
  stored: number;
  /** Trials of this invocation stored as failed (missing data: the same command re-runs them). */
  failed: number;
  /** Trials this invocation aims to have stored; with a stopping rule, at most (`bounded`). */
  target: number;
  /** `target` and the ETA are upper bounds: the stopping rule may end the run sooner. */
  bounded: boolean;
  /** The stopping rule (`--until`) as its last look left it; null without one. */
  until: UntilView | null;
  trialsPerSecond: number;
  etaSeconds: number;
  agents: AgentRow[];
  /** The model endpoints of the run's LLM agents and their limiters (none for simulated agents). */
  endpoints: readonly EndpointRow[];
  /** The latest lines of the finished-episode feed (ids increase; a view prints each once). */
  feed: readonly FeedItem[];
  errors: readonly string[];
  errorCount: number;
  featured: FeaturedEpisode | null;
  stats: StatsView | null;
  finished: { interrupted: boolean; failure: string | null } | null;
}

interface AgentAcc extends AgentPlan {
  ranNow: number;
  nonResponses: number;
  errors: number;
  retries: number;
  usage: Usage;
  stats: unknown;
}

/** How the dashboard paces itself; tests pass other values. */
export interface DashboardTiming {
  /** Time between two revealed turns of the featured episode. */
  stepMs: number;
  /** Time a fully shown episode stays before the latest finished one replaces it. */
  holdMs: number;
  /** Feed lines per update of the feed; more finished episodes are counted in one "+N more" line. */
  feedPerFrame: number;
  /**
   * Shortest time between two updates of the feed: each costs the terminal view a second frame
   * (ink's <Static> re-renders to remember what it printed).
   */
  feedMs: number;
  /**
   * An episode in flight this long is worth watching turn by turn (an LLM's); quicker ones (simulated
   * agents, thousands a second) are only counted, and the view replays finished episodes instead.
   */
  watchAfterMs: number;
}

export const DEFAULT_TIMING: DashboardTiming = {
  stepMs: 250,
  holdMs: 1500,
  feedPerFrame: 4,
  feedMs: 1000,
  watchAfterMs: 300,
};

/** Feed lines a snapshot carries: the latest, far more than one snapshot adds. */
const FEED_KEPT = 64;

/** The span of the moving rate (and so of the ETA). */
const RATE_WINDOW_MS = 30_000;

/** The mutable accumulator behind the live view. */
export class DashboardState {
  private readonly adapter: AnyAdapter;
  private readonly agents: AgentAcc[];
  private readonly byName = new Map<string, AgentAcc>();
  private stored = 0;
  private ranNow = 0;
  private elapsedMs = 0;
  private recent: TrialRecord[] = [];
  private sinceSnapshot = 0;
  private feed: FeedItem[] = [];
  private feedId = 0;
  private lastFeed: number;
  private errors: string[] = [];
  private errorCount = 0;
  private failed = 0;
  private latest: { record: TrialRecord; agent: number } | null = null;
  private featured: {
    record: TrialRecord;
    agent: number;
    model: EpisodeModel;
    step: number;
    at: number;
  } | null = null;
  private paused = false;
  private finished: DashboardView["finished"] = null;
  /** Episodes in flight, by seq, in the order they started. */
  private readonly flight = new Map<
    number,
    { agent: number; label: string; startedAt: number; turns: PendingTurn[]; taskIndex: number }
  >();
  private focusSeq: number | null = null;
  private readonly rateSamples: [number, number][] = [];
  private pinned = false;

  readonly runId: string;
  readonly env: string;
  readonly target: number;
  private readonly startedAt: number;
  private readonly costOf: (agent: string, usage: Usage) => number | null;
  private readonly timing: DashboardTiming;
  private readonly taskOf: (seq: number) => unknown;
  private readonly roleNames: Readonly<Record<string, string>> | undefined;
  private readonly endpoints: () => readonly EndpointRow[];
  private readonly until: (() => UntilView) | undefined;

  constructor(o: {
    runId: string;
    env: string;
    /** Trials this invocation aims to have stored. */
    target: number;
    agents: readonly AgentPlan[];
    startedAt: number;
    costOf?: (agent: string, usage: Usage) => number | null;
    timing?: DashboardTiming;
    /** The task of a trial, for views that show what the record only names (a question's text). */
    taskOf?: (seq: number) => unknown;
    /** Who plays the roles records name only by role (a shop's seller negotiators). */
    roleNames?: Readonly<Record<string, string>>;
    /**
     * The limiters of the run's model endpoints, read at each snapshot: they live in the process
     * that calls the models, as the runner's counts do.
     */
    endpoints?: () => readonly EndpointRow[];
    /**
     * The run's stopping rule as its last look left it (`--until`): the totals become bounds and the
     * view says where the targets stand. Read at each snapshot; the rule computes it at its looks.
     */
    until?: () => UntilView;
  }) {
    this.runId = o.runId;
    this.env = o.env;
    this.target = o.target;
    this.startedAt = o.startedAt;
    this.lastFeed = o.startedAt;
    this.costOf = o.costOf ?? (() => null);
    this.timing = o.timing ?? DEFAULT_TIMING;
    this.taskOf = o.taskOf ?? (() => undefined);
    this.roleNames = o.roleNames;
    this.endpoints = o.endpoints ?? (() => []);
    this.until = o.until;
    this.adapter = adapterFor(o.env);
    this.agents = o.agents.map((a) => ({
      ...a,
      ranNow: 0,
      nonResponses: 0,
      errors: 0,
      retries: 0,
      usage: { calls: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0, reasoningTokens: 0, latencyMs: 0 },
      stats: this.adapter.stats.init(),
    }));
    for (const a of this.agents) this.byName.set(a.agent, a);
    this.stored = o.agents.reduce((s, a) => s + a.storedBefore, 0);
  }

  /** An episode started (the runner's `onEpisode`, or a follower's read of the store). */
  episodeStarted(seq: number, agentIndex: number, label: string, startedAt: number): void {
    this.flight.set(seq, { agent: agentIndex, label, startedAt, turns: [], taskIndex: -1 });
  }

  episodeTurn(seq: number, turn: PendingTurn): void {
    this.flight.get(seq)?.turns.push(turn);
  }

  episodeEnded(seq: number): void {
    this.flight.delete(seq);
    if (this.focusSeq === seq) {
      this.focusSeq = null;
      this.pinned = false;
    }
  }

  /** Moves the focus to the next (+1) or previous (−1) episode in flight worth watching. */
  moveFocus(delta: number, now: number): void {
    const seqs = this.watchable(now).map(([seq]) => seq);
    if (seqs.length === 0) return;
    const i = this.focusSeq === null ? -1 : seqs.indexOf(this.focusSeq);
    this.focusSeq = seqs[(((i < 0 ? 0 : i + delta) % seqs.length) + seqs.length) % seqs.length]!;
  }

  /** Pins the focused episode (it stays up close until it ends), or unpins it. */
  togglePin(now: number): void {
    if (this.focusSeq === null) this.moveFocus(0, now);
    if (this.focusSeq !== null) this.pinned = !this.pinned;
  }

  private watchable(
    now: number,
  ): [number, { agent: number; label: string; startedAt: number; turns: PendingTurn[] }][] {
    const out: [number, { agent: number; label: string; startedAt: number; turns: PendingTurn[] }][] = [];
    for (const e of this.flight) if (now - e[1].startedAt >= this.timing.watchAfterMs) out.push(e);
    return out;
  }

  /**
   * Trials a second over the last `RATE_WINDOW_MS` (the whole run while it is shorter): the rate and
   * the ETA follow what the run does now, not its average since the start.
   */
  private movingRate(now: number, seconds: number): number {
    const samples = this.rateSamples;
    samples.push([now, this.ranNow]);
    while (samples.length > 2 && now - samples[1]![0] >= RATE_WINDOW_MS) samples.shift();
    const [t0, n0] = samples[0]!;
    const span = (now - t0) / 1000;
    if (now - t0 < RATE_WINDOW_MS / 4) return seconds > 0 ? this.ranNow / seconds : 0;
    return span > 0 ? (this.ranNow - n0) / span : 0;
  }

  /** A finished trial of the agent at `agentIndex` (in the plan's order). */
  trial(agentIndex: number, record: TrialRecord): void {
    const a = this.agents[agentIndex];
    if (!a) return;
    a.ranNow++;
    this.ranNow++;
    const u = record.usage as Usage | undefined;
    if (u) {
      a.usage.calls += u.calls;
      a.usage.cacheHits += u.cacheHits;
      a.usage.inputTokens += u.inputTokens;
      if (u.cachedInputTokens)
        a.usage.cachedInputTokens = (a.usage.cachedInputTokens ?? 0) + u.cachedInputTokens;
      a.usage.outputTokens += u.outputTokens;
      a.usage.reasoningTokens += u.reasoningTokens;
      a.usage.latencyMs += u.latencyMs;
    }
    this.adapter.stats.add(a.stats, record);
    const status = this.adapter.status(record);
    if (status.nonResponse) a.nonResponses++;
    if (status.error) {
      a.errors++;
      this.error(`#${String(record.seq)} ${a.agent}: ${status.error}`);
    }
    this.latest = { record, agent: agentIndex };
    this.sinceSnapshot++;
    this.recent.push(record);
    if (this.recent.length > this.timing.feedPerFrame) this.recent.shift();
  }

  /** The runner's stored count and clock (its `onProgress`). */
  progress(p: { stored: number; elapsedMs: number; failedNow?: number }): void {
    this.stored = p.stored;
    this.elapsedMs = p.elapsedMs;
    if (p.failedNow !== undefined) this.failed = p.failedNow;
  }

  /** A model call was retried; attributed to the agents whose label names that model. */
  retry(model: string): void {
    const a =
      this.byName.get(model) ??
      this.agents.find((x) => x.agent === model || x.agent.endsWith(`:${model}`)) ??
      this.agents[0];
    if (a) a.retries++;
  }

  error(message: string): void {
    this.errorCount++;
    this.errors.push(message);
    if (this.errors.length > 3) this.errors.shift();
  }

  finish(result: { stored: number; elapsedMs: number; interrupted: boolean }, failure?: string): void {
    this.progress(result);
    if (failure) this.error(failure);
    this.finished = { interrupted: result.interrupted, failure: failure ?? null };
  }

  /** The running-statistics state of the agent at `agentIndex` (for the adapter's `stats.view`). */
  agentStats(agentIndex: number): unknown {
    return this.agents[agentIndex]?.stats;
  }

  togglePause(): void {
    this.paused = !this.paused;
  }

  /** Steps the featured episode by `delta` turns (and pauses it, so the user keeps control). */
  stepFeatured(delta: number): void {
    if (!this.featured) return;
    this.paused = true;
    const steps = this.featured.model.steps;
    this.featured.step = Math.max(0, Math.min(steps, this.featured.step + delta));
  }

  /** Shows the latest finished episode now. */
  jumpToLatest(now: number): void {
    if (this.latest) this.feature(this.latest, now);
  }

  private feature(e: { record: TrialRecord; agent: number }, now: number): void {
    this.featured = {
      ...e,
      model: episodeModel(
        this.roleNames ? { ...e.record, roleNames: this.roleNames } : e.record,
        this.taskOf(Number(e.record.seq)),
      ),
      step: 0,
      at: now,
    };
  }

  /** Plays the featured episode forward, or replaces it with the latest once it has been shown. */
  private advance(now: number): void {
    const f = this.featured;
    if (!f) {
      if (this.latest) this.feature(this.latest, now);
      return;
    }
    if (this.paused) return;
    const steps = f.model.steps;
    if (f.step < steps) {
      const due = Math.floor((now - f.at) / this.timing.stepMs);
      f.step = Math.min(steps, Math.max(f.step, due + 1));
      if (f.step === steps) f.at = now;
    } else if (now - f.at >= this.timing.holdMs && this.latest && this.latest.record !== f.record) {
      this.feature(this.latest, now);
    }
  }

  private drainFeed(now: number): void {
    if (this.sinceSnapshot === 0) return;
    if (now - this.lastFeed < this.timing.feedMs && this.finished === null) return;
    this.lastFeed = now;
    const more = this.sinceSnapshot - this.recent.length;
    if (more > 0) this.feed.push({ id: this.feedId++, kind: "more", count: more });
    for (const r of this.recent)
      this.feed.push({ id: this.feedId++, kind: "episode", summary: this.adapter.summary(r) });
    this.recent = [];
    this.sinceSnapshot = 0;
    // The latest lines only: a view prints each line once, by its id, as the snapshot that added it
    // arrives (a few a snapshot), so a run of any length keeps a few dozen. A fresh array each time,
    // so that a view sees the change.
    this.feed = this.feed.slice(-FEED_KEPT);
  }

  snapshot(now: number): DashboardView {
    this.advance(now);
    this.drainFeed(now);
    const elapsedMs = Math.max(this.elapsedMs, now - this.startedAt);
    const seconds = elapsedMs / 1000;
    const rate = this.movingRate(now, seconds);
    const until = this.until?.() ?? null;
    const agents = this.agents.map((a, i): AgentRow => {
      const aRate = seconds > 0 ? a.ranNow / seconds : 0;
      const done = Math.min(a.total, a.storedBefore + a.ranNow);
      // With a stopping rule, the agent's trials at most: the tasks its targets draw on, or what it
      // stored once it stopped.
      const bound = until?.agents[i];
      const total = bound ? Math.min(a.total, Math.max(done, bound.atMost)) : a.total;
      return {
        agent: a.agent,
        done,
        total,
        bounded: bound?.playing === true && done < total,
        ranNow: a.ranNow,
        trialsPerSecond: aRate,
        etaSeconds: done >= total ? 0 : aRate > 0 ? (total - done) / aRate : Number.NaN,
        nonResponses: a.nonResponses,
        errors: a.errors,
        retries: a.retries,
        usage: { ...a.usage },
        costUsd: this.costOf(a.agent, a.usage),
      };
    });
    const watchable = this.watchable(now);
    if (this.focusSeq !== null && !this.flight.has(this.focusSeq)) this.focusSeq = null;
    if (this.focusSeq === null && watchable.length > 0) this.focusSeq = watchable[0]![0];
    const focused = this.focusSeq === null ? undefined : this.flight.get(this.focusSeq);
    const inFlight = watchable.slice(0, 8).map(([seq, e]) => ({
      seq,
      agent: e.label,
      turns: e.turns.length,
      line: liveLine({ seq, agent: e.label, startedAt: e.startedAt, turns: e.turns.map(built) }, now, 200),
      focused: seq === this.focusSeq,
    }));
    const focus =
      focused && this.focusSeq !== null
        ? {
            model: namedSellers(
              liveModel(
                this.env,
                {
                  seq: this.focusSeq,
                  agent: focused.label,
                  startedAt: focused.startedAt,
                  turns: focused.turns.map(built),
                },
                this.taskOf(this.focusSeq),
              ),
              this.roleNames,
            ),
            pinned: this.pinned,
          }
        : null;
    const f = this.featured;
    const stored = Math.max(
      this.stored,
      Math.min(
        this.target,
        agents.reduce((s, a) => s + a.done, 0),
      ),
    );
    const { target, bounded } = untilTarget(until, this.target, stored);
    return {
      runId: this.runId,
      env: this.env,
      elapsedMs,
      inFlight,
      inFlightCount: this.flight.size,
      focus,
      stored,
      failed: this.failed,
      target,
      bounded,
      until,
      trialsPerSecond: rate,
      etaSeconds: stored >= target ? 0 : rate > 0 ? (target - stored) / rate : Number.NaN,
      agents,
      endpoints: this.endpoints(),
      feed: this.feed,
      errors: [...this.errors],
      errorCount: this.errorCount,
      featured: f ? { model: f.model, step: f.step, paused: this.paused } : null,
      stats: f ? this.adapter.stats.view(this.agents[f.agent]!.stats, f.record) : null,
      finished: this.finished,
    };
  }
}

/**
 * Trials per agent among the first `target` seqs of a run: seqs are task-major, so agent `i` owns
 * replicates [i·r, (i+1)·r) of every block of agents × replicates.
 */
export function trialsPerAgent(target: number, agents: number, replicates: number): number[] {
  const block = agents * replicates;
  const full = Math.floor(target / block);
  const rest = target - full * block;
  return Array.from(
    { length: agents },
    (_, i) => full * replicates + Math.max(0, Math.min(replicates, rest - i * replicates)),
  );
}

/** An episode in flight with its negotiations' sellers named as the run names them (`rule:boulware (seller-1)`). */
function namedSellers(
  model: EpisodeModel,
  roleNames: Readonly<Record<string, string>> | undefined,
): EpisodeModel {
  const m = model as EpisodeModel & { negotiations?: { seller: string }[] | null };
  if (!roleNames || !m.negotiations) return model;
  return {
    ...m,
    negotiations: m.negotiations.map((n) =>
      roleNames[n.seller] ? { ...n, seller: `${roleNames[n.seller]} (${n.seller})` } : n,
    ),
  } as EpisodeModel;
}
