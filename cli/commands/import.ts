import type { Command } from "commander";
import type { Output } from "../output.ts";
import { storeOption } from "../store-option.ts";

export function registerImport(program: Command, out: Output): void {
  const cmd = program
    .command("import")
    .description("bring outside response data into the store as ordinary runs (see `import pricebench`)");
  cmd
    .command("pricebench")
    .description(
      "import a PriceBench release (hotel_pool.json, conjoint_tasks.csv, tasks_5opt.csv, conjoint_results_<model>[_swap].csv, in the folder or responses/) as one choice run per model",
    )
    .argument("<dir>", "the release folder")
    .addOption(storeOption())
    .option("--models <tags>", "only these models (comma-separated file tags, e.g. gpt-5_4,gemma2_9b)")
    .option("--json", "print the imported runs as JSON")
    .exitOverride()
    .showHelpAfterError("(add --help for usage)")
    .action(async (dir: string, o: { store: string; models?: string; json?: boolean }) => {
      (await import("../actions/import.ts")).importPriceBenchRuns(dir, o, out);
    });
}
