import { setMaxListeners } from "node:events";
import { EpisodeFailed, type EpisodeObserver, runEpisode, type TurnEvent } from "../kernel/episode.ts";
import { UserError } from "../kernel/errors.ts";
import type { FailureRecord } from "../kernel/failures.ts";
import { createRng } from "../kernel/rng.ts";
import type { HostAgents } from "../kernel/types.ts";
import type { FailedTrial, Store, StoredTrial } from "../store/index.ts";
import { blockOf, LEASE_BLOCK, TrialLeases } from "../store/leases.ts";
import { type LiveTurn, type PendingTurn, runnerName, runnersOf, TurnLog } from "../store/live.ts";
import { coordinates, type RunPlan, TrialKeys } from "./plan.ts";

export interface RunProgress {
  runId: string;
  /** Trials of the run stored so far (earlier sessions included). */
  stored: number;
  /** Trials this invocation aims to have stored (the whole run, or the `--limit` prefix). */
  target: number;
  /** Trials finished by this invocation. */
  ranNow: number;
  nonResponsesNow: number;
  /** Of those, the ones whose answer was cut at the output cap (`finish_reason` "length"). */
  cutAtCapNow: number;
  /**
   * Trials of this invocation whose agent could not act (infrastructure, after every retry): stored
   * as failed, not among `stored`, run again by the same command.
   */
  failedNow: number;
  elapsedMs: number;
}

/** A live view's side of the runner: episodes as they start, act and end. */
export interface EpisodeListener {
  started(e: {
    seq: number;
    trialKey: string;
    agent: string;
    agentIndex: number;
    taskIndex: number;
    /** When it started (milliseconds since the epoch), where that is not now (a follower's). */
    at?: number;
  }): void;
  /**
   * A turn: as a function that builds it, because a view shows few of the turns it hears of and
   * building each (its summary renders the environment's messages) would cost every run it watches.
   */
  turn(seq: number, turn: PendingTurn): void;
  /**
   * The episode is over: `stored`, its trial is finished and goes into the next write (a follower
   * reading the store sees it then); `failed`, it goes in as failed; `dropped`, cut short by a stop.
   */
  ended(seq: number, how: "stored" | "failed" | "dropped"): void;
}

function liveTurn(e: TurnEvent, at: number): LiveTurn {
  return {
    turn: e.turn,
    role: e.role,
    action: e.action,
    summary: turnSummary(e),
    ...(e.error !== undefined ? { error: e.error } : {}),
    ...(e.usage ? { usage: e.usage } : {}),
    at,
  };
}

/** What a turn said, in short: the environment's last message to the agent, first line. */
function turnSummary(e: TurnEvent): string {
  const messages = e.observation.messages;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "assistant") continue;
    // The first non-blank line, found without splitting a long prompt into all of its lines.
    const c = m.content;
    let line = "";
    for (let from = 0; from <= c.length; ) {
      const nl = c.indexOf("\n", from);
      const end = nl < 0 ? c.length : nl;
      line = c.slice(from, end).trim();
      if (line !== "" || nl < 0) break;
      from = nl + 1;
    }
    return line.length > 160 ? `${line.slice(0, 159)}…` : line;
  }
  return "";
}

export interface RunResult extends RunProgress {
  /** True when a signal stopped the run before the target was reached. */
  interrupted: boolean;
  /** Trials of the target that other runners of the same run stored while this one ran. */
  byOthers: number;
  /** Other processes that ran the run on the same store while this one did. */
  otherRunners: number;
  /** Failed trials of the run in the store after this invocation (this one's and earlier ones' still failed). */
  failed: number;
}

/**
 * The run stopped because its configuration is wrong (a rejected key, an unknown model): every
 * finished trial is stored, the ones in flight are dropped, and the same command resumes it once the
 * configuration is fixed.
 */
export class RunStopped extends UserError {
  constructor(
    readonly failure: FailureRecord,
    readonly progress: RunProgress,
  ) {
    super(
      failure.message,
      `${failure.hint ? `${failure.hint}; ` : ""}the run stopped with ${progress.stored.toLocaleString("en-US")} of ${progress.target.toLocaleString("en-US")} trials stored — run the same command again once it is fixed`,
    );
  }
}

