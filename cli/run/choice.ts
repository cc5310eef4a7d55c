import type { Command } from "commander";
import { choiceAgentNames } from "../../agents/sim/presets.ts";
import { PROMPT_VARIANTS } from "../../environments/choice/variants.ts";
import { addAgentOption, addMaxReasksOption, addReplicatesOption } from "./types.ts";
import { addUntilOption } from "./until.ts";

/** The options of `bazaar run choice` (the run command adds the shared ones). */
export function addChoiceOptions(cmd: Command): Command {
  return addUntilOption(
    addMaxReasksOption(addReplicatesOption(addAgentOption(cmd, "sim:steep", choiceAgentNames()))),
    "choice",
  )
    .option("--pool <file>", "hotel pool (bazaar JSON/CSV or PriceBench hotel_pool.json)")
    .option("--variant <name>", `prompt variant: ${PROMPT_VARIANTS.join(", ")} (default plain)`)
    .option("--pairs <n>", "unique hotel pairs (default 450)")
    .option("--pair-appearances <n>", "re-drawn appearances per pair (default 4)")
    .option("--triples <n>", "unique hotel triples (default 300)")
    .option("--triple-appearances <n>", "appearances per triple, a multiple of 3 (default 6)")
    .option("--fives <n>", "unique five-option sets (default 300)")
    .option("--five-appearances <n>", "appearances per five-option set (default 1)")
    .option(
      "--tasks <dir>",
      "run the PriceBench release's own tasks from <dir> (conjoint_tasks.csv, tasks_5opt.csv if there): every task in both orders, the release's ids, so the run joins imported runs in one analysis",
    )
    .option(
      "--prompt-template <file>",
      "word the prompt with this template: sections [system], [user] (holding {{cards}}), [user <n>], [card], [reask]; placeholders {{letter}} {{name}} {{brand}} {{stars}} {{neighborhood}} {{room}} {{price}} {{free_cancellation}} {{breakfast}} {{rating}} {{reviews}} {{amenities}} in [card], {{cards}} {{letters}} {{count}} in [user]",
    );
}
