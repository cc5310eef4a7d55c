import type { Command } from "commander";
import { ANALYZERS } from "../analyzers/index.ts";
import type { Output } from "../output.ts";
import { storeOption } from "../store-option.ts";

export function registerAnalyze(program: Command, out: Output): void {
  const cmd = program
    .command("analyze")
    .description("turn a run's trials into the estimates its audit reports (tables, JSON, or a report)")
    .argument("<run>", "run id (see `bazaar runs`)")
    .addOption(storeOption())
    .option("--json", "print the results as one JSON document")
    .option("--report <dir>", "write a markdown report with SVG figures into this folder");
  for (const a of ANALYZERS) a.addOptions(cmd);
  cmd.action(async (runId: string, o: Record<string, unknown> & { store: string }) => {
    const { analyzeRun } = await import("../actions/analyze.ts");
    await analyzeRun(runId, o, out);
  });
}
