/**
 * What `bazaar run --batch` needs around the batch host: its options, the check that each endpoint has
 * a batch API, and the lines of the run summary. Loaded only for a batch run (it brings the OpenAI
 * client).
 */
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
import { batchLedger, LIVE_BATCH_STATES } from "../../environments/store/batches.ts";
import type { Store } from "../../environments/store/index.ts";
import { parseOption } from "../options.ts";
import { costWithBatch, type PriceTable } from "../prices.ts";

const n = (x: number) => Math.round(x).toLocaleString("en-US");

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
