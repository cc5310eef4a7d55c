import { requireRun, trialRecords } from "../../environments/runner/records.ts";
import { AtomicFileWriter, type ExportFormat, exportRecords, Store } from "../../environments/store/index.ts";
import { getMarket } from "../../environments/store/markets.ts";
import { choiceOf, parseOption } from "../options.ts";
import type { Output } from "../output.ts";

export const EXPORT_FORMATS = ["jsonl", "csv"] as const;

/** `bazaar export <run>`: the run's trials as JSONL or CSV, to standard output or a file (whole or not at all). */
export async function exportRun(
  runId: string,
  o: { format: string; out?: string; store: string },
  out: Output,
): Promise<void> {
  const format: ExportFormat = parseOption("format", choiceOf(EXPORT_FORMATS), o.format);
  const store = Store.open(o.store, { create: false, readonly: true });
  try {
    // A market run: its seller turns and round summaries (cli/analyzers/market.ts).
    const market = store.getRun(runId) ? undefined : getMarket(store, runId);
    const marketRecords = market ? (await import("../analyzers/market.ts")).marketExportRecords : null;
    if (!market) requireRun(store, runId);
    const records = () =>
      market && marketRecords ? marketRecords(store, market) : trialRecords(store, runId);
    if (!o.out) {
      exportRecords(records, format, (t) => process.stdout.write(t));
      return;
    }
    const writer = new AtomicFileWriter(o.out);
    try {
      const n = exportRecords(records, format, (t) => writer.write(t));
      writer.commit();
      out.error(
        `wrote ${n.toLocaleString("en-US")} ${market ? "records" : "trials"} of ${runId} to ${o.out}`,
      );
    } catch (err) {
      writer.abort();
      throw err;
    }
  } finally {
    store.close();
  }
}
