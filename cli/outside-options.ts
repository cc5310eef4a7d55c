/**
 * The options of agents from outside bazaar (`exec:`, `module:`, and `mcp:` under `bazaar serve`),
 * shared by `run` and `serve`. Parsing them loads nothing of the agents themselves.
 */
import type { Command } from "commander";

export interface OutsideCliOptions {
  passEnv?: string;
  episodeTimeout: string;
  agentVersion?: string;
}

export function addOutsideOptions(cmd: Command): Command {
  return cmd
    .option(
      "--episode-timeout <s>",
      "seconds an outside agent may go without a tool call before its episode is failed (played again later); 0: no limit",
      "600",
    )
    .option(
      "--agent-version <v>",
      "the outside agent's version: enters its identity, so changed agent code makes a new run",
    )
    .option(
      "--pass-env <names>",
      "exec: agents: comma-separated names of environment variables the program may see (e.g. OPENAI_API_KEY); nothing else of bazaar's environment reaches it",
    );
}
