import type { Usage } from "../../environments/kernel/types.ts";
import { type BatchUsage, batchLedger } from "../../environments/store/batches.ts";
import { Store } from "../../environments/store/index.ts";
import { listMarkets, marketSummary } from "../../environments/store/markets.ts";
import { type Output, printJson } from "../output.ts";
import { CACHED_INPUT_SHARE, costOf, costWithBatch, loadPriceTable, type PriceTable } from "../prices.ts";
import { shownStore } from "../store-option.ts";
import { renderTable } from "../table.ts";
import { causeLines, leftLine, notesOf } from "./failure-lines.ts";

const n = (x: number) => Math.round(x).toLocaleString("en-US");

/** The agents column stays readable for tournaments (`--json` has the full list). */
function agentsCell(agents: string[]): string {
  const all = agents.join(",");
  return all.length <= 48 ? all : `${agents.length} agents: ${all.slice(0, 36)}…`;
}

/** What an agent of a run spent: its calls and tokens, their cost, and the part sent in batches. */
export interface AgentSpent {
  agent: string;
  trials: number;
  /** `cachedInputTokens` always present (0 where none were, or the trials predate the count). */
  usage: Usage & { cachedInputTokens: number };
  costUsd: number | null;
  batch?: {
    requests: number;
    inputTokens: number;
    /** Of the batch calls' input tokens, the provider's prompt-cache hits (at the batch cached-input rate). */
    cachedInputTokens: number;
    outputTokens: number;
    costUsd: number | null;
    savedUsd: number | null;
  };
}

/**
 * A run's usage per agent (stored and failed trials) priced by the table: live calls at the live
 * rates (prompt-cache hits at the cached-input rate), what went through a batch API at batch rates
 * (its prompt-cache hits, which the ledger keeps apart, at the batch cached-input rate).
 * `batched`: the run's batch ledger usage (read here when not given).
 */
export function spentByAgent(
  store: Store,
  runId: string,
  prices: PriceTable | undefined,
  batched: readonly BatchUsage[] = batchLedger(store).usage(runId),
): AgentSpent[] {
  return store.usageByAgent(runId).map((a): AgentSpent => {
    const usage = { ...a.usage, cachedInputTokens: a.usage.cachedInputTokens ?? 0 };
    const b = batched.filter((x) => x.agent === a.agent);
    if (b.length === 0) return { ...a, usage, costUsd: prices ? costOf(a.agent, a.usage, prices) : null };
    const priced = prices ? costWithBatch(a.agent, a.usage, b, prices) : null;
    const sum = (f: (x: BatchUsage) => number) => b.reduce((t, x) => t + f(x), 0);
    return {
      ...a,
      usage,
      costUsd: priced?.costUsd ?? null,
      batch: {
        requests: sum((x) => x.requests),
        inputTokens: sum((x) => x.inputTokens),
        cachedInputTokens: sum((x) => x.cachedInputTokens),
        outputTokens: sum((x) => x.outputTokens),
        costUsd: priced?.batchCostUsd ?? null,
        savedUsd: priced?.savedUsd ?? null,
      },
    };
  });
}

/** A run's tokens and cost in all: null cost without a table, or when an agent that called a model has no price. */
export function runSpent(agents: readonly AgentSpent[], priced: boolean) {
  const sum = (f: (a: AgentSpent) => number) => agents.reduce((t, a) => t + f(a), 0);
  const calling = agents.filter((a) => a.usage.calls > 0);
  return {
    inputTokens: sum((a) => a.usage.inputTokens),
    cachedInputTokens: sum((a) => a.usage.cachedInputTokens),
    outputTokens: sum((a) => a.usage.outputTokens),
    costUsd: priced && calling.every((a) => a.costUsd !== null) ? sum((a) => a.costUsd ?? 0) : null,
  };
}