export interface ExecuteOptions {
  /** Run only trials with seq < limit (a quick try); the rest stay for a later invocation. */
  limit?: number;
  /**
   * Run only these trials (of those below `limit`): a block of a run that stops itself
   * (sequential.ts). Trials keep their seqs and keys, so a later invocation finds them stored.
   */
  seqs?: readonly number[];
  concurrency: number;
  signal?: AbortSignal;
  onProgress?: (p: RunProgress) => void;
  /** Called with every trial record as it is finished (before it is stored), e.g. for a live view. */
  onTrial?: (record: Record<string, unknown>) => void;
  /** Trials per transaction; smaller batches lose less work to a kill, larger ones write faster. */
  batchSize?: number;
  /** Longest time a finished trial waits in memory before it is written. */
  flushMs?: number;
  /**
   * Told when each episode starts, of each of its turns, and when it ends (a live view). Without it
   * (and without `liveTurns`) episodes run with no per-turn work at all.
   */
  onEpisode?: EpisodeListener;
  /**
   * Keep the turns of episodes in flight, and this runner's heartbeat, in the store (`live.ts`), for
   * `bazaar watch --follow` and for after a crash. Default true.
   */
  liveTurns?: boolean;
  /**
   * Where the agents take their turns (absent: in this thread). The CLI's `--workers` moves LLM
   * turns into worker threads (`agents/llm/host.ts`); episodes and the store stay here.
   */
  hostAgents?: HostAgents;
  /**
   * How long a lease on a block of trials lives unless renewed (`leases.ts`): how soon the trials
   * of a killed runner go to the others. Default one minute.
   */
  leaseMs?: number;
  /**
   * Waits until a trial may start (an outside agent is waiting for one: `bazaar serve`), before its
   * lease is claimed, so that nothing is held for agents that are not there. Resolves with what undoes
   * the admission when no trial was left to start, or null when no more trials should start.
   */
  admit?: (signal: AbortSignal) => Promise<(() => void) | null>;
  /**
   * This runner's name in the store (its leases, its live log; `runnerName()` by default). One
   * process's passes over a run (`bazaar serve` playing failed trials again) share one, so a pass
   * does not count the one before it as another runner.
   */
  runner?: string;
}

/**
 * Runs every trial of a plan that the store does not hold yet, through a bounded pool of workers,
 * writing finished trials in batched transactions. Killing the process loses at most the unwritten
 * batch, and running the same plan again does exactly the missing trials. Trials are taken in leased
 * blocks, so any number of processes running the same plan on the same store share its trials: each
 * runs the blocks it holds, waits while others hold the rest, and takes over those of a runner whose
 * leases ran out.
 */
