import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CACHED_INPUT_SHARE, costOf, costWithBatch, loadPriceTable } from "../../cli/prices.ts";
import { emptyUsage, type Usage } from "../../environments/kernel/types.ts";
import { tempDir } from "../helpers/cli.ts";

const usage = (u: Partial<Usage>): Usage => ({ ...emptyUsage(), ...u });

describe("price table", () => {
  it("bills prompt-cache hits at the cached-input price: a subset of the prompt tokens", () => {
    const prices = { "gpt-4o-mini": { inputPerMTok: 0.15, cachedInputPerMTok: 0.075, outputPerMTok: 0.6 } };
    const u = usage({ calls: 3, inputTokens: 10_000, cachedInputTokens: 4_000, outputTokens: 500 });
    // By hand: 6,000 uncached × $0.15 + 4,000 cached × $0.075 + 500 × $0.60, per million.
    expect(costOf("openai:gpt-4o-mini", u, prices)).toBeCloseTo((900 + 300 + 300) / 1e6, 15);
    // The same tokens without hits cost the full input price.
    expect(costOf("gpt-4o-mini", usage({ inputTokens: 10_000, outputTokens: 500 }), prices)).toBeCloseTo(
      (1500 + 300) / 1e6,
      15,
    );
  });

  it("without the column, a hit costs CACHED_INPUT_SHARE of the input price (OpenAI's 50%)", () => {
    expect(CACHED_INPUT_SHARE).toBe(0.5);
    const prices = { m: { inputPerMTok: 2, outputPerMTok: 8 } };
    const u = usage({ inputTokens: 1_000_000, cachedInputTokens: 600_000, outputTokens: 100_000 });
    // 400k × $2 + 600k × $1 + 100k × $8, per million.
    expect(costOf("openai:m", u, prices)).toBeCloseTo(0.8 + 0.6 + 0.8, 12);
    // More hits than prompt tokens (a server that miscounts) bill no negative prompt.
    expect(costOf("m", usage({ inputTokens: 100, cachedInputTokens: 500 }), prices)).toBeCloseTo(100e-6, 15);
  });

  it("an answer from bazaar's response cache carries no tokens and costs nothing", () => {
    const prices = { m: { inputPerMTok: 2, outputPerMTok: 8 } };
    expect(costOf("openai:m", usage({ cacheHits: 40 }), prices)).toBe(0);
  });

  it("reads a table written before the column, and prices old trials (no cachedInputTokens) as before", () => {
    const file = path.join(tempDir("bazaar-prices-"), "prices.json");
    writeFileSync(file, JSON.stringify({ "gpt-4o-mini": { inputPerMTok: 0.15, outputPerMTok: 0.6 } }));
    const prices = loadPriceTable(file);
    expect(
      costOf("openai:gpt-4o-mini", usage({ inputTokens: 2_000, outputTokens: 100 }), prices),
    ).toBeCloseTo((300 + 60) / 1e6, 15);
    writeFileSync(file, JSON.stringify({ m: { inputPerMTok: 1, outputPerMTok: 2, cachedInputPerMTok: -1 } }));
    expect(() => loadPriceTable(file)).toThrow(/cachedInputPerMTok/);
  });

  it("a batch run: the ledger's tokens at batch rates, the live rest with its hits at the cached rate", () => {
    const prices = { m: { inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 8 } };
    const u = usage({ inputTokens: 3_000_000, cachedInputTokens: 1_000_000, outputTokens: 200_000 });
    const batch = [{ model: "m", inputTokens: 1_000_000, outputTokens: 100_000 }];
    const c = costWithBatch("openai:m", u, batch, prices)!;
    // Batch: 1M × $1 + 100k × $4. Live: 1M uncached × $2 + 1M cached × $0.5 + 100k × $8.
    expect(c.batchCostUsd).toBeCloseTo(1 + 0.4, 12);
    expect(c.costUsd).toBeCloseTo(1.4 + 2 + 0.5 + 0.8, 12);
  });
});
