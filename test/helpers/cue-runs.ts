/** `bazaar run cue` in this process (quicker than spawning the CLI), into `cwd`'s store. */
import path from "node:path";
import { runInProcess } from "./cli.ts";

export interface CueRunJson {
  runId: string;
  stored: number;
  total: number;
}

export async function runCue(cwd: string, args: string[]): Promise<CueRunJson> {
  const r = await runInProcess(["run", "cue", ...args, "--store", path.join(cwd, "bazaar.db"), "--json"]);
  if (r.code !== 0) throw new Error(`run failed (${r.code}): ${r.err}`);
  return JSON.parse(r.out) as CueRunJson;
}
