import type { AnyEnvironment } from "../kernel/environment.ts";
import { sha256Hex, stableHash } from "../kernel/hash.ts";
import type { AgentEntry } from "../kernel/types.ts";

export interface RunPlan {
  runId: string;
  env: AnyEnvironment;
  settings: unknown;
  tasks: readonly { taskId: string }[];
  agents: readonly AgentEntry[];
  replicates: number;
  /** tasks × agents × replicates. */
  total: number;
  /** What makes two invocations the same run (stored with it). */
  config: Record<string, unknown>;
}

export interface TrialCoordinates {
  seq: number;
  taskIndex: number;
  agentIndex: number;
  replicate: number;
}

/**
 * design × agents × replicates. The run id is a hash of everything that defines the run, so running
 * the same command again finds the same run and resumes it.
 */
export function planRun(args: {
  env: AnyEnvironment;
  settings: unknown;
  tasks: readonly { taskId: string }[];
  agents: readonly AgentEntry[];
  replicates: number;
  /** The design parameters and data identity the tasks came from. */
  design: unknown;
}): RunPlan {
  const config = {
    env: args.env.name,
    design: args.design,
    settings: args.settings,
    agents: args.agents.map((a) => a.label),
    agentIdentities: args.agents.map((a) => a.identity),
    replicates: args.replicates,
  };
  return {
    runId: `${args.env.name}-${stableHash(config, 10)}`,
    env: args.env,
    settings: args.settings,
    tasks: args.tasks,
    agents: args.agents,
    replicates: args.replicates,
    total: args.tasks.length * args.agents.length * args.replicates,
    config,
  };
}

/** Trials are numbered task-major: all agents and replicates of task 0, then task 1, … */
export function coordinates(
  plan: Pick<RunPlan, "replicates"> & { agents: readonly unknown[] },
  seq: number,
): TrialCoordinates {
  const r = plan.replicates;
  const a = plan.agents.length;
  return {
    seq,
    taskIndex: Math.floor(seq / (a * r)),
    agentIndex: Math.floor(seq / r) % a,
    replicate: seq % r,
  };
}

/**
 * Stable trial keys: hash of the task's content, the agent's identity and the replicate index. The
 * same trial has the same key in any run, any process, any order of execution.
 */
export class TrialKeys {
  private readonly taskHashes: (string | undefined)[];
  private readonly agentHashes: string[];
  private readonly seedTaskHashes: (string | undefined)[];
  private readonly seedAgentHashes: string[];

  constructor(private readonly plan: RunPlan) {
    this.taskHashes = new Array(plan.tasks.length);
    this.agentHashes = plan.agents.map((a) => stableHash(a.identity, 32));
    this.seedTaskHashes = new Array(plan.tasks.length);
    this.seedAgentHashes = plan.agents.map((a, i) =>
      a.seedIdentity === undefined ? this.agentHashes[i]! : stableHash(a.seedIdentity, 32),
    );
  }

  /**
   * What seeds a trial's random stream: its key, unless the environment seeds by part of the task
   * (`seedTask`) or the entry by part of its identity (`seedIdentity`) — then the key such a task
   * and identity would have, so the same draws come where only the left-out part differs.
   */
  seed(c: TrialCoordinates): string {
    const seedTask = this.plan.env.seedTask;
    if (!seedTask && this.plan.agents[c.agentIndex]!.seedIdentity === undefined) return this.key(c);
    let th = this.seedTaskHashes[c.taskIndex];
    if (th === undefined) {
      const task = this.plan.tasks[c.taskIndex];
      th = stableHash(seedTask ? seedTask(task) : task, 32);
      this.seedTaskHashes[c.taskIndex] = th;
    }
    return sha256Hex(`${th}|${this.seedAgentHashes[c.agentIndex]}|${c.replicate}`).slice(0, 24);
  }

  key(c: TrialCoordinates): string {
    let th = this.taskHashes[c.taskIndex];
    if (th === undefined) {
      th = stableHash(this.plan.tasks[c.taskIndex], 32);
      this.taskHashes[c.taskIndex] = th;
    }
    return sha256Hex(`${th}|${this.agentHashes[c.agentIndex]}|${c.replicate}`).slice(0, 24);
  }
}
