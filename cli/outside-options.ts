/**
 * The options of agents from outside bazaar (`exec:`, `module:`, `a2a:`, and `mcp:` under `bazaar serve`),
 * shared by `run` and `serve`. Parsing them loads nothing of the agents themselves.
 */
import type { Command } from "commander";
import type { EpisodeHost } from "../agents/outside/a2a-endpoint.ts";

export interface OutsideCliOptions {
  passEnv?: string;
  /** `--a2a-header`, once per header. */
  a2aHeader?: string[];
  episodeTimeout: string;
  agentVersion?: string;
  /**
   * Where `a2a:` agents' episode endpoints listen and are reached: no flag of `run` sets it (loopback);
   * `serve-assessor`, whose participants are elsewhere, does (--mcp-host, --mcp-public-url).
   */
  a2aEpisodes?: EpisodeHost;
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
    )
    .option(
      "--a2a-header <name=value>",
      "a2a: agents: an HTTP header every request to the agent carries (repeatable); $VAR in the value is read from the environment, e.g. 'Authorization=Bearer $AGENT_TOKEN'; never stored, exported or logged",
      (value: string, previous: string[] = []) => [...previous, value],
    );
}
