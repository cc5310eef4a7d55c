/**
 * The run summary's lines of what a run spent on models: per LLM agent its prompt tokens (and of
 * them the provider's prompt-cache hits), completion tokens, calls and dollar cost. Pure: the
 * command reads the store and the price table (cli/actions/runs.ts `spentByAgent`).
 */
import { cost, count } from "./format.ts";

/** What the lines need of an agent's usage (the store's sums, priced). */
export interface SpentRow {
  agent: string;
  usage: {
    calls: number;
    cacheHits: number;
    inputTokens: number;
    cachedInputTokens?: number;
    outputTokens: number;
  };
  costUsd: number | null;
}

function spentLine(who: string, u: SpentRow["usage"], usd: string): string {
  const free =
    u.cacheHits > 0
      ? ` (and ${count(u.cacheHits)} answer${u.cacheHits === 1 ? "" : "s"} from bazaar's response cache, free)`
      : "";
  return `${who}: ${count(u.inputTokens)} prompt tokens (${count(u.cachedInputTokens ?? 0)} of them prompt-cache hits), ${count(u.outputTokens)} completion tokens in ${count(u.calls)} call${u.calls === 1 ? "" : "s"}${free} · ${usd}`;
}

/**
 * One line per agent that asked a model anything over the whole run (stored and failed trials), and
 * a total when there are several; nothing for a run of simulated agents. `priced`: whether a price
 * table was given (without one the lines say how to get the cost).
 */
export function spentLines(agents: readonly SpentRow[], priced: boolean): string[] {
  const calling = agents.filter((a) => a.usage.calls + a.usage.cacheHits > 0);
  if (calling.length === 0) return [];
  const usd = (x: number | null) =>
    priced
      ? x === null
        ? "no price in the table"
        : `cost ${cost(x)}`
      : "cost: --prices <table.json> gives it";
  const lines = calling.map((a) => spentLine(`spent by ${a.agent} over the run`, a.usage, usd(a.costUsd)));
  if (calling.length > 1) {
    const sum = (f: (u: SpentRow["usage"]) => number) => calling.reduce((t, a) => t + f(a.usage), 0);
    const total = {
      calls: sum((u) => u.calls),
      cacheHits: sum((u) => u.cacheHits),
      inputTokens: sum((u) => u.inputTokens),
      cachedInputTokens: sum((u) => u.cachedInputTokens ?? 0),
      outputTokens: sum((u) => u.outputTokens),
    };
    const all = calling.every((a) => a.costUsd !== null) ? calling.reduce((t, a) => t + a.costUsd!, 0) : null;
    lines.push(spentLine("spent in all", total, usd(all)));
  }
  return lines;
}