export async function executeRun(plan: RunPlan, store: Store, opts: ExecuteOptions): Promise<RunResult> {
  const started = Date.now();
  // A configuration failure stops every trial in flight, as the user's own signal does.
  const stop = new AbortController();
  const onUserAbort = () => stop.abort(opts.signal?.reason);
  if (opts.signal?.aborted) onUserAbort();
  opts.signal?.addEventListener("abort", onUserAbort, { once: true });
  // Every trial in flight listens to the one run signal (LLM calls abort on it): no listener cap.
  setMaxListeners(0, stop.signal);
  const signal = stop.signal;
  const below = Math.min(plan.total, opts.limit ?? plan.total);
  store.ensureRun({ id: plan.runId, env: plan.env.name, config: plan.config, total: plan.total }, plan.tasks);
  const done = store.doneSeqs(plan.runId, plan.total);
  let stored = 0;
  for (let i = 0; i < plan.total; i++) stored += done[i]!;
  // Which seqs this invocation may run: the `--limit` prefix, or the given block within it.
  const wanted = wantedSeqs(opts.seqs, below, plan.total);
  const wants = (seq: number) => seq < below && (wanted === null || wanted[seq] === 1);
  // Leases cover the seqs up to the last one wanted.
  const leaseTarget = wanted === null ? below : wanted.lastIndexOf(1) + 1;

  const keys = new TrialKeys(plan);
  let toRun = 0;
  for (let i = 0; i < leaseTarget; i++) if (wants(i)) toRun += 1 - done[i]!;
  // What this invocation aims to have stored: the whole run or its prefix; with a block, what is
  // stored now and the block's missing trials.
  const target = opts.seqs ? stored + toRun : below;
  const host = opts.hostAgents
    ? await opts.hostAgents(plan.agents, { trials: toRun, concurrency: opts.concurrency, signal })
    : null;
  const agents = host?.agents ?? plan.agents;
  const batchSize = opts.batchSize ?? 512;
  const flushMs = opts.flushMs ?? 200;
  let buffer: StoredTrial[] = [];
  let failedBuffer: FailedTrial[] = [];
  let lastFlush = Date.now();
  let ranNow = 0;
  let nonResponsesNow = 0;
  let cutAtCapNow = 0;
  let failedNow = 0;
  let failure: unknown;
  let stoppedBy: FailureRecord | null = null;

  const progress = (): RunProgress => ({
    runId: plan.runId,
    stored,
    target,
    ranNow,
    nonResponsesNow,
    cutAtCapNow,
    failedNow,
    elapsedMs: Date.now() - started,
  });
  const runner = opts.runner ?? runnerName();
  const log = opts.liveTurns === false ? null : new TurnLog(store, plan.runId, runner);
  const leases = new TrialLeases(store, plan.runId, runner, leaseTarget, opts.leaseMs);
  for (let b = 0; b < leases.blocks; b++) {
    let all = true;
    for (let seq = b * LEASE_BLOCK, end = Math.min(leaseTarget, seq + LEASE_BLOCK); seq < end && all; seq++)
      all = done[seq] === 1 || !wants(seq);
    if (all) leases.skip(b);
  }
  // Trials of each held block not yet finished; blocks whose every trial is in the buffers, whose
  // leases go once those are written.
  const unfinished = new Map<number, number>();
  let blocksDue: number[] = [];
  const finished = (seq: number) => {
    const b = blockOf(seq);
    const left = (unfinished.get(b) ?? 1) - 1;
    if (left > 0) unfinished.set(b, left);
    else {
      unfinished.delete(b);
      blocksDue.push(b);
    }
  };
  const listener = opts.onEpisode;
  const watched = log !== null || listener !== undefined;
  // Trials whose episode ended and whose end the log hears of once they are stored (its rows go
  // only when the trial holds the episode). The listener hears at once: a live view has no use for
  // an episode whose trial is written within the flush interval, and keeping its turns that long
  // for thousands of short episodes costs more in garbage collection than the view itself.
  let endedBuffer: number[] = [];
  const flush = () => {
    if (buffer.length > 0 || failedBuffer.length > 0) {
      store.writeTrials(buffer, failedBuffer);
      stored += buffer.length;
      buffer = [];
      failedBuffer = [];
      lastFlush = Date.now();
      for (const seq of endedBuffer) log?.ended(seq);
      endedBuffer = [];
      opts.onProgress?.(progress());
    }
    for (const b of blocksDue) leases.done(b);
    blocksDue = [];
    leases.renew();
    log?.flush();
  };
  // A store that fails (a server gone) stops the run like any other failure: the workers see it at
  // their next trial, and nothing escapes the timer as an uncaught error.
  const timer = setInterval(() => {
    try {
      flush();
    } catch (err) {
      if (failure === undefined) failure = err;
    }
  }, flushMs);
  timer.unref();

  // The seqs of the blocks this runner holds, in order; refilled by a claim when used up.
  let queue: number[] = [];
  let next = 0;
  const claim = async (): Promise<number> => {
    for (;;) {
      if (next < queue.length) return queue[next++]!;
      if (signal.aborted || failure !== undefined) return -1;
      const c = leases.claim();
      if (c === null) return -1;
      if ("seqs" in c) {
        queue = wanted === null ? c.seqs : c.seqs.filter(wants);
        next = 0;
        // A block holding none of this invocation's trials (only others of the run) goes at once.
        if (queue.length === 0) leases.done(c.block);
        else unfinished.set(c.block, queue.length);
        continue;
      }
      // Every block left is held by other runners: wait for one to finish (its trials are then
      // stored) or to go silent (its lease runs out and the block is ours to take).
      await pause(Math.max(5, Math.min(250, c.nextExpiry - Date.now() + 1)), signal);
    }
  };

  // Admission (`opts.admit`) waits for an outside agent before a trial is claimed. Once one worker
  // finds nothing left to claim, the others stop waiting for agents that no trial would serve.
  const admission = new AbortController();
  setMaxListeners(0, admission.signal);
  signal.addEventListener("abort", () => admission.abort(), { once: true });
  const admitted = async (): Promise<number> => {
    if (!opts.admit) return claim();
    if (next >= queue.length && leases.exhausted()) {
      admission.abort();
      return -1;
    }
    const undo = await opts.admit(admission.signal);
    if (undo === null) return -1;
    const seq = await claim();
    if (seq < 0) {
      undo();
      admission.abort();
    }
    return seq;
  };

  const worker = async () => {
    let sinceYield = 0;
    for (let seq = await admitted(); seq >= 0; seq = await admitted()) {
      // Simulated agents answer synchronously, so without this a worker would never leave the
      // microtask queue: no timer, no signal (Ctrl-C) and no I/O would run until the end.
      if (++sinceYield >= 64) {
        sinceYield = 0;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      if (signal.aborted || failure !== undefined) return;
      const c = coordinates(plan, seq);
      const task = plan.tasks[c.taskIndex]!;
      const entry = agents[c.agentIndex]!;
      const trialKey = keys.key(c);
      let observer: EpisodeObserver | undefined;
      if (watched) {
        log?.started(seq, entry.label);
        listener?.started({
          seq,
          trialKey,
          agent: entry.label,
          agentIndex: c.agentIndex,
          taskIndex: c.taskIndex,
        });
        observer = {
          // The log writes, and a view shows, only the turns of episodes that last: each turn is
          // built when one of them asks for it, once.
          onTurn: (e) => {
            const at = Date.now();
            let built: LiveTurn | undefined;
            const t = () => {
              built ??= liveTurn(e, at);
              return built;
            };
            log?.turn(seq, t);
            listener?.turn(seq, t);
          },
        };
      }
      const dropped = () => {
        log?.ended(seq, true);
        listener?.ended(seq, "dropped");
      };
      let episode: Awaited<ReturnType<typeof runEpisode>>;
      try {
        episode = await runEpisode(
          plan.env.machine,
          plan.env.input(task, plan.settings),
          entry.players,
          { rng: createRng(keys.seed(c)), signal, trialKey, replicate: c.replicate },
          observer,
        );
      } catch (err) {
        if (!(err instanceof EpisodeFailed) || signal.aborted || err.failure.kind === "configuration") {
          if (watched) dropped();
        } else if (watched) {
          endedBuffer.push(seq);
          listener?.ended(seq, "failed");
        }
        if (!(err instanceof EpisodeFailed) || signal.aborted) throw err;
        if (err.failure.kind === "configuration") {
          // No other trial can succeed either: stop them all, keep what finished.
          stoppedBy ??= err.failure;
          stop.abort(err);
          return;
        }
        failedBuffer.push({
          runId: plan.runId,
          seq,
          trialKey,
          agent: entry.label,
          taskIndex: c.taskIndex,
          replicate: c.replicate,
          failure: err.failure,
          turns: err.turns,
          usage: err.usage,
        });
        failedNow++;
        log?.settled(seq);
        finished(seq);
        if (failedBuffer.length >= batchSize || Date.now() - lastFlush >= flushMs) flush();
        continue;
      }
      // A trial cut short by the signal is not a result: drop it so the resumed run redoes it.
      if (signal.aborted) {
        if (watched) dropped();
        return;
      }
      // Nor is one whose agent's worker died: the run fails instead of recording non-responses.
      const broken = host?.failure();
      if (broken) throw broken;
      const { usage, agentErrors } = episode;
      const nonResponse = plan.env.isNonResponse(episode.output);
      // An answer cut at the output cap and then unusable: the reason says so (raise the cap).
      const output =
        nonResponse && episode.cutAt !== undefined
          ? plan.env.noteNonResponse(episode.output, cutNote(episode.cutAt))
          : episode.output;
      if (opts.onTrial) {
        opts.onTrial(
          plan.env.record({
            run: plan.runId,
            trialKey,
            seq,
            agent: entry.label,
            replicate: c.replicate,
            task,
            outcome: output,
            usage,
          }),
        );
      }
      buffer.push({
        runId: plan.runId,
        seq,
        trialKey,
        agent: entry.label,
        taskIndex: c.taskIndex,
        replicate: c.replicate,
        nonResponse,
        agentError: agentErrors > 0,
        resultJson: JSON.stringify({ outcome: output, usage }),
      });
      ranNow++;
      if (nonResponse) nonResponsesNow++;
      if (nonResponse && episode.cutAt !== undefined) cutAtCapNow++;
      if (watched) {
        endedBuffer.push(seq);
        listener?.ended(seq, "stored");
      }
      log?.settled(seq);
      finished(seq);
      if (buffer.length >= batchSize || Date.now() - lastFlush >= flushMs) flush();
    }
  };

  const workers = Array.from({ length: Math.max(1, opts.concurrency) }, () =>
    worker().catch((err: unknown) => {
      if (failure === undefined && !signal.aborted) failure = err;
    }),
  );
  try {
    await Promise.all(workers);
  } finally {
    clearInterval(timer);
    opts.signal?.removeEventListener("abort", onUserAbort);
    await host?.close();
    // Each step on its own: a store that failed fails the first, and the others are then moot.
    const settle = (step: () => void) => {
      try {
        step();
      } catch (err) {
        if (failure === undefined) failure = err;
      }
    };
    settle(flush);
    // What this runner still holds (cut short by a stop or a failure) is the others' at once.
    settle(() => leases.end());
    settle(() =>
      log?.end(
        failure !== undefined
          ? "failed"
          : stoppedBy
            ? "stopped"
            : opts.signal?.aborted
              ? "interrupted"
              : "finished",
      ),
    );
  }
  if (failure !== undefined) throw failure;
  // Other runners stored trials too: the run's count is the store's, not this runner's tally.
  const mine = stored;
  const now = store.doneSeqs(plan.runId, plan.total);
  stored = 0;
  for (let i = 0; i < plan.total; i++) stored += now[i]!;
  if (stoppedBy) throw new RunStopped(stoppedBy, progress());
  const others = runnersOf(store, plan.runId).filter((r) => r.runner !== runner && r.heartbeatAt >= started);
  return {
    ...progress(),
    interrupted: stored < target && opts.signal?.aborted === true,
    failed: store.failedCount(plan.runId),
    byOthers: stored - mine,
    // Runners alive during this one, or at least one when trials appeared that this one did not
    // write; a runner whose leases this one waited out, dead before it started, is neither.
    otherRunners: Math.max(others.length, stored > mine ? 1 : 0),
  };
}

/** A bitmap of the given seqs (null: every seq), each checked to be a trial of the run. */
function wantedSeqs(seqs: readonly number[] | undefined, below: number, total: number): Uint8Array | null {
  if (seqs === undefined) return null;
  const wanted = new Uint8Array(below);
  for (const seq of seqs) {
    if (!(Number.isInteger(seq) && seq >= 0 && seq < total))
      throw new RangeError(`executeRun: seq ${seq} is not a trial of a run of ${total}`);
    if (seq < below) wanted[seq] = 1;
  }
  return wanted;
}

/** What a non-response's reason starts with when the answer that failed was cut at the cap. */
function cutNote(cap: number | null): string {
  return cap === null
    ? "cut by the server's length limit (no output cap sent)"
    : `cut at the output cap (${cap} tokens; --max-tokens raises it)`;
}

/** Waits `ms`, or less when the signal fires. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
