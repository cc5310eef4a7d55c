import type { Command } from "commander";
import { SqliteStore } from "../../store/index.ts";
import { type Output, printJson } from "../output.ts";
import { renderTable } from "../table.ts";

export function registerRuns(program: Command, out: Output): void {
  program
    .command("runs")
    .description("list the runs in a store")
    .option("--store <file>", "SQLite store file", "bazaar.db")
    .option("--json", "print the runs as JSON")
    .action((o: { store: string; json?: boolean }) => {
      const store = SqliteStore.open(o.store, { create: false, readonly: true });
      try {
        const runs = store.listRuns();
        if (o.json) return printJson(out, runs);
        if (runs.length === 0) return out.log(`no runs in ${o.store}`);
        const n = (x: number) => x.toLocaleString("en-US");
        out.log(
          renderTable(
            ["run", "env", "agents", "stored", "non-resp.", "updated"],
            runs.map((r) => [
              r.id,
              r.env,
              r.agents.join(","),
              `${n(r.done)}/${n(r.total)}`,
              n(r.nonResponses),
              r.updatedAt.replace("T", " ").slice(0, 19),
            ]),
          ),
        );
      } finally {
        store.close();
      }
    });
}
