/**
 * Agent specs for agents from outside bazaar, in any agent slot of any environment:
 * - `mcp:<name>`: the agent that connects to `bazaar serve` (only there);
 * - `exec:<command>`: a program started once per episode with a private MCP endpoint (`exec.ts`);
 * - `module:<file>[#export]`: a JS/TS module run in process (`module.ts`);
 * - `a2a:<url>`: an agent that already runs somewhere, over the Agent2Agent protocol (`a2a.ts`).
 * Each plays through the environment's tool surface (`environments/kernel/surface.ts`) and the
 * waiting agent (`waiting.ts`), so its trials are stored, resumed, watched and analysed like any.
 */
import { UserError } from "../../environments/kernel/errors.ts";
import { surfaceOf } from "../../environments/kernel/surface.ts";
import type { Agent } from "../../environments/kernel/types.ts";
import {
  SHOP_SELLER,
  SHOP_WITH_CLIENT,
  SHOP_WITH_OFFERS,
  SHOP_WITH_OFFERS_AND_CLIENT,
  surfaceEnvironment,
} from "../../environments/registry.ts";
import { a2aPlayer } from "./a2a.ts";
import { A2aAgents } from "./a2a-agents.ts";
import { execPlayer } from "./exec.ts";
import { modulePlayer } from "./module.ts";
import type { OutsideOptions, OutsideResolver } from "./types.ts";
import { WaitingAgent } from "./waiting.ts";

export type { OutsideOptions, OutsidePlayer, OutsideResolver } from "./types.ts";

/** The spec kinds of agents from outside, for help texts. */
export const OUTSIDE_KINDS = ["exec:<command>", "module:<file>[#export]", "a2a:<url>"] as const;

const KINDS = ["mcp", "exec", "module", "a2a"] as const;

function kindOf(spec: string): { kind: (typeof KINDS)[number]; rest: string } | null {
  const i = spec.indexOf(":");
  if (i < 0) return null;
  const kind = spec.slice(0, i);
  return (KINDS as readonly string[]).includes(kind)
    ? { kind: kind as (typeof KINDS)[number], rest: spec.slice(i + 1) }
    : null;
}

/** Whether a spec names an agent from outside (whatever else it gets wrong). */
export function isOutsideSpec(spec: string): boolean {
  return kindOf(spec) !== null;
}

export function outsideResolver(options: OutsideOptions): OutsideResolver {
  // Cards are read between the planning passes (`planWithA2a`); a caller that plans once has none.
  const a2a = options.a2a ?? new A2aAgents();
  return (spec, envName, role) => {
    const parsed = kindOf(spec);
    if (!parsed) return null;
    const env = surfaceEnvironment(envName);
    const surface = surfaceOf(env, role);
    const version = options.agentVersion ? { version: options.agentVersion } : {};
    if (parsed.rest.trim() === "")
      throw new UserError(
        `agent "${spec}": nothing after "${parsed.kind}:"`,
        `e.g. ${exampleOf(parsed.kind)}`,
      );
    switch (parsed.kind) {
      case "mcp": {
        if (!options.serve)
          throw new UserError(
            `agent "${spec}": mcp: agents connect to bazaar serve`,
            `run: npx bazaar serve ${serveCommand(envName, role)} --agent-name ${parsed.rest}`,
          );
        return {
          label: spec,
          identity: { kind: "mcp", name: parsed.rest, ...version },
          agent: new WaitingAgent(spec, surface, options.serve, options.episodeTimeoutMs) as Agent<
            unknown,
            unknown
          >,
        };
      }
      case "exec":
        return execPlayer(spec, parsed.rest, surface, options);
      case "module":
        return modulePlayer(spec, parsed.rest, surface, options);
      case "a2a":
        return a2aPlayer(spec, parsed.rest, surface, a2a, options.episodeTimeoutMs, options.agentVersion);
    }
  };
}

/** The `serve` subcommand (with the options that make its tools) of a surface and role. */
function serveCommand(envName: string, role: string): string {
  if (envName === SHOP_SELLER) return "shop --negotiable <share> --role seller";
  if (envName === "market") return "market --role seller";
  if (envName === "bargain") return `bargain --role ${role}`;
  if (envName === SHOP_WITH_OFFERS) return "shop --negotiable <share>";
  if (envName === SHOP_WITH_CLIENT) return "shop --client <specs>";
  if (envName === SHOP_WITH_OFFERS_AND_CLIENT) return "shop --negotiable <share> --client <specs>";
  return envName;
}

function exampleOf(kind: string): string {
  return kind === "mcp"
    ? "mcp:my-agent"
    : kind === "exec"
      ? "exec:python3 my_agent.py"
      : "module:./my-agent.ts";
}
