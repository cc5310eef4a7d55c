/**
 * What both live views share — the view's interface and options, and the dashboard state they fold
 * the runner's callbacks into — so the plain view (`run-view.ts`) and the ink view (`ink-view.ts`,
 * loaded only on a terminal) each depend on this, not on each other.
 */
import type { Usage } from "../../../environments/kernel/types.ts";
import type { EpisodeListener, RunProgress, RunResult } from "../../../environments/runner/execute.ts";
import { coordinates, type RunPlan } from "../../../environments/runner/plan.ts";

/**
 * What a live view needs of a run: a plan being run here, or a run another process is running
 * (`bazaar watch --follow`), described from the store.
 */
export interface WatchedPlan {
  runId: string;
  env: Pick<RunPlan["env"], "name">;
  agents: readonly { label: string }[];
  replicates: number;
  /** The tasks by task index (the live views show what an episode was about). */
  tasks: readonly unknown[];
  /** The run's identity (its design names who plays roles that records name only by role). */
  config?: unknown;
}

import type { EndpointRow } from "../endpoints.ts";
import { roleNamesOf } from "../records/roles.ts";
import type { TrialRecord } from "../records/types.ts";
import { DashboardState, type DashboardTiming, trialsPerAgent } from "../state/dashboard.ts";
import type { UntilView } from "../until.ts";

export interface RunView {
  onProgress(p: RunProgress): void;
  onTrial(record: TrialRecord): void;
  /** The runner's episode events (start, each turn, end), for episodes in flight. */
  episodes: EpisodeListener;
  retry(model: string): void;
  error(message: string): void;
  /** Shows the final state and gives the terminal back; `failure` when the run threw. */
  finish(result: RunResult | null, failure?: unknown): Promise<void>;
  /** Frames drawn and the time spent drawing them (the dashboard; zero for plain lines). */
  drawn(): { frames: number; ms: number };
}

export interface RunViewOptions {
  plan: WatchedPlan;
  /** Trials this invocation aims to have stored (the run or its `--limit` prefix). */
  target: number;
  /** Trials already stored per agent label. */
  storedByAgent: ReadonlyMap<string, number>;
  /** Where the dashboard draws; its `isTTY` picks the dashboard or the plain lines. */
  stdout: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  /** Plain lines go here (stderr by default), so standard output keeps only the summary. */
  log: (line: string) => void;
  costOf?: (agent: string, usage: Usage) => number | null;
  /** The limiters of the run's model endpoints (this process's: `endpointsOfRun`), polled by the view. */
  endpoints?: () => readonly EndpointRow[];
  /**
   * The run's stopping rule (`--until`) as its last look left it (cli/run/until-rule.ts, `live`):
   * `target` is then only the design's bound, and the views say so and where the targets stand.
   */
  until?: () => UntilView;
  /** The user asked to stop (q or ctrl-c in the dashboard). */
  onStop: () => void;
  /** Snapshot interval of the dashboard. */
  refreshMs?: number;
  timing?: DashboardTiming;
  now?: () => number;
}

export function dashboardState(o: RunViewOptions, now: number): DashboardState {
  const roleNames = roleNamesOf(o.plan.config);
  const totals = trialsPerAgent(o.target, o.plan.agents.length, o.plan.replicates);
  return new DashboardState({
    runId: o.plan.runId,
    env: o.plan.env.name,
    target: o.target,
    agents: o.plan.agents.map((a, i) => ({
      agent: a.label,
      total: totals[i] ?? 0,
      storedBefore: Math.min(totals[i] ?? 0, o.storedByAgent.get(a.label) ?? 0),
    })),
    startedAt: now,
    costOf: o.costOf,
    ...(o.endpoints ? { endpoints: o.endpoints } : {}),
    ...(o.until ? { until: o.until } : {}),
    timing: o.timing,
    taskOf: (seq) => o.plan.tasks[coordinates(o.plan, seq).taskIndex],
    ...(roleNames ? { roleNames } : {}),
  });
}

/** The runner's episode events folded into the dashboard state. */
export function episodeEvents(state: DashboardState, now: () => number): EpisodeListener {
  return {
    started: (e) => state.episodeStarted(e.seq, e.agentIndex, e.agent, e.at ?? now()),
    turn: (seq, t) => state.episodeTurn(seq, t),
    ended: (seq) => state.episodeEnded(seq),
  };
}

/** `coordinates(plan, seq).agentIndex` without building the coordinates (called for every trial). */
export function agentIndexOf(plan: WatchedPlan, record: TrialRecord): number {
  return Math.floor(Number(record.seq) / plan.replicates) % plan.agents.length;
}
