import type { Command } from "commander";
import type { LlmContext } from "../../agents/registry.ts";
import type { AnswerShape } from "../../environments/kernel/answer-shape.ts";
import type { RunPlan } from "../../environments/runner/plan.ts";
import type { Output } from "../output.ts";

/** What an environment's planner is given: commander's values (strings) of its own and the shared options. */
export interface CommonRunOptions {
  seed?: string;
  [option: string]: unknown;
}

/** Validates an environment's options and builds the run plan. */
export type Planner = (options: CommonRunOptions, llm: LlmContext) => RunPlan;

/**
 * Runs an environment that is not one plan (the market: rounds of runs, each built on the last),
 * in place of the shared run action: it checks the options, runs and reports itself.
 */
export type Driver = (options: CommonRunOptions, out: Output) => Promise<void>;

/**
 * One environment as `bazaar run <env>` sees it: a subcommand with its own options (the `run`
 * command adds the shared ones: store, limit, seed, concurrency, workers, watch, LLM settings), and a
 * planner that validates them and builds the run plan. Both are loaded when they are needed (the
 * options when the subcommand parses, the planner when it runs), so that a command loads what it
 * uses. A planner must not write anything: the store is opened after it returns, so bad input never
 * leaves a partial store.
 */
export interface EnvironmentCli {
  name: string;
  /** One line for `bazaar run --help`. */
  summary: string;
  /** What its answers ask of a model call by default (`--max-tokens`, `--tool-choice`). */
  answer: AnswerShape;
  /** What adds this environment's own options to its subcommand. */
  options(): Promise<(cmd: Command) => Command>;
  planner(): Promise<Planner>;
  /** What `bazaar run <env>` does instead of running one plan (loaded when it runs). */
  driver?(): Promise<Driver>;
}

/** A design seed as typed on the command line: a whole number, or any text. */
export function seedValue(raw: string): number | string {
  return /^-?\d+$/.test(raw) ? Number(raw) : raw;
}

/** `--agent <specs>`: the agents of an environment whose episodes have one acting role. */
export function addAgentOption(cmd: Command, defaultSpec: string, valid: readonly string[]): Command {
  return cmd.option(
    "--agent <specs>",
    `comma-separated agents (default ${defaultSpec}): ${valid.join(", ")}`,
  );
}

export function addReplicatesOption(cmd: Command): Command {
  return cmd.option("--replicates <n>", "repetitions of every task per agent", "1");
}

export function addMaxReasksOption(cmd: Command): Command {
  return cmd.option("--max-reasks <n>", "re-asks after an unusable answer before it is a non-response", "2");
}
