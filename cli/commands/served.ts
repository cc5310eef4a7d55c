/**
 * What of `run <env>`'s options a served run takes (`bazaar serve <env>`): the outside agent is the
 * one under test, so the option that names the served role's agents (`--agent`, or `--buyer` /
 * `--seller`) and the options that only set such an agent do not apply; nor do the model options
 * where no LLM plays beside it, `--pass-env` where no `exec:` program does, or `--batch` (the outside
 * agent plays live, and its tool call would wait for a batch round of minutes to a day).
 *
 * Kept here rather than read from the environments' registry so that `serve <env> --help` loads no
 * environment (DESIGN.md § Start-up); test/cli/served.test.ts checks the roles against the registry.
 */
import { Command } from "commander";
import { addLlmOptions } from "../llm-options.ts";
import type { Inapplicable } from "./inapplicable.ts";

interface ServedRole {
  /** The option of `run <env>` that names this role's agents. */
  option: string;
  /** Options of `run <env>` that set only this role's agents (an og-narrator's schedule). */
  own: readonly string[];
  /**
   * The environment's role the outside agent plays, where it is not the served role's name: a
   * market's seller plays the adopters' role; a shop's seller is its only seller negotiator.
   */
  plays?: string;
  /** What the role is, for `--role`'s help. */
  what?: string;
}

export interface ServedEnvironment {
  /** The roles an outside agent may play (`--role`), the first by default. */
  roles: Readonly<Record<string, ServedRole>>;
  /** Roles of the environment that cannot be served, and why (`--role` says so when asked for one). */
  unserved?: Readonly<Record<string, string>>;
  /** Agents beside the outside agent may be LLMs (`openai:`): the model options apply. */
  llm: boolean;
  /** Agents beside it may be `exec:` programs: `--pass-env` applies. */
  exec: boolean;
  /** Run options its runs do not take, served or not (a market's, as `run market` says). */
  refused?: readonly Inapplicable[];
}

const ALONE = { llm: false, exec: false } as const;

export const SERVED: Readonly<Record<string, ServedEnvironment>> = {
  // The outside agent is the only agent of these runs.
  choice: { roles: { shopper: { option: "--agent", own: [] } }, ...ALONE },
  elicit: { roles: { respondent: { option: "--agent", own: [] } }, ...ALONE },
  cue: { roles: { shopper: { option: "--agent", own: [] } }, ...ALONE },
  // The shopper, or the seller negotiator of the listings that take offers (one MCP session a
  // negotiation); the other side may be an LLM or an exec: program (clients: openai: or sim:).
  shop: {
    roles: {
      shopper: { option: "--agent", own: ["--og-schedule"] },
      seller: {
        option: "--seller-negotiator",
        own: [],
        plays: "seller-1",
        what: "the seller of every listing that takes offers, with --negotiable; one MCP session a negotiation",
      },
    },
    llm: true,
    exec: true,
  },
  // The other side is any agent.
  bargain: {
    roles: {
      buyer: { option: "--buyer", own: ["--og-schedule"] },
      seller: { option: "--seller", own: [] },
    },
    llm: true,
    exec: true,
  },
  // The adopters' seller: one MCP session a seller turn; the buyers are any shop agent.
  market: {
    roles: {
      seller: {
        option: "--seller",
        own: [],
        plays: "adopter",
        what: "the optimizing seller the adopters run; one MCP session a seller turn",
      },
    },
    unserved: {
      buyer:
        "a market's buyers are shop episodes: serve a shopper with bazaar serve shop (--pool, --descriptions battery for listings like a market's)",
    },
    llm: true,
    exec: true,
    refused: [
      {
        flags: ["--limit", "--retry-errors"],
        why: "a market's later rounds are built on its earlier ones",
        refusedByAction: true,
      },
      { flags: ["--prices"], why: "its live view shows no cost (bazaar runs --prices prices its runs)" },
    ],
  },
};

/**
 * The role `--role` names among the arguments of `serve <env>` (read before they are parsed, for the
 * help), or the environment's default.
 */
export function roleInArgs(args: readonly string[], fallback: string): string {
  let role = fallback;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--role" && i + 1 < args.length) role = args[++i]!;
    else if (a.startsWith("--role=")) role = a.slice("--role=".length);
  }
  return role;
}

/** The run options a served run of `env` does not take, the outside agent playing `role`. */
export function notServed(env: string, role: string): Inapplicable[] {
  const served = SERVED[env];
  // An environment without an entry keeps every option: better shown in vain than missing.
  if (!served) return [];
  const rules: Inapplicable[] = [
    {
      flags: ["--batch", "--batch-size"],
      why: "the outside agent plays live, and its tool calls cannot wait for a batch round (minutes to a day)",
    },
    ...(served.refused ?? []),
  ];
  const slot = served.roles[role];
  if (slot) {
    // serve.ts refuses it, naming --agent-name.
    rules.push({ flags: [slot.option], why: "the outside agent plays that role", refusedByAction: true });
    if (slot.own.length > 0)
      rules.push({
        flags: slot.own,
        why: `it sets only ${slot.option} agents, and the outside agent plays the ${role}`,
      });
  }
  const roles = Object.keys(served.roles);
  // A market's one served role is named anyway (`--role seller`): it has other roles, not served.
  if (roles.length === 1 && served.unserved === undefined)
    rules.push({
      flags: ["--role"],
      why: `${env} has one role (${roles[0]}), which the outside agent plays`,
    });
  if (!served.llm)
    rules.push({
      flags: [...modelFlags(), "--workers", "--prices"],
      why: `a served ${env} run has no LLM agent: the outside agent is its only agent`,
    });
  if (!served.exec)
    rules.push({
      flags: ["--pass-env"],
      why: `it passes variables to exec: programs, and no agent of a served ${env} run is one`,
    });
  if (!served.exec)
    rules.push({
      flags: ["--a2a-header"],
      why: `it gives headers to a2a: agents, and no agent of a served ${env} run is one`,
    });
  return rules;
}

/** The flags of the model options (cli/llm-options.ts), as the builder defines them. */
function modelFlags(): string[] {
  return addLlmOptions(new Command()).options.map((o) => o.long!);
}
