/**
 * An audit request's options, checked as `bazaar run <environment>` checks its own: the request's
 * options become the command's arguments (`{"tasks": 3}` → `--tasks=3`) beside the participant in
 * its role's slot (`--agent=a2a:<url>`), and are read by `run <env>`'s own command (commands/run.ts:
 * its options, defaults and refusals), so an unknown or inapplicable option fails the audit with the
 * CLI's own words. Then what an assessor adds, because the one asking is not its operator:
 *
 * - what the assessor decides is not the request's: where runs are stored, how it prints, the
 *   participant's headers, and anything that names a file or an endpoint of the assessor's machine;
 * - the participant is the audit's only agent from outside: an option naming an `exec:`, `module:`,
 *   `mcp:` or `a2a:` agent would have the assessor run someone's program or call another agent, and
 *   an `openai:` one would spend the operator's model key — the other agents of an audit are bazaar's
 *   own (`rule:`, `sim:`, the OG-Narrator's rules);
 * - the options a served run of that role does not take (commands/served.ts), as `bazaar serve`
 *   refuses them.
 */
import { CommanderError } from "commander";
import { cardUrlOf } from "../../agents/outside/a2a-card.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import type { RunOptions } from "../actions/run.ts";
import { parseRunOptions } from "../commands/run.ts";
import { notServed, SERVED } from "../commands/served.ts";
import { ENVIRONMENT_CLIS, type EnvironmentCli } from "../run/index.ts";
import type { AuditRequest, OptionValue } from "./request.ts";

/** Options the assessor sets, not the request, and why (the refusal's reason). */
export const ASSESSOR_SETS: Readonly<Record<string, string>> = {
  store: "audits are stored in the assessor's own store (serve-assessor --store)",
  json: "the assessor answers with the run's JSON itself",
  watch: "an audit runs unattended",
  prices: "it names a file on the assessor's machine",
  batch: "the participant plays live",
  "batch-size": "the participant plays live",
  "lease-ms": "the assessor keeps the run's own leases",
  workers: "the assessor's operator decides how it uses its machine",
  "a2a-header": "the participant's headers are the assessor operator's to give (serve-assessor --a2a-header)",
  "pass-env": "no exec: agent plays in an audit",
  "base-url": "it names an endpoint of the assessor's",
  "client-base-url": "it names an endpoint of the assessor's",
  "env-file": "it names a file on the assessor's machine",
  "model-rules": "it names a file on the assessor's machine",
  pool: "it names a file on the assessor's machine (the built-in pool is used)",
  catalog: "it names a file on the assessor's machine (the built-in catalog is used)",
  help: "an audit request is not a command line",
  version: "an audit request is not a command line",
};

/** Agent kinds no option of an audit may name (anywhere in a spec: `og-narrator:openai:<model>` too). */
const FOREIGN = /(^|:)(exec|module|mcp|a2a|openai):/;

/** `maxSteps`, `max-steps` or `--max-steps` → `max-steps`. */
export function flagName(key: string): string {
  return key
    .replace(/^--?/, "")
    .replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
    .toLowerCase();
}

/** `--name=value` (a value may start with a dash), `--name` for true, `--no-name` for false. */
function argOf(flag: string, value: OptionValue): string {
  if (value === true) return `--${flag}`;
  if (value === false) return flag.startsWith("no-") ? `--${flag.slice(3)}` : `--no-${flag}`;
  return `--${flag}=${Array.isArray(value) ? value.join(",") : String(value)}`;
}

/** The run options of an audit: the environment's, the participant in its slot, checked. */
export interface CheckedAudit {
  request: AuditRequest;
  envCli: EnvironmentCli;
  role: string;
  /** The slot's flag (`--agent`, `--buyer`…). */
  slot: string;
  /** `run <env>`'s options as its command read them (the assessor's own settings come on top). */
  options: RunOptions;
  /** The command a user would type for the same run (without the assessor's settings). */
  command: string;
}

/** The audit a request asks for, checked as `run` checks it; a UserError says what is wrong. */
export async function checkAudit(request: AuditRequest): Promise<CheckedAudit> {
  const env = request.environment;
  const envCli = ENVIRONMENT_CLIS.find((e) => e.name === env);
  const audited = Object.keys(SERVED).filter(
    (e) => e !== "market" && ENVIRONMENT_CLIS.some((c) => c.name === e),
  );
  if (!envCli || env === "market")
    throw new UserError(
      env === "market"
        ? "serve-assessor does not audit market: a market is rounds of runs, each built on the last"
        : `unknown environment "${env}"`,
      `an audit's environment is one of ${audited.join(", ")}`,
    );
  const served = SERVED[env]!;
  const roles = Object.keys(served.roles);
  const role = request.role ?? roles[0]!;
  const slotRole = served.roles[role];
  if (!slotRole)
    throw new UserError(
      `role "${role}": ${served.unserved?.[role] ?? `${env} has no role "${role}" a participant can play`}`,
      `the roles of ${env} are ${roles.join(", ")} (the first by default)`,
    );
  const slot = slotRole.option;
  // The URL checked now, as the run would check it (a URL holding credentials is refused before it is
  // logged or queued).
  cardUrlOf(request.participant);
  const args: string[] = [`${slot}=a2a:${request.participant}`];
  const given = new Set<string>();
  for (const [key, value] of Object.entries(request.options)) {
    const flag = flagName(key);
    const positive = flag.startsWith("no-") ? flag.slice(3) : flag;
    if (given.has(positive)) throw new UserError(`options: ${flag} is given twice`);
    given.add(positive);
    const why = ASSESSOR_SETS[positive];
    if (why) throw new UserError(`options.${key}: --${positive} is not the request's to set: ${why}`);
    if (`--${positive}` === slot)
      throw new UserError(
        `options.${key}: the participant plays ${slot} (role ${role})`,
        "the options set the rest of the design; the participant is named by participant",
      );
    for (const rule of notServed(env, role))
      if (!rule.refusedByAction && rule.flags.includes(`--${positive}`))
        throw new UserError(
          `--${positive} does not apply to an audit of ${env} whose participant is the ${role}: ${rule.why}`,
          "drop it from the request's options",
        );
    if (typeof value === "string" || Array.isArray(value)) {
      const specs = (Array.isArray(value) ? value.map(String) : value.split(",")).map((s) => s.trim());
      const foreign = specs.find((s) => FOREIGN.test(s));
      if (foreign)
        throw new UserError(
          `options.${key}: "${foreign}" — the participant is an audit's only agent from outside, and it runs no model on the assessor's key`,
          "the other agents of an audit are bazaar's own: rule:<tactic>, sim:<preset>",
        );
    }
    args.push(argOf(flag, value));
  }
  let options: RunOptions;
  try {
    options = await parseRunOptions(envCli, args);
  } catch (err) {
    // Commander's own complaints (a flag without its value): its words, as the CLI prints them.
    if (err instanceof CommanderError)
      throw new UserError(err.message.replace(/^error: /, ""), `see bazaar run ${env} --help`);
    throw err;
  }
  const command = ["bazaar", "run", env, ...args.map(shellQuote)].join(" ");
  return { request, envCli, role, slot, options, command };
}

function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
