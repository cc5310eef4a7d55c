import { emptyUsage } from "../../environments/kernel/types.ts";
import { batchLedger, type LedgerBatch, LIVE_BATCH_STATES } from "../../environments/store/batches.ts";
import { Store } from "../../environments/store/index.ts";
import { type Output, printJson } from "../output.ts";
import { costWithBatch, loadPriceTable, type PriceTable } from "../prices.ts";
import { shownStore } from "../store-option.ts";
import { renderTable } from "../table.ts";

const n = (x: number) => Math.round(x).toLocaleString("en-US");

/** How long ago, in the unit that reads best. */
export function age(fromIso: string, nowMs = Date.now()): string {
  const s = Math.max(0, (nowMs - Date.parse(fromIso)) / 1000);
  if (s < 90) return `${Math.round(s)} s`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min`;
  if (s < 36 * 3600) return `${(s / 3600).toFixed(1)} h`;
  return `${(s / 86_400).toFixed(1)} d`;
}

/** A batch's cost at batch rates, or null without a price for its model. */
function batchCost(
  b: LedgerBatch,
  tokens: { inputTokens: number; cachedInputTokens: number; outputTokens: number } | undefined,
  prices: PriceTable,
) {
  const t = {
    model: b.model,
    inputTokens: tokens?.inputTokens ?? 0,
    cachedInputTokens: tokens?.cachedInputTokens ?? 0,
    outputTokens: tokens?.outputTokens ?? 0,
  };
  return costWithBatch(b.model, { ...emptyUsage(), ...t }, [t], prices);
}

/** `bazaar batches`: every batch the store's runs sent to a batch API. */
export function listBatches(
  o: { store: string; run?: string; prices?: string; json?: boolean },
  out: Output,
) {
  const prices = o.prices ? loadPriceTable(o.prices) : undefined;
  const store = Store.open(o.store, { create: false, readonly: true });
  try {
    const ledger = batchLedger(store);
    const tokens = ledger.usageByBatch();
    const rows = ledger.list(o.run).map((b) => {
      const t = tokens.get(b.localId);
      const cost = prices ? batchCost(b, t, prices) : null;
      return {
        ...b,
        answered: t?.requests ?? 0,
        inputTokens: t?.inputTokens ?? 0,
        cachedInputTokens: t?.cachedInputTokens ?? 0,
        outputTokens: t?.outputTokens ?? 0,
        costUsd: cost?.batchCostUsd ?? null,
        savedUsd: cost?.savedUsd ?? null,
      };
    });
    if (o.json) return printJson(out, rows);
    if (rows.length === 0)
      return out.log(`no batches in ${shownStore(o.store)}${o.run ? ` for run ${o.run}` : ""}`);
    const now = Date.now();
    out.log(
      renderTable(
        ["batch", "provider id", "run", "model", "state", "requests", "answered", "failed", "age", "cost $"],
        rows.map((r) => [
          String(r.localId),
          r.batchId ?? "—",
          r.runId,
          r.model,
          r.state,
          n(r.requests),
          n(r.answered),
          n(r.failed),
          age(r.createdAt, now),
          r.costUsd === null ? (prices ? "no price" : "—") : r.costUsd.toFixed(4),
        ]),
      ),
    );
    const live = rows.filter((r) => LIVE_BATCH_STATES.has(r.state));
    if (live.length > 0)
      out.log(
        `${n(live.length)} batch${live.length === 1 ? "" : "es"} still with the provider (state as last polled): the run's own command waits on them and reads them`,
      );
    if (prices) {
      const cost = rows.reduce((a, r) => a + (r.costUsd ?? 0), 0);
      const saved = rows.reduce((a, r) => a + (r.savedUsd ?? 0), 0);
      out.log(
        `batch cost $${cost.toFixed(4)} at batch rates ($${saved.toFixed(4)} saved against live calls)`,
      );
    }
  } finally {
    store.close();
  }
}
