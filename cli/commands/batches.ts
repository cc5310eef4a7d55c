import type { Command } from "commander";
import type { Output } from "../output.ts";
import { storeOption } from "../store-option.ts";

export function registerBatches(program: Command, out: Output): void {
  program
    .command("batches")
    .description("the batches runs sent to a provider's batch API: state, counts, age, cost")
    .addOption(storeOption())
    .option("--run <id>", "only this run's batches")
    .option(
      "--prices <file>",
      "price table JSON (batch columns, or half the live rates) for each batch's cost",
    )
    .option("--json", "print the batches as JSON")
    .action(async (o: { store: string; run?: string; prices?: string; json?: boolean }) => {
      (await import("../actions/batches.ts")).listBatches(o, out);
    });
}
