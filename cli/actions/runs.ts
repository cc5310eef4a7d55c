import { type BatchUsage, batchLedger } from "../../environments/store/batches.ts";
import { Store } from "../../environments/store/index.ts";
import { listMarkets, marketSummary } from "../../environments/store/markets.ts";
import { type Output, printJson } from "../output.ts";
import { costOf, costWithBatch, loadPriceTable, type PriceTable } from "../prices.ts";
import { shownStore } from "../store-option.ts";
import { renderTable } from "../table.ts";
import { causeLines, leftLine, notesOf } from "./failure-lines.ts";

const n = (x: number) => Math.round(x).toLocaleString("en-US");

/** The agents column stays readable for tournaments (`--json` has the full list). */
function agentsCell(agents: string[]): string {
  const all = agents.join(",");
  return all.length <= 48 ? all : `${agents.length} agents: ${all.slice(0, 36)}…`;
}

/** `bazaar runs`: the store's runs, with model calls, tokens and (with --prices) dollar cost. */
export function listRuns(o: { store: string; json?: boolean; prices?: string }, out: Output) {
  const prices: PriceTable | undefined = o.prices ? loadPriceTable(o.prices) : undefined;
  const store = Store.open(o.store, { create: false, readonly: true });
  try {
    // Calls made through a batch API are in the batch ledger, priced at batch rates.
    const batched = new Map<string, BatchUsage[]>();
    for (const b of batchLedger(store).usage()) {
      const key = `${b.runId}\u0000${b.agent}`;
      batched.set(key, [...(batched.get(key) ?? []), b]);
    }
    const runs = store.listRuns().map((r) => {
      const byAgent = store.usageByAgent(r.id).map((a) => {
        const b = batched.get(`${r.id}\u0000${a.agent}`);
        if (!b) return { ...a, costUsd: prices ? costOf(a.agent, a.usage, prices) : null };
        const priced = prices ? costWithBatch(a.agent, a.usage, b, prices) : null;
        const sum = (f: (x: BatchUsage) => number) => b.reduce((t, x) => t + f(x), 0);
        return {
          ...a,
          costUsd: priced?.costUsd ?? null,
          batch: {
            requests: sum((x) => x.requests),
            inputTokens: sum((x) => x.inputTokens),
            outputTokens: sum((x) => x.outputTokens),
            costUsd: priced?.batchCostUsd ?? null,
            savedUsd: priced?.savedUsd ?? null,
          },
        };
      });
      return { ...r, ...notesOf(store, r.id), usageByAgent: byAgent };
    });
    // Market runs (`bazaar run market`): one row each, standing for their rounds' runs.
    const markets = listMarkets(store).map((m) => ({
      ...marketSummary(store, m.id)!,
      runs: m.runs,
      usageByAgent: [] as (typeof runs)[number]["usageByAgent"],
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
    const anyBatch = llm.some((a) => "batch" in a);
    const money = (x: number | null | undefined) => (x == null ? (prices ? "no price" : "—") : x.toFixed(4));
    out.log("");
    out.log(
      renderTable(
        [
          "run",
          "agent",
          "calls",
          ...(anyBatch ? ["batch calls"] : []),
          "cached",
          "input tok.",
          "output tok.",
          "reasoning tok.",
          "cost $",
          ...(anyBatch ? ["saved $"] : []),
        ],
        llm.map((a) => {
          const b = "batch" in a ? a.batch : undefined;
          return [
            a.run,
            a.agent,
            n(a.usage.calls),
            ...(anyBatch ? [n(b?.requests ?? 0)] : []),
            n(a.usage.cacheHits),
            n(a.usage.inputTokens),
            n(a.usage.outputTokens),
            n(a.usage.reasoningTokens),
            money(a.costUsd),
            ...(anyBatch ? [b ? money(b.savedUsd) : "—"] : []),
          ];
        }),
      ),
    );
    if (anyBatch)
      out.log(
        "batch calls: answered through a provider's batch API, priced at the table's batch columns (or half the live rates); saved: against the same calls made live",
      );
  } finally {
    store.close();
  }
}
