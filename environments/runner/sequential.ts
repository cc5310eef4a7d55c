/**
 * A run that stops itself: the design's counterbalanced units in a seeded order, played in blocks;
 * after each block every agent still playing is looked at, and one whose targets hold plays no more.
 * The decision is the caller's (`look`): the runner imports no analysis, so the CLI wires the
 * estimators in. Each block is an ordinary `executeRun` over the block's trials, so trial keys,
 * leases, resume and batches work as in any run, and the trials a block stores are the ones any run
 * of the design would store under the same seqs and keys.
 *
 * Replaying is free: a block whose trials are stored already is looked at without running anything.
 * That is how a run stopped at ±1.0 extends to ±0.6 — the same looks on the same trials make the same
 * decisions up to where ±1.0 stopped (a tighter target holds no earlier), and the run goes on from
 * there — and how a killed run resumes.
 */
import { type ExecuteOptions, executeRun, type RunProgress, type RunResult } from "./execute.ts";
import type { RunPlan } from "./plan.ts";
import { lookPoints, unitOrder } from "./units.ts";

export interface StopRule {
  /** The design's counterbalanced units: the task indices of each (units.ts, `designUnits`). */
  units: readonly (readonly number[])[];
  /** Seed of the units' play order (the run's id: every invocation of the run plays the same order). */
  orderSeed: string;
  /** Whether a task is played at all: one that informs no target is not. */
  plays(taskIndex: number): boolean;
  /**
   * An agent still playing, after a look: `seqs` are its trials of the block just played (stored or
   * not: the caller reads the stored ones). True when its targets hold and it plays no more.
   */
  look(agentIndex: number, seqs: readonly number[], look: number): boolean;
  /** Told as each look is decided (a progress line, the live view). */
  onLook?(look: number, of: number, playing: readonly boolean[]): void;
}

export interface AgentStop {
  /** The look (0-based) after which its targets held; null when they never did. */
  stoppedAt: number | null;
  /** Units it played, of the units its targets draw on. */
  unitsPlayed: number;
  units: number;
  /** Its trials in the blocks it played (what the rule asked for), and of those, the ones stored. */
  trialsPlayed: number;
  trialsStored: number;
  /** Its trials in the whole design (tasks × replicates). */
  designTrials: number;
}

export interface SequentialResult extends RunResult {
  /** Looks made, of the looks the design has. */
  looks: number;
  lookCount: number;
  /** Per agent, in the plan's order. */
  agents: AgentStop[];
}

type Counts = Pick<RunProgress, "ranNow" | "nonResponsesNow" | "cutAtCapNow" | "failedNow">;

/** An agent's trials of a block: each task's replicates, at the seqs the plan gives them. */
function blockSeqs(plan: RunPlan, block: readonly (readonly number[])[], agent: number): number[] {
  const a = plan.agents.length;
  const r = plan.replicates;
  const seqs: number[] = [];
  for (const tasks of block)
    for (const t of tasks) for (let j = 0; j < r; j++) seqs.push((t * a + agent) * r + j);
  return seqs;
}

/**
 * After a block: each agent still playing is credited its block and looked at; one whose rule says
 * so stops. Trials stored are read from the store, so a block replayed from an earlier invocation
 * counts as one played now.
 */
function lookAtBlock(
  plan: RunPlan,
  store: Parameters<typeof executeRun>[1],
  rule: StopRule,
  k: number,
  at: number,
  seqs: readonly number[][],
  playing: boolean[],
  agents: AgentStop[],
): void {
  const now = store.doneSeqs(plan.runId, plan.total);
  for (let i = 0; i < plan.agents.length; i++) {
    if (!playing[i]) continue;
    const agent = agents[i]!;
    agent.unitsPlayed = at;
    agent.trialsPlayed += seqs[i]!.length;
    for (const s of seqs[i]!) agent.trialsStored += now[s]!;
    if (rule.look(i, seqs[i]!, k)) {
      playing[i] = false;
      agent.stoppedAt = k;
    }
  }
}

/** Runs a plan's units in blocks until every agent's targets hold or the design is exhausted. */
export async function executeSequential(
  plan: RunPlan,
  store: Parameters<typeof executeRun>[1],
  opts: ExecuteOptions,
  rule: StopRule,
): Promise<SequentialResult> {
  if (opts.limit !== undefined || opts.seqs !== undefined)
    throw new RangeError("executeSequential plays its own blocks: no limit or seqs");
  const started = Date.now();
  const played = unitOrder(rule.units.length, rule.orderSeed)
    .map((u) => rule.units[u]!.filter((t) => rule.plays(t)))
    .filter((tasks) => tasks.length > 0);
  const looks = lookPoints(played.length);
  const playing = plan.agents.map(() => true);
  const agents: AgentStop[] = plan.agents.map(() => ({
    stoppedAt: null,
    unitsPlayed: 0,
    units: played.length,
    trialsPlayed: 0,
    trialsStored: 0,
    designTrials: plan.tasks.length * plan.replicates,
  }));
  // Counts of earlier blocks, added to each block's own so that progress reads as one run's.
  const sum: Counts = { ranNow: 0, nonResponsesNow: 0, cutAtCapNow: 0, failedNow: 0 };
  const asOneRun = (p: RunProgress): RunProgress => ({
    ...p,
    target: plan.total,
    ranNow: sum.ranNow + p.ranNow,
    nonResponsesNow: sum.nonResponsesNow + p.nonResponsesNow,
    cutAtCapNow: sum.cutAtCapNow + p.cutAtCapNow,
    failedNow: sum.failedNow + p.failedNow,
    elapsedMs: Date.now() - started,
  });
  let last: RunResult | null = null;
  let byOthers = 0;
  let otherRunners = 0;
  let made = 0;
  for (let k = 0; k < looks.length && playing.some(Boolean); k++) {
    const block = played.slice(k === 0 ? 0 : looks[k - 1], looks[k]);
    const seqs = plan.agents.map((_, i) => (playing[i] ? blockSeqs(plan, block, i) : []));
    const done = store.doneSeqs(plan.runId, plan.total);
    const missing = seqs.flat().filter((s) => done[s] !== 1);
    if (missing.length > 0 || last === null) {
      const result = await executeRun(plan, store, {
        ...opts,
        seqs: missing,
        onProgress: opts.onProgress ? (p) => opts.onProgress!(asOneRun(p)) : undefined,
      });
      for (const key of ["ranNow", "nonResponsesNow", "cutAtCapNow", "failedNow"] as const)
        sum[key] += result[key];
      byOthers += result.byOthers;
      otherRunners = Math.max(otherRunners, result.otherRunners);
      last = result;
      // Stopped by a signal: the block is not whole, and no decision is made on part of it.
      if (result.interrupted || opts.signal?.aborted) break;
    }
    lookAtBlock(plan, store, rule, k, looks[k]!, seqs, playing, agents);
    made = k + 1;
    rule.onLook?.(k, looks.length, playing);
  }
  const base = last ?? (await executeRun(plan, store, { ...opts, seqs: [] }));
  return {
    ...base,
    ...sum,
    target: plan.total,
    elapsedMs: Date.now() - started,
    byOthers,
    otherRunners,
    interrupted: base.interrupted || opts.signal?.aborted === true,
    looks: made,
    lookCount: looks.length,
    agents,
  };
}
