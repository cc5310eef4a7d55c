import type { Command } from "commander";
import { Store } from "../../environments/store/index.ts";
import { type Output, printJson } from "../output.ts";
import { shownStore, storeOption } from "../store-option.ts";
import { renderTable } from "../table.ts";

export function registerCache(program: Command, out: Output): void {
  const cache = program.command("cache").description("inspect or clear the LLM response cache in a store");
  cache
    .command("stats")
    .description("cached responses per model")
    .addOption(storeOption())
    .option("--json", "print as JSON")
    .action((o: { store: string; json?: boolean }) => {
      const store = Store.open(o.store, { create: false });
      try {
        const stats = store.responseCache().stats();
        if (o.json) return printJson(out, stats);
        if (stats.entries === 0) return out.log(`the cache in ${shownStore(o.store)} is empty`);
        out.log(
          renderTable(
            ["model", "responses"],
            stats.byModel.map((m) => [m.model, m.entries.toLocaleString("en-US")]),
          ),
        );
        out.log(`${stats.entries.toLocaleString("en-US")} cached responses in ${shownStore(o.store)}`);
      } finally {
        store.close();
      }
    });
  cache
    .command("clear")
    .description("delete cached responses (of one model, or all)")
    .option("--model <name>", "only this model's responses")
    .addOption(storeOption())
    .action((o: { store: string; model?: string }) => {
      const store = Store.open(o.store, { create: false });
      try {
        const n = store.responseCache().clear(o.model);
        out.log(`deleted ${n.toLocaleString("en-US")} cached responses${o.model ? ` of ${o.model}` : ""}`);
      } finally {
        store.close();
      }
    });
  for (const c of cache.commands) c.exitOverride();
}