/** `bazaar runs`: the store's runs, with model calls, tokens and (with --prices) dollar cost. */
export function listRuns(o: { store: string; json?: boolean; prices?: string }, out: Output) {
  const prices: PriceTable | undefined = o.prices ? loadPriceTable(o.prices) : undefined;
  const store = Store.open(o.store, { create: false, readonly: true });
  try {
    // Calls made through a batch API are in the batch ledger, priced at batch rates.
    const batched = new Map<string, BatchUsage[]>();
    for (const b of batchLedger(store).usage()) batched.set(b.runId, [...(batched.get(b.runId) ?? []), b]);
    const runs = store.listRuns().map((r) => {
      const byAgent = spentByAgent(store, r.id, prices, batched.get(r.id) ?? []);
      return {
        ...r,
        ...notesOf(store, r.id),
        spent: runSpent(byAgent, prices !== undefined),
        usageByAgent: byAgent,
      };
    });
    // Market runs (`bazaar run market`): one row each, standing for their rounds' runs.
    const markets = listMarkets(store).map((m) => ({
      ...marketSummary(store, m.id)!,
      runs: m.runs,
      usageByAgent: [] as AgentSpent[],
    }));
    if (o.json) return printJson(out, [...runs, ...markets]);
    if (runs.length === 0 && markets.length === 0) return out.log(`no runs in ${shownStore(o.store)}`);
    const inMarket = new Set(markets.flatMap((m) => m.runs.map((l) => l.runId)));
    const rows = [...runs.filter((r) => !inMarket.has(r.id)), ...markets].sort((a, b) =>
      a.createdAt.localeCompare(b.createdAt),
    );
    out.log(
      renderTable(
        ["run", "env", "agents", "stored", "non-resp.", "failed", "updated"],
        rows.map((r) => [
          r.id,
          r.env,
          agentsCell(r.agents),
          `${n(r.done)}/${n(r.total)}`,
          n(r.nonResponses),
          n(r.failed),
          r.updatedAt.replace("T", " ").slice(0, 19),
        ]),
      ),
    );
    if (markets.length > 0)
      out.log(
        `market: a market run's row stands for its rounds' runs (<market>-r01-buyers, <market>-r01-sellers, …), which --json lists; bazaar analyze <market> reads them all`,
      );
    // What failed and who left without acting, run by run (the columns only count them).
    const failedRuns = runs.filter((r) => r.failed > 0);
    if (failedRuns.length > 0) {
      out.log(
        "failed: trials whose agent could not act — missing data, in no estimate; the run's own command runs them again. What failed:",
      );
      for (const r of failedRuns) for (const line of causeLines(r.failures, `  ${r.id} `)) out.log(line);
    }
    for (const r of runs)
      if (r.leftWithoutActing.length > 0)
        out.log(
          `left without acting in ${r.id}: ${leftLine(r.leftWithoutActing)} — non-responses (its MCP sessions took the trial and ended before a step, --max-abandons times in a row)`,
        );
    const llm = runs.flatMap((r) =>
      r.usageByAgent.filter((a) => a.usage.calls + a.usage.cacheHits > 0).map((a) => ({ run: r.id, ...a })),
    );
    if (llm.length === 0) return;
    const anyBatch = llm.some((a) => a.batch !== undefined);
    const money = (x: number | null | undefined) => (x == null ? (prices ? "no price" : "—") : x.toFixed(4));
    out.log("");
    out.log(
      renderTable(
        [
          "run",
          "agent",
          "calls",
          ...(anyBatch ? ["batch calls"] : []),
          "resp. cache",
          "prompt tok.",
          "prompt-cache tok.",
          "completion tok.",
          "reasoning tok.",
          "cost $",
          ...(anyBatch ? ["saved $"] : []),
        ],
        llm.map((a) => {
          const b = a.batch;
          return [
            a.run,
            a.agent,
            n(a.usage.calls),
            ...(anyBatch ? [n(b?.requests ?? 0)] : []),
            n(a.usage.cacheHits),
            n(a.usage.inputTokens),
            n(a.usage.cachedInputTokens),
            n(a.usage.outputTokens),
            n(a.usage.reasoningTokens),
            money(a.costUsd),
            ...(anyBatch ? [b ? money(b.savedUsd) : "—"] : []),
          ];
        }),
      ),
    );
    out.log(
      `resp. cache: answers from bazaar's own response cache (no call, no cost); prompt-cache tok.: of the prompt tokens, those the provider's prompt cache served, priced at the table's cachedInputPerMTok (else ${100 * CACHED_INPUT_SHARE}% of the input price)`,
    );
    if (anyBatch)
      out.log(
        "batch calls: answered through a provider's batch API, priced at the table's batch columns (or half the live rates; their prompt-cache hits at batchCachedInputPerMTok, else the batch input rate cut as a live hit's); saved: against the same calls made live",
      );
  } finally {
    store.close();
  }
}
