import { readFileSync } from "node:fs";
import { z } from "zod";
import { InvalidFileError, UserError } from "../environments/kernel/errors.ts";
import type { Usage } from "../environments/kernel/types.ts";

/**
 * Dollars per million tokens, per model (`gpt-4o-mini`) or agent label (`openai:gpt-4o-mini`); prompt
 * tokens the provider's prompt cache served at `cachedInputPerMTok` where given, else at
 * `CACHED_INPUT_SHARE` of the input rate; batch calls at the batch columns where given, else at
 * `BATCH_SHARE` of the live rates; a batch call's prompt-cache hits at `batchCachedInputPerMTok`
 * where given, else at the batch input rate discounted as the live rates discount a hit (`batchRates`).
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
      batchCachedInputPerMTok: z.number().nonnegative().optional(),
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
      'each entry is {"inputPerMTok": number, "outputPerMTok": number} (optionally "cachedInputPerMTok", "batchInputPerMTok", "batchCachedInputPerMTok", "batchOutputPerMTok")',
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
  return usd(liveRates(p), input, cachedInput, output);
}

/** Dollars per million tokens of one kind of call: uncached input, prompt-cache hits, output. */
interface Rates {
  input: number;
  cachedInput: number;
  output: number;
}

function liveRates(p: PriceTable[string]): Rates {
  return {
    input: p.inputPerMTok,
    cachedInput: p.cachedInputPerMTok ?? p.inputPerMTok * CACHED_INPUT_SHARE,
    output: p.outputPerMTok,
  };
}

/**
 * A batch call's rates: the batch columns where given, else `BATCH_SHARE` of the live rates. Its
 * prompt-cache hits: `batchCachedInputPerMTok` where given, else the batch input rate discounted by the
 * share of the input rate a live hit costs (`cachedInputPerMTok` ÷ `inputPerMTok`, or
 * `CACHED_INPUT_SHARE`) — the two discounts stack, as OpenAI bills a batch call's cached input (its
 * pricing page: the batch cached-input price is the live one halved, e.g. GPT-5 $0.0625 against
 * $0.125) and Anthropic its batches' cache reads. Without any batch column that is `BATCH_SHARE` of
 * the live cached-input rate.
 */
function batchRates(p: PriceTable[string]): Rates {
  const live = liveRates(p);
  const input = p.batchInputPerMTok ?? live.input * BATCH_SHARE;
  const cacheShare = live.input > 0 ? live.cachedInput / live.input : CACHED_INPUT_SHARE;
  return {
    input,
    cachedInput: p.batchCachedInputPerMTok ?? input * cacheShare,
    output: p.batchOutputPerMTok ?? live.output * BATCH_SHARE,
  };
}

/**
 * Dollars for tokens at one kind of call's rates: prompt-cache hits (a subset of the prompt tokens, as
 * the API counts them) at the cached-input rate, the rest of the prompt at the input rate.
 */
function usd(r: Rates, input: number, cachedInput: number, output: number): number {
  const cached = Math.min(input, Math.max(0, cachedInput));
  return ((input - cached) * r.input + cached * r.cachedInput + output * r.output) / 1e6;
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
  /** Of the input tokens, the provider's prompt-cache hits (absent or 0 in ledgers before they were kept). */
  cachedInputTokens?: number;
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
  let cachedTok = 0;
  let outTok = 0;
  for (const b of batches) {
    // A label names a pairing or a wrapper (`og-narrator:openai:m`): the batch knows its model.
    const p = priceOf(b.model, prices) ?? priceOf(agent, prices);
    if (!p) return null;
    const cached = b.cachedInputTokens ?? 0;
    batchCostUsd += usd(batchRates(p), b.inputTokens, cached, b.outputTokens);
    asLive += usd(liveRates(p), b.inputTokens, cached, b.outputTokens);
    inTok += b.inputTokens;
    cachedTok += Math.min(b.inputTokens, Math.max(0, cached));
    outTok += b.outputTokens;
  }
  // Trial usage counts every answer its trials used, batch answers' prompt-cache hits among them
  // (ChatOpenAI reads them from the batch line's body as from a live answer); what went through
  // batches is the ledger's, its hits included — the rest, hits and all, is live calls'.
  const liveIn = Math.max(0, usage.inputTokens - inTok);
  const liveCached = Math.max(0, (usage.cachedInputTokens ?? 0) - cachedTok);
  const liveOut = Math.max(0, usage.outputTokens - outTok);
  let live = 0;
  if (liveIn + liveOut > 0) {
    const p =
      priceOf(agent, prices) ?? (batches.length === 1 ? priceOf(batches[0]!.model, prices) : undefined);
    if (!p) return null;
    live = liveUsd(p, liveIn, liveCached, liveOut);
  }
  return { costUsd: live + batchCostUsd, batchCostUsd, savedUsd: asLive - batchCostUsd };
}

/**
 * Dollar cost of usage made wholly through a batch API (the live view of `run --batch`: every call of
 * the process goes in a batch), or null without a price.
 */
export function batchCostOf(agent: string, usage: Usage, prices: PriceTable): number | null {
  const t = {
    model: agent,
    inputTokens: usage.inputTokens,
    cachedInputTokens: usage.cachedInputTokens ?? 0,
    outputTokens: usage.outputTokens,
  };
  return costWithBatch(agent, usage, [t], prices)?.costUsd ?? null;
}
