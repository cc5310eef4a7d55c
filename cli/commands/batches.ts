/**
 * `bazaar batches`: every batch the store's runs sent to a provider's batch API — state, requests,
 * answered and failed lines, age and (with --prices) cost at batch rates. And what `bazaar run
 * --batch` needs around the batch host: its options, the check that each endpoint has a batch API,
 * and the lines of the run summary.
 */
import type { Command } from "commander";
import { z } from "zod";
import {
  type BatchCounts,
  type BatchHost,
  createBatchHost,
  preflightBatchApi,
} from "../../agents/llm/batch/index.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { failureOf } from "../../environments/kernel/failures.ts";
import type { ResponseCache } from "../../environments/kernel/response-cache.ts";
import { emptyUsage } from "../../environments/kernel/types.ts";
import type { RunPlan } from "../../environments/runner/plan.ts";
import { batchLedger, type LedgerBatch, LIVE_BATCH_STATES } from "../../environments/store/batches.ts";
import { Store } from "../../environments/store/index.ts";
import { parseOption } from "../options.ts";
import { type Output, printJson } from "../output.ts";
import { costWithBatch, loadPriceTable, type PriceTable } from "../prices.ts";
import { shownStore, storeOption } from "../store-option.ts";
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
  tokens: { inputTokens: number; outputTokens: number } | undefined,
  prices: PriceTable,
) {
  const t = {
    model: b.model,
    inputTokens: tokens?.inputTokens ?? 0,
    outputTokens: tokens?.outputTokens ?? 0,
  };
  return costWithBatch(b.model, { ...emptyUsage(), ...t }, [t], prices);
}

export function registerBatches(program: Command, out: Output): void {
  program
    .command("batches")
    .description("the batches runs sent to a provider's batch API: state, counts, age, cost")
    .addOption(storeOption())
    .option("--run <id>", "only this run's batches")
    .option(
      "--prices <file>",
      "price table JSON (batch columns, or half the live rates) for each batch's cost",
    )
    .option("--json", "print the batches as JSON")
    .action((o: { store: string; run?: string; prices?: string; json?: boolean }) => {
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
            [
              "batch",
              "provider id",
              "run",
              "model",
              "state",
              "requests",
              "answered",
              "failed",
              "age",
              "cost $",
            ],
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
    });
}

/** `--batch-size`, when `--batch` is on: the trials in flight, so the requests of one round. */
export function batchSizeOf(o: { batch?: boolean; batchSize: string; workers: string }): number | null {
  if (!o.batch) return null;
  if (o.workers !== "0")
    throw new UserError(
      "--batch and --workers do not go together",
      "a batch run waits on the provider, not on the agents' CPU: leave --workers out",
    );
  return parseOption(
    "batch-size",
    z.coerce.number({ error: "expected a number" }).int("expected a whole number").min(1).max(1_000_000),
    o.batchSize,
  );
}

/** Before the store is written: every endpoint of the run's LLM agents has a batch API. */
export async function checkBatchApi(plan: RunPlan): Promise<void> {
  try {
    await preflightBatchApi(plan.agents);
  } catch (err) {
    const f = failureOf(err);
    if (f) throw new UserError(f.message, f.hint);
    throw err;
  }
}

export function startBatchRun(
  store: Store,
  runId: string,
  cache: ResponseCache,
  say: (l: string) => void,
): BatchHost {
  return createBatchHost({ runId, ledger: batchLedger(store), cache, say });
}

/** The run summary's batch lines: what this process did, and the run's batch cost when priced. */
export function batchSummary(
  counts: BatchCounts,
  store: Store,
  runId: string,
  prices: PriceTable | undefined,
): { lines: string[]; json: Record<string, unknown> } {
  const ledger = batchLedger(store);
  const live = ledger.list(runId).filter((b) => LIVE_BATCH_STATES.has(b.state)).length;
  const lines = [
    `batches this time: ${n(counts.submitted)} submitted (${n(counts.requests)} requests), ${n(counts.resumed)} sent earlier and waited on; ${n(counts.answered)} lines answered, ${n(counts.failed)} failed or not run${live > 0 ? `; ${n(live)} still with the provider` : ""}`,
  ];
  const json: Record<string, unknown> = { ...counts, live };
  if (prices) {
    let cost = 0;
    let saved = 0;
    let unpriced = 0;
    for (const u of ledger.usage(runId)) {
      const c = costWithBatch(u.agent, { ...emptyUsage(), ...u }, [u], prices);
      if (c === null) unpriced++;
      else {
        cost += c.batchCostUsd;
        saved += c.savedUsd;
      }
    }
    lines.push(
      `batch cost of this run: $${cost.toFixed(4)} at batch rates, $${saved.toFixed(4)} saved against live calls${unpriced > 0 ? ` (${unpriced} agent${unpriced === 1 ? "" : "s"} without a price)` : ""}`,
    );
    json.costUsd = cost;
    json.savedUsd = saved;
  }
  return { lines, json };
}
