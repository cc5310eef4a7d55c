import type { Command } from "commander";
import type { Output } from "../output.ts";
import { storeOption } from "../store-option.ts";

export function registerExport(program: Command, out: Output): void {
  program
    .command("export")
    .description("write a run's trials as JSONL (one trial per line) or CSV (one trial per row)")
    .argument("<run>", "run id (see `bazaar runs`)")
    .option("--format <format>", "jsonl or csv", "jsonl")
    .option("--out <file>", "output file (written whole or not at all); default: standard output")
    .addOption(storeOption())
    .action(async (runId: string, o: { format: string; out?: string; store: string }) => {
      await (await import("../actions/export.ts")).exportRun(runId, o, out);
    });
}
