import { Store } from "../../environments/store/index.ts";
import { type Output, printJson } from "../output.ts";
import { shownStore } from "../store-option.ts";
import { renderTable } from "../table.ts";

/** `bazaar cache stats`: cached responses per model. */
export function cacheStats(o: { store: string; json?: boolean }, out: Output) {
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
}

/** `bazaar cache clear`: deletes cached responses (of one model, or all). */
export function cacheClear(o: { store: string; model?: string }, out: Output) {
  const store = Store.open(o.store, { create: false });
  try {
    const n = store.responseCache().clear(o.model);
    out.log(`deleted ${n.toLocaleString("en-US")} cached responses${o.model ? ` of ${o.model}` : ""}`);
  } finally {
    store.close();
  }
}
