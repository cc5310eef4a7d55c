import { type Command, Option } from "commander";
import { RESPONDENT_PRESETS } from "../../agents/sim/respondent.ts";
import { ELICIT_DOMAINS } from "../../datasets/elicit/schema.ts";
import { addAgentOption } from "./types.ts";
import { addUntilOption } from "./until.ts";

/** Agents an elicit run can name (LLM agents: any `openai:<model>`). */
export function elicitAgentNames(): string[] {
  return [...Object.keys(RESPONDENT_PRESETS).map((k) => `sim:${k}`), "openai:<model>"];
}

/** The options of `bazaar run elicit` (the run command adds the shared ones). */
export function addElicitOptions(cmd: Command): Command {
  return (
    addUntilOption(addAgentOption(cmd, "sim:consistent", elicitAgentNames()), "elicit")
      // Not an option of elicitation: there to say what to use instead (see plan), kept out of --help.
      .addOption(new Option("--replicates <n>").hideHelp())
      .option("--completions <n>", "independent completions per query (default 15, the paper's)")
      .option("--domains <list>", `comma-separated domains: ${ELICIT_DOMAINS.join(", ")} (default all)`)
      .option(
        "--collections <list>",
        "main (the audit groups) and/or paths (the path-length stress check) (default both)",
      )
  );
}
