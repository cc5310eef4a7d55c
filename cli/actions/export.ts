import { requireRun, trialRecords } from "../../environments/runner/records.ts";
import { AtomicFileWriter, type ExportFormat, exportRecords, Store } from "../../environments/store/index.ts";
import { choiceOf, parseOption } from "../options.ts";
import type { Output } from "../output.ts";

export const EXPORT_FORMATS = ["jsonl", "csv"] as const;

/** `bazaar export <run>`: the run's trials as JSONL or CSV, to standard output or a file (whole or not at all). */
export function exportRun(
  runId: string,
  o: { format: string; out?: string; store: string },
  out: Output,
): void {
  const format: ExportFormat = parseOption("format", choiceOf(EXPORT_FORMATS), o.format);
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
}
