import type { Command } from "commander";
import { SqliteStore } from "../../environments/store/index.ts";
import { type Output, printJson } from "../output.ts";
import { renderTable } from "../table.ts";

export function registerCache(program: Command, out: Output): void {
  const cache = program.command("cache").description("inspect or clear the LLM response cache in a store");
  cache
    .command("stats")
    .description("cached responses per model")
    .option("--store <file>", "SQLite store file", "bazaar.db")
    .option("--json", "print as JSON")
    .action((o: { store: string; json?: boolean }) => {
      const store = SqliteStore.open(o.store, { create: false });
      try {
        const stats = store.responseCache().stats();
        if (o.json) return printJson(out, stats);
        if (stats.entries === 0) return out.log(`the cache in ${o.store} is empty`);
        out.log(
          renderTable(
            ["model", "responses"],
            stats.byModel.map((m) => [m.model, m.entries.toLocaleString("en-US")]),
          ),
        );
        out.log(`${stats.entries.toLocaleString("en-US")} cached responses in ${o.store}`);
      } finally {
        store.close();
      }
    });
  cache
    .command("clear")
    .description("delete cached responses (of one model, or all)")
    .option("--model <name>", "only this model's responses")
    .option("--store <file>", "SQLite store file", "bazaar.db")
    .action((o: { store: string; model?: string }) => {
      const store = SqliteStore.open(o.store, { create: false });
      try {
        const n = store.responseCache().clear(o.model);
        out.log(`deleted ${n.toLocaleString("en-US")} cached responses${o.model ? ` of ${o.model}` : ""}`);
      } finally {
        store.close();
      }
    });
  for (const c of cache.commands) c.exitOverride();
}
