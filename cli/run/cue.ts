import type { Command } from "commander";
import { ADDITIVITY_CUES, ADDITIVITY_GRID, CUE_GRID } from "../../environments/cue/index.ts";
import { cueAgentNames, DEFAULT_CUE_AGENT } from "./cue-agents.ts";
import { addAgentOption, addMaxReasksOption, addReplicatesOption } from "./types.ts";
import { addUntilOption } from "./until.ts";

/** A premium grid in percent, as `--grid` takes it. */
export const percents = (g: readonly number[]) => g.map((x) => Number((x * 100).toFixed(6))).join(",");

/** The options of `bazaar run cue` (the run command adds the shared ones). */
export function addCueOptions(cmd: Command): Command {
  const add = (flags: string, description: string) => cmd.option(flags, description);
  addAgentOption(cmd, DEFAULT_CUE_AGENT, cueAgentNames());
  addReplicatesOption(cmd);
  addMaxReasksOption(cmd);
  add(
    "--conditions <patterns>",
    "conditions by name or glob, comma-separated, e.g. social-proof-*,scarcity,price-only (default all)",
  );
  add("--pairs <file>", "product pairs (JSON file; default the shipped 6 + 6 pairs)");
  add("--cues <file>", "cue library (JSON file; default the shipped library)");
  add("--categories <list>", "categories to run, comma-separated (default every category of the pairs)");
  add("--grid <percents>", `premium grid in percent, from 0 (default ${percents(CUE_GRID)})`);
  add(
    "--n-per-cell <n>",
    "trials per (pair, premium) cell, a multiple of 4: N/4 calls of each target × position state (default 24; × --replicates)",
  );
  add(
    "--blocks <list>",
    "main, additivity, paraphrases (default main,additivity; main only with --conditions or --cues)",
  );
  add(
    "--additivity-cues <a,b,c>",
    `the three cues of the 2³ factorial (default ${ADDITIVITY_CUES.join(",")})`,
  );
  add("--additivity-grid <percents>", `premium grid of the factorial (default ${percents(ADDITIVITY_GRID)})`);
  add("--paraphrase-conditions <patterns>", "conditions re-run under the three instruction paraphrases");
  return addUntilOption(cmd, "cue");
}
