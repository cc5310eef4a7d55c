/** The types of agents from outside (`registry.ts`), apart so that each kind's file can take them. */
import type { Agent } from "../../environments/kernel/types.ts";
import type { A2aAgents } from "./a2a-agents.ts";
import type { LinkEpisode } from "./waiting.ts";

/** An agent from outside as a planner takes it: a label, its identity, the policy for the role. */
export interface OutsidePlayer {
  label: string;
  identity: Record<string, unknown>;
  agent: Agent<unknown, unknown>;
}

/** Resolves an outside agent's spec for an environment's role, or null when the spec is not one. */
export type OutsideResolver = (spec: string, env: string, role: string) => OutsidePlayer | null;

export interface OutsideOptions {
  /** How long an episode waits for the agent's next tool call before it is failed (0: no limit). */
  episodeTimeoutMs: number;
  /** `--agent-version`: enters the identity, so a changed agent is a new run. */
  agentVersion?: string;
  /** `bazaar serve`: where `mcp:<name>` episodes go (to the sessions that wait for one). */
  serve?: LinkEpisode;
  /** `exec:`: names of variables of bazaar's environment the program may see (`--pass-env`). */
  passEnv?: readonly string[];
  /** `exec:`: the working directory programs run in (the user's). */
  cwd?: string;
  /** `a2a:`: the run's A2A agents (their cards, read between the planning passes) and headers. */
  a2a?: A2aAgents;
}
