import type { Command } from "commander";
import type { Output } from "../output.ts";
import { storeOption } from "../store-option.ts";

export function registerRuns(program: Command, out: Output): void {
  program
    .command("runs")
    .description("list the runs in a store, with model calls, tokens and (with --prices) dollar cost")
    .addOption(storeOption())
    .option("--prices <file>", 'price table JSON: {"<model>": {"inputPerMTok": 0.15, "outputPerMTok": 0.6}}')
    .option("--json", "print the runs as JSON")
    .action(async (o: { store: string; json?: boolean; prices?: string }) => {
      (await import("../actions/runs.ts")).listRuns(o, out);
    });
}
