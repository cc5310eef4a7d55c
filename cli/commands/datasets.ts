import type { Command } from "commander";
import { DEFAULT_CATALOG_SEED, DEFAULT_CATALOG_SIZE } from "../../datasets/price-history/catalog-defaults.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import type { Output } from "../output.ts";

const LOADABLE = ["amazon-history-price"] as const;
const GENERATABLE = ["price-history"] as const;

function dataset<T extends readonly [string, ...string[]]>(names: T, name: string): T[number] {
  if (!names.includes(name)) {
    throw new UserError(`unknown data set "${name}"`, `data sets here: ${names.join(", ")}`);
  }
  return name;
}

export function registerDatasets(program: Command, out: Output): void {
  const cmd = program.command("datasets").description("check and generate the data sets bazaar reads");
  cmd
    .command("load")
    .description(
      "validate a data set's files and report what they hold (amazon-history-price: the 18 JSON files)",
    )
    .argument("<dataset>", `the data set: ${LOADABLE.join(", ")}`)
    .argument("<path>", "the folder of the data set's files (or one JSON file of products)")
    .option("--budget-factor <f>", "buyer budget B = f × listed price, for the MI/CI count (default 0.8)")
    .option("--cost-factor <f>", "seller cost C = f × lowest price, for the MI/CI count (default 1)")
    .option("--json", "print the report as JSON")
    .action(
      async (
        name: string,
        location: string,
        o: { budgetFactor?: string; costFactor?: string; json?: boolean },
      ) => {
        dataset(LOADABLE, name);
        (await import("../actions/datasets.ts")).loadDataset(name, location, o, out);
      },
    );
  cmd
    .command("generate")
    .description(
      "write bazaar's generated catalog (price-history: invented products in the AmazonHistoryPrice schema)",
    )
    .argument("<dataset>", `the data set: ${GENERATABLE.join(", ")}`)
    .option("--seed <seed>", "generator seed", String(DEFAULT_CATALOG_SEED))
    .option("--size <n>", "number of products", String(DEFAULT_CATALOG_SIZE))
    .option("--out <file>", "write here instead of standard output")
    .action(async (name: string, o: { seed: string; size: string; out?: string }) => {
      dataset(GENERATABLE, name);
      (await import("../actions/datasets.ts")).generateDataset(o, out);
    });
  for (const sub of cmd.commands) sub.exitOverride().showHelpAfterError("(add --help for usage)");
}
