import type { Command } from "commander";
import { requireRun, trialRecords } from "../../environments/runner/records.ts";
import { AtomicFileWriter, type ExportFormat, exportRecords, Store } from "../../environments/store/index.ts";
import { choiceOf, parseOption } from "../options.ts";
import type { Output } from "../output.ts";
import { storeOption } from "../store-option.ts";

const FORMATS = ["jsonl", "csv"] as const;

export function registerExport(program: Command, out: Output): void {
  program
    .command("export")
    .description("write a run's trials as JSONL (one trial per line) or CSV (one trial per row)")
    .argument("<run>", "run id (see `bazaar runs`)")
    .option("--format <format>", "jsonl or csv", "jsonl")
    .option("--out <file>", "output file (written whole or not at all); default: standard output")
    .addOption(storeOption())
    .action((runId: string, o: { format: string; out?: string; store: string }) => {
      const format: ExportFormat = parseOption("format", choiceOf(FORMATS), o.format);
      const store = Store.open(o.store, { create: false, readonly: true });
      try {
        requireRun(store, runId);
        const records = () => trialRecords(store, runId);
        if (!o.out) {
          exportRecords(records, format, (t) => process.stdout.write(t));
          return;
        }
        const writer = new AtomicFileWriter(o.out);
        try {
          const n = exportRecords(records, format, (t) => writer.write(t));
          writer.commit();
          out.error(`wrote ${n.toLocaleString("en-US")} trials of ${runId} to ${o.out}`);
        } catch (err) {
          writer.abort();
          throw err;
        }
      } finally {
        store.close();
      }
    });
}
