import type { AnyStateMachine } from "xstate";
import type { z } from "zod";
import type { SurfaceHooks } from "./surface.ts";
import type { NonResponse, Usage } from "./types.ts";

/**
 * What the runner needs to know about an episode kind: the machine, how a task becomes the
 * machine's input, and how a finished episode becomes the stored trial record.
 */
export interface EnvironmentDef<Task extends { taskId: string }, Outcome, Settings> {
  name: string;
  machine: AnyStateMachine;
  /** Every action an agent may take (a discriminated union on `type`); LLM tools are made from it. */
  actionSchema: z.ZodDiscriminatedUnion;
  /** How its tool surface words an episode's end and a refused call (`surface.ts`). */
  surface?: SurfaceHooks<Outcome>;
  /** Roles played by agents, in the order agent specs are given for one trial. */
  roles: readonly string[];
  input(task: Task, settings: Settings): unknown;
  /**
   * What of a task seeds its episodes' random stream (default: the whole task): the shop leaves its
   * client out, so a client's profile changes no other draw.
   */
  seedTask?(task: Task): unknown;
  isNonResponse(outcome: Outcome): boolean;
  /** The non-response with `note` added to its reason (why the answer could not be used). */
  noteNonResponse(outcome: Outcome, note: string): Outcome;
  record(args: {
    run: string;
    trialKey: string;
    seq: number;
    agent: string;
    replicate: number;
    task: Task;
    outcome: Outcome;
    usage: Usage;
  }): Record<string, unknown>;
}

// biome-ignore lint/suspicious/noExplicitAny: a runner and a store handle every environment's types
export type AnyEnvironment = EnvironmentDef<any, any, any>;

/** An outcome whose unusable answer is `nonResponse: { reason, raw }`, with `note` before the reason. */
export function noteInNonResponse<O extends { nonResponse: NonResponse | null }>(
  outcome: O,
  note: string,
): O {
  const n = outcome.nonResponse;
  return n ? { ...outcome, nonResponse: { ...n, reason: `${note}: ${n.reason}` } } : outcome;
}
