import type { Command } from "commander";
import type { LlmContext } from "../../agents/registry.ts";
import type { RunPlan } from "../../environments/runner/plan.ts";

/** Options `bazaar run` takes for every environment (values as commander gives them: strings). */
export interface CommonRunOptions {
  agent?: string;
  replicates: string;
  seed?: string;
  maxReasks: string;
  [option: string]: unknown;
}

/**
 * One environment as `bazaar run <env>` sees it: its own options, and a planner that validates them
 * and builds the run plan. A planner must not write anything: the store is opened after it returns,
 * so bad input never leaves a partial store.
 */
export interface EnvironmentCli {
  name: string;
  summary: string;
  /** Adds this environment's options to the run command (names must not clash across environments). */
  addOptions(cmd: Command): Command;
  /** Option names (as `--flag`) that belong to this environment only, so others can reject them. */
  ownOptions: readonly string[];
  plan(options: CommonRunOptions, llm: LlmContext): RunPlan;
}

/** A design seed as typed on the command line: a whole number, or any text. */
export function seedValue(raw: string): number | string {
  return /^-?\d+$/.test(raw) ? Number(raw) : raw;
}
