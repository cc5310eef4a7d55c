/**
 * `bazaar watch <run> --follow`: a run that another process (or machine, over a shared store) is
 * running, watched live from the store — its episodes in flight turn by turn (the live log,
 * environments/store/live.ts) and its finished trials — until every runner of the run has ended.
 * SQLite in WAL mode lets this reader poll while the runner writes, without blocking it.
 */

import { trialRecordsAt } from "../../../environments/runner/records.ts";
import type { RunSummary, Store } from "../../../environments/store/index.ts";
import { type LiveEpisode, liveEpisodes, runIsActive, runnersOf } from "../../../environments/store/live.ts";
import { count } from "../format.ts";
import { plainSummary } from "../plain.ts";
import { episodeSummary } from "../records/index.ts";
import { turnText } from "../records/live.ts";
import { startRunView } from "./run-view.ts";
import type { RunView, WatchedPlan } from "./view.ts";

export interface FollowOptions {
  stdout: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  /** Plain lines (no terminal), and the closing line. */
  log: (line: string) => void;
  /** Time between two reads of the store. */
  pollMs?: number;
  signal?: AbortSignal;
}

/** The run as a live view sees a plan, rebuilt from the store (labels, replicates, tasks). */
export function watchedPlan(store: Store, run: RunSummary): WatchedPlan {
  const config = run.config as { replicates?: unknown };
  return {
    runId: run.id,
    env: { name: run.env },
    agents: run.agents.map((label) => ({ label })),
    replicates: typeof config.replicates === "number" ? config.replicates : 1,
    tasks: store.runTasks(run.id),
    config: run.config,
  };
}

/** Waits `ms`, or less when the signal fires; its listener goes either way (a follower polls for hours). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Follows the run until it ends (or `signal` stops the follower; the run goes on). Returns how the
 * run ended, as its runners said.
 */
export async function followRun(store: Store, run: RunSummary, o: FollowOptions): Promise<string> {
  const plan = watchedPlan(store, run);
  const tty = o.stdout.isTTY === true;
  const started = Date.now();
  const stop = new AbortController();
  o.signal?.addEventListener("abort", () => stop.abort(), { once: true });
  let done = store.doneSeqs(run.id, run.total);
  let stored = done.reduce((a, b) => a + b, 0);
  const view: RunView | null = tty
    ? await startRunView({
        plan,
        target: run.total,
        storedByAgent: new Map(store.usageByAgent(run.id).map((a) => [a.agent, a.trials])),
        stdout: o.stdout,
        stdin: o.stdin,
        log: o.log,
        onStop: () => stop.abort(),
      })
    : null;
  if (!tty)
    o.log(`following run ${run.id} (${run.env}): ${count(stored)} of ${count(run.total)} trials stored`);
  const known = new Map<number, number>(); // seq → turns already shown
  let ranNow = 0;
  let active = true;
  let status = "running";
  for (;;) {
    // Finished trials since the last read.
    const now = store.doneSeqs(run.id, run.total);
    const fresh: number[] = [];
    for (let i = 0; i < now.length; i++) if (now[i] === 1 && done[i] === 0) fresh.push(i);
    done = now;
    for (const record of trialRecordsAt(store, run.id, fresh)) {
      ranNow++;
      stored++;
      if (view) view.onTrial(record);
      else o.log(plainSummary(episodeSummary(record)));
    }
    // Episodes in flight: new ones, new turns, and those that ended.
    const flying: LiveEpisode[] = liveEpisodes(store, run.id);
    const seen = new Set<number>();
    for (const e of flying) {
      seen.add(e.seq);
      let shown = known.get(e.seq);
      if (shown === undefined) {
        shown = 0;
        view?.episodes.started({
          seq: e.seq,
          trialKey: "",
          agent: e.agent,
          agentIndex: Math.max(0, run.agents.indexOf(e.agent)),
          taskIndex: -1,
          at: e.startedAt,
        });
      }
      // In turn order: the store's query orders by its JSON text (turn 10 before turn 2), and an
      // episode's turns are replayed through its rules in order.
      const turns = [...e.turns].sort((a, b) => a.turn - b.turn);
      for (const t of turns.slice(shown)) {
        if (view) view.episodes.turn(e.seq, t);
        else o.log(`#${e.seq} ${e.agent} · turn ${t.turn} · ${turnText(t, 160)}`);
      }
      known.set(e.seq, turns.length);
    }
    for (const seq of [...known.keys()])
      if (!seen.has(seq)) {
        known.delete(seq);
        view?.episodes.ended(seq, done[seq] === 1 ? "stored" : "dropped");
      }
    view?.onProgress({
      runId: run.id,
      stored,
      target: run.total,
      ranNow,
      nonResponsesNow: 0,
      cutAtCapNow: 0,
      failedNow: store.failedCount(run.id),
      elapsedMs: Date.now() - started,
    });
    const runners = runnersOf(store, run.id);
    active = runIsActive(runners);
    if (!active) {
      status = runners.at(-1)?.status ?? "not running";
      break;
    }
    if (stop.signal.aborted) break;
    await sleep(o.pollMs ?? 250, stop.signal);
  }
  const interrupted = known.size;
  const line = !active
    ? `run ${run.id} ${status === "running" ? "stopped without a word from its runner (killed?)" : status}: ${count(stored)} of ${count(run.total)} trials stored${interrupted > 0 ? `, ${interrupted} episode${interrupted === 1 ? "" : "s"} interrupted (shown where they stopped)` : ""}`
    : `stopped following run ${run.id} (it goes on)`;
  await view?.finish({
    runId: run.id,
    stored,
    target: run.total,
    ranNow,
    nonResponsesNow: 0,
    cutAtCapNow: 0,
    failedNow: 0,
    elapsedMs: Date.now() - started,
    interrupted: active || stored < run.total,
    failed: store.failedCount(run.id),
    byOthers: 0,
    otherRunners: 0,
  });
  o.log(line);
  return active ? "following stopped" : status;
}
