/**
 * Catalog-choice runs through the real CLI, as the e2e tests of the LLM path make and read them.
 */
import { expect } from "vitest";
import type { ChoiceOption } from "../../environments/choice/types.ts";
import { runCli } from "./cli.ts";

export interface Trial {
  trialKey: string;
  kind: string;
  cluster: string;
  options: ChoiceOption[];
  chosenSlot: number | null;
  nonResponse: { reason: string } | null;
  replies: string[];
  replicate: number;
  taskId: string;
  usage: { calls: number; cacheHits: number };
}

export async function exported(cwd: string, runId: string): Promise<Trial[]> {
  const r = await runCli(["export", runId], { cwd });
  expect(r.code).toBe(0);
  return r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Trial);
}

/** `bazaar run choice … --json`: its result, and its exit code (3: it ended with failed trials). */
export async function run(cwd: string, args: string[], env?: NodeJS.ProcessEnv) {
  const r = await runCli(["run", "choice", ...args, "--json"], { cwd, env });
  if (r.code !== 0 && r.code !== 3) throw new Error(`run failed (${r.code}): ${r.stderr}`);
  const result = JSON.parse(r.stdout) as {
    runId: string;
    stored: number;
    total: number;
    ranNow: number;
    failedNow: number;
    failed: number;
    retries: number;
  };
  return { ...result, code: r.code, stderr: r.stderr };
}
