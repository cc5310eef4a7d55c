import { readFileSync } from "node:fs";
import { z } from "zod";
import { InvalidFileError, UserError } from "../environments/kernel/errors.ts";
import type { Usage } from "../environments/kernel/types.ts";

/**
 * Dollars per million tokens, per model (`gpt-4o-mini`) or agent label (`openai:gpt-4o-mini`); prompt
 * tokens the provider's prompt cache served at `cachedInputPerMTok` where given, else at
 * `CACHED_INPUT_SHARE` of the input rate; batch calls at the batch columns where given, else at
 * `BATCH_SHARE` of the live rates.
 */
const PriceTableSchema = z.record(
  z.string(),
  z
    .object({
      inputPerMTok: z.number().nonnegative(),
      cachedInputPerMTok: z.number().nonnegative().optional(),
      outputPerMTok: z.number().nonnegative(),
      batchInputPerMTok: z.number().nonnegative().optional(),
      batchOutputPerMTok: z.number().nonnegative().optional(),
    })
    .strict(),
);
export type PriceTable = z.infer<typeof PriceTableSchema>;

export function loadPriceTable(file: string): PriceTable {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new UserError(
      `cannot read the price table ${file}: ${(err as Error).message}`,
      'write JSON like {"gpt-4o-mini": {"inputPerMTok": 0.15, "outputPerMTok": 0.6}}',
    );
  }
  const r = PriceTableSchema.safeParse(raw);
  if (!r.success) {
    throw new InvalidFileError(
      file,
      r.error.issues.map((i) => ({ file, field: i.path.join("."), message: i.message })),
      'each entry is {"inputPerMTok": number, "outputPerMTok": number} (optionally "cachedInputPerMTok", "batchInputPerMTok", "batchOutputPerMTok")',
    );
  }
  return r.data;
}

/**
 * The share of the input price a prompt-cache hit costs where the table gives no
 * `cachedInputPerMTok`: OpenAI's rule when it introduced prompt caching, 50% off for GPT-4o, GPT-4o
 * mini and o1 (openai.com/index/api-prompt-caching, October 2024). Later families are discounted
 * more (GPT-4.1 to a quarter, the GPT-5 family to a tenth of the input price, per OpenAI's pricing
 * page), so without the column a cost is never understated; write `cachedInputPerMTok` for them and
 * for other providers.
 */
export const CACHED_INPUT_SHARE = 0.5;

/**
 * Dollars for live calls' tokens at one price: prompt-cache hits (a subset of the prompt tokens, as
 * the API counts them) at the cached-input rate, the rest of the prompt at the input rate.
 */
function liveUsd(p: PriceTable[string], input: number, cachedInput: number, output: number): number {
  const cached = Math.min(input, Math.max(0, cachedInput));
  const cachedRate = p.cachedInputPerMTok ?? p.inputPerMTok * CACHED_INPUT_SHARE;
  return ((input - cached) * p.inputPerMTok + cached * cachedRate + output * p.outputPerMTok) / 1e6;
}

/**
 * Dollar cost of an agent's usage, or null when the table has no price for it. Reasoning tokens are
 * billed as output tokens and are already inside the output count the API reports; answers from
 * bazaar's own response cache carry no tokens (no call was made), so they cost nothing.
 */
export function costOf(agent: string, usage: Usage, prices: PriceTable): number | null {
  const p = priceOf(agent, prices);
  if (!p) return null;
  return liveUsd(p, usage.inputTokens, usage.cachedInputTokens ?? 0, usage.outputTokens);
}

function priceOf(agent: string, prices: PriceTable): PriceTable[string] | undefined {
  const model = agent.includes(":") ? agent.slice(agent.lastIndexOf(":") + 1) : agent;
  return prices[agent] ?? prices[model];
}

/**
 * The share of the live price a batch call costs where the table gives no batch column: OpenAI's
 * Batch API bills half the synchronous rate (other providers: write their batch columns).
 */
export const BATCH_SHARE = 0.5;

/** Tokens of an agent's batch calls to one model (from the batch ledger). */
export interface BatchTokens {
  model: string;
  inputTokens: number;
  outputTokens: number;
}

/**
 * Cost of an agent's usage of which `batches` went through a batch API: those tokens at the batch
 * rates of their model, the rest at live rates; and what the batch tokens would have cost more as
 * live calls. Null when a price is missing (the agent's, or a batch model's).
 */
export function costWithBatch(
  agent: string,
  usage: Usage,
  batches: readonly BatchTokens[],
  prices: PriceTable,
): { costUsd: number; batchCostUsd: number; savedUsd: number } | null {
  let batchCostUsd = 0;
  let asLive = 0;
  let inTok = 0;
  let outTok = 0;
  for (const b of batches) {
    // A label names a pairing or a wrapper (`og-narrator:openai:m`): the batch knows its model.
    const p = priceOf(b.model, prices) ?? priceOf(agent, prices);
    if (!p) return null;
    const bin = p.batchInputPerMTok ?? p.inputPerMTok * BATCH_SHARE;
    const bout = p.batchOutputPerMTok ?? p.outputPerMTok * BATCH_SHARE;
    batchCostUsd += (b.inputTokens * bin + b.outputTokens * bout) / 1e6;
    asLive += (b.inputTokens * p.inputPerMTok + b.outputTokens * p.outputPerMTok) / 1e6;
    inTok += b.inputTokens;
    outTok += b.outputTokens;
  }
  // Trial usage counts every answer its trials used; what went through batches is the ledger's.
  // Batch answers carry no prompt-cache count (agents/llm/batch), so the cache hits are live calls'.
  const liveIn = Math.max(0, usage.inputTokens - inTok);
  const liveOut = Math.max(0, usage.outputTokens - outTok);
  let live = 0;
  if (liveIn + liveOut > 0) {
    const p =
      priceOf(agent, prices) ?? (batches.length === 1 ? priceOf(batches[0]!.model, prices) : undefined);
    if (!p) return null;
    live = liveUsd(p, liveIn, usage.cachedInputTokens ?? 0, liveOut);
  }
  return { costUsd: live + batchCostUsd, batchCostUsd, savedUsd: asLive - batchCostUsd };
}
