import { type Command, Option } from "commander";
import { addReplicatesOption } from "./types.ts";
import { addUntilOption } from "./until.ts";

/** The offline tournament: the OG-Narrator and a plain LLM-like buyer, each against these sellers. */
export const DEFAULT_BUYERS = "og-narrator,sim:llm";
export const DEFAULT_SELLERS = "rule:boulware,rule:linear,rule:conceder,rule:tit-for-tat,sim:llm";
export const DEFAULT_SCENARIOS = 100;

/** The options of `bazaar run bargain` (the run command adds the shared ones). */
export function addBargainOptions(cmd: Command): Command {
  return addReplicatesOption(
    addUntilOption(cmd, "bargain")
      // Not an option of bargaining: there to say what to use instead (see plan), kept out of --help.
      .addOption(new Option("--agent <specs>").hideHelp())
      .option("--buyer <specs>", `buyers, comma-separated (default ${DEFAULT_BUYERS})`)
      .option("--seller <specs>", `sellers, comma-separated (default ${DEFAULT_SELLERS})`)
      .option("--scenarios <n>", `products drawn from the catalog, or all (default ${DEFAULT_SCENARIOS})`)
      .option("--max-turns <n>", "turns per session, a turn being a buyer message and the reply (default 6)")
      .option("--catalog <path>", "price-history catalog: the AmazonHistoryPrice folder or one JSON file")
      .option("--budget-factor <f>", "buyer budget B = f × listed price (default 0.8)")
      .option("--cost-factor <f>", "seller cost C = f × lowest price (default 1)")
      .option(
        "--og-schedule <s>",
        "OG offers: linear, exp, linear:0.5:1, or factors 0.5,0.6,… (default linear)",
      ),
  );
}
