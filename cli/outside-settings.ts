/** The outside agents' options (`outside-options.ts`) as `agents/outside/registry.ts` takes them. */
import { z } from "zod";
import { A2aAgents } from "../agents/outside/a2a-agents.ts";
import { parseA2aHeaders } from "../agents/outside/a2a-headers.ts";
import { UserError } from "../environments/kernel/errors.ts";
import { parseOption } from "./options.ts";
import type { OutsideCliOptions } from "./outside-options.ts";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The outside agents' settings as `agents/outside/registry.ts` takes them (without `serve`). */
export function outsideSettings(o: OutsideCliOptions): {
  episodeTimeoutMs: number;
  agentVersion?: string;
  passEnv: string[];
  cwd: string;
  a2a: A2aAgents;
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
    a2a: new A2aAgents(parseA2aHeaders(o.a2aHeader ?? []), undefined, o.a2aEpisodes),
  };
}
