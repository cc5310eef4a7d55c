import {
  type ActorScope,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  createActor,
  type EventObject,
} from "xstate";
import { bazaarBug, errorLine, isBazaarBug, isUserError } from "./errors.ts";
import { encodeFailure, type FailureRecord, failureOf } from "./failures.ts";
import {
  type Agent,
  type AgentContext,
  addUsage,
  emptyUsage,
  type Observation,
  type Usage,
} from "./types.ts";

/**
 * Every episode machine follows one convention so that a single driver runs them all:
 * - its context has `turn`: whose move it is and what they observe (read only while the machine is
 *   active: a final state needs no turn cleared);
 * - agents' moves arrive as `{ type: "act", role, action }`, and an agent that failed to produce a
 *   move (a network error after retries, a crash in a policy) as `{ type: "agent.error", role, error }`
 *   — the machine decides what that means for the outcome (usually a non-response); an agent that
 *   could not act for a reason outside its answer (an `AgentFailure`: the network, the provider,
 *   the configuration) cuts the episode short without the machine (`EpisodeFailed`); and an error
 *   of bazaar's own code (a `BazaarBug`) is thrown through, stopping the run with the trial unplayed;
 * - the machine's final `output` is the episode outcome.
 */
export interface Turn<View = unknown> {
  role: string;
  observation: Observation<View>;
}

export type EpisodeEvent<Action = unknown> =
  | { type: "act"; role: string; action: Action }
  | { type: "agent.error"; role: string; error: string };

/** One turn as it happened, for live views: who acted on what they saw, and what they did. */
export interface TurnEvent {
  /** 1-based, in the order the agents acted. */
  turn: number;
  role: string;
  observation: Observation<unknown>;
  /** The action taken; absent when the agent failed to act (`error` says why). */
  action?: unknown;
  error?: string;
  usage?: Usage;
}

/** Who hears of every turn of an episode (a live view, the store's log of turns in flight). */
export interface EpisodeObserver {
  onTurn(e: TurnEvent): void;
}

/**
 * Thrown by `runEpisode` when an agent could not act for a reason outside its answer (an
 * `AgentFailure`): the episode is cut there and has no outcome — it is not a non-response, not an
 * invalid session. The runner stores the trial as failed.
 */
export class EpisodeFailed extends Error {
  override readonly name = "EpisodeFailed";
  constructor(
    readonly failure: FailureRecord,
    /** Turns played before the failure. */
    readonly turns: number,
    readonly usage: Usage,
  ) {
    super(failure.message);
  }
}

export interface EpisodeResult<Output> {
  output: Output;
  usage: Usage;
  /** How many times an agent failed to produce a move (the machine decided what that meant). */
  agentErrors: number;
  /** The output cap the last answer cut short stopped at (`Acted.cutAt`); absent when none was. */
  cutAt?: number | null;
}

/**
 * xstate's `initialTransition`/`transition` build a fresh inert actor (and actor system) on every
 * call, which costs more than our whole episode. Episode machines are pure rule machines — assign
 * actions only, no invoked or spawned children, no delays — so one inert scope per machine, made
 * the way xstate makes it, serves every episode of that machine.
 */
const scopes = new WeakMap<AnyStateMachine, ActorScope<AnyMachineSnapshot, EventObject>>();

function inertScope(machine: AnyStateMachine, input: unknown): ActorScope<AnyMachineSnapshot, EventObject> {
  let scope = scopes.get(machine);
  if (!scope) {
    const self = createActor(machine, { input });
    scope = {
      self,
      id: "",
      sessionId: "",
      logger: () => {},
      defer: () => {},
      emit: () => {},
      stopChild: () => {},
      actionExecutor: () => {},
      system: self.system,
    } as unknown as ActorScope<AnyMachineSnapshot, EventObject>;
    scopes.set(machine, scope);
  }
  return scope;
}

/**
 * The first turn of an episode — who acts first, on what — without playing it (null when the machine
 * starts finished): what a preflight measures of a task's opening prompt.
 */
export function openingTurn(machine: AnyStateMachine, input: unknown): Turn | null {
  const snapshot = machine.getInitialSnapshot(inertScope(machine, input), input);
  return snapshot.status === "active" ? ((snapshot.context as { turn: Turn | null }).turn ?? null) : null;
}

/** Upper bound on agent turns per episode, a guard against a machine that never finishes. */
const MAX_TURNS = 10_000;

/**
 * Runs one episode to its final state. The machine is advanced with xstate's pure `transition`
 * function (no actor, no scheduler), which keeps the per-episode cost to the rules themselves.
 */
export async function runEpisode<Output>(
  machine: AnyStateMachine,
  input: unknown,
  agents: Readonly<Record<string, Agent<unknown, unknown>>>,
  ctx: AgentContext,
  /** Told of each turn; without one, the driver does no per-turn work beyond the episode itself. */
  observer?: EpisodeObserver,
): Promise<EpisodeResult<Output>> {
  const scope = inertScope(machine, input);
  let snapshot: AnyMachineSnapshot = machine.getInitialSnapshot(scope, input);
  let usage = emptyUsage();
  let agentErrors = 0;
  let cutAt: number | null | undefined;
  let failed: { failure: FailureRecord; turns: number } | null = null;
  try {
    for (let turns = 0; snapshot.status === "active"; turns++) {
      if (turns >= MAX_TURNS) throw new Error(`episode did not finish within ${MAX_TURNS} turns`);
      const turn = (snapshot.context as { turn: Turn | null }).turn;
      if (!turn)
        throw new Error(`episode stalled in state ${JSON.stringify(snapshot.value)}: no agent is due`);
      const agent = agents[turn.role];
      if (!agent) throw new Error(`no agent plays the role "${turn.role}"`);
      let event: EpisodeEvent;
      try {
        const acted = await agent.act(turn.observation, ctx);
        if (acted.usage) usage = addUsage(usage, acted.usage);
        if (acted.cutAt !== undefined) cutAt = acted.cutAt;
        event = { type: "act", role: turn.role, action: acted.action };
        observer?.onTurn({
          turn: turns + 1,
          role: turn.role,
          observation: turn.observation,
          action: acted.action,
          ...(acted.usage ? { usage: acted.usage } : {}),
        });
      } catch (err) {
        // bazaar's own bug is nobody's answer, and neither is the user's error met on the way (the
        // store stopped answering): either stops the run with the trial unplayed.
        if (ctx.signal?.aborted || isBazaarBug(err) || isUserError(err)) throw err;
        const failure = failureOf(err);
        if (!failure && agent.errorsAreBugs) throw bazaarBug(agent.id, errorLine(err), err);
        if (failure) {
          failed = { failure: encodeFailure(failure), turns };
          break;
        }
        agentErrors++;
        event = {
          type: "agent.error",
          role: turn.role,
          error: err instanceof Error ? err.message : String(err),
        };
        observer?.onTurn({
          turn: turns + 1,
          role: turn.role,
          observation: turn.observation,
          error: event.error,
        });
      }
      snapshot = machine.transition(snapshot, event, scope);
    }
  } finally {
    const outcome = snapshot.status === "done" ? snapshot.output : undefined;
    for (const agent of new Set(Object.values(agents)))
      if (agent.endEpisode) await agent.endEpisode(ctx, outcome);
  }
  if (failed) throw new EpisodeFailed(failed.failure, failed.turns, usage);
  if (snapshot.status === "error")
    throw (snapshot as { error?: unknown }).error ?? new Error("episode failed");
  return {
    output: snapshot.output as Output,
    usage,
    agentErrors,
    ...(cutAt === undefined ? {} : { cutAt }),
  };
}
