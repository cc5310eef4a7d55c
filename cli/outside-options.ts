/**
 * The options of agents from outside bazaar (`exec:`, `module:`, and `mcp:` under `bazaar serve`),
 * shared by `run` and `serve`. Parsing them loads nothing of the agents themselves.
 */
import type { Command } from "commander";
import { z } from "zod";
import { UserError } from "../environments/kernel/errors.ts";
import { parseOption } from "./options.ts";

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

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The outside agents' settings as `agents/outside/registry.ts` takes them (without `serve`). */
export function outsideSettings(o: OutsideCliOptions): {
  episodeTimeoutMs: number;
  agentVersion?: string;
  passEnv: string[];
  cwd: string;
} {
  const seconds = parseOption(
    "episode-timeout",
    z.coerce.number().refine(Number.isFinite, "expected a number").pipe(z.number().min(0)),
    o.episodeTimeout,
  );
  const passEnv = (o.passEnv ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of passEnv)
    if (!ENV_NAME.test(name))
      throw new UserError(
        `--pass-env: "${name}" is not a variable name`,
        "e.g. --pass-env OPENAI_API_KEY,HF_TOKEN",
      );
  return {
    episodeTimeoutMs: Math.round(seconds * 1000),
    ...(o.agentVersion ? { agentVersion: o.agentVersion } : {}),
    passEnv,
    cwd: process.cwd(),
  };
}
