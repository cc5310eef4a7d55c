import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { batchCostOf, CACHED_INPUT_SHARE, costOf, costWithBatch, loadPriceTable } from "../../cli/prices.ts";
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

  it("a mixed run: the ledger's hits at the batch cached rate, only the rest of the hits at the live one", () => {
    const prices = {
      m: {
        inputPerMTok: 2,
        cachedInputPerMTok: 0.5,
        outputPerMTok: 8,
        batchInputPerMTok: 1,
        batchCachedInputPerMTok: 0.2,
        batchOutputPerMTok: 4,
      },
    };
    // Live: 2M prompt (600k hits), 100k completion. Batch: 1M prompt (700k hits), 100k completion.
    const u = usage({ inputTokens: 3_000_000, cachedInputTokens: 1_300_000, outputTokens: 200_000 });
    const batch = [{ model: "m", inputTokens: 1_000_000, cachedInputTokens: 700_000, outputTokens: 100_000 }];
    const c = costWithBatch("openai:m", u, batch, prices)!;
    // Batch: 300k × $1 + 700k × $0.2 + 100k × $4. Live: 1.4M × $2 + 600k × $0.5 + 100k × $8.
    expect(c.batchCostUsd).toBeCloseTo(0.3 + 0.14 + 0.4, 12);
    expect(c.costUsd).toBeCloseTo(0.84 + 2.8 + 0.3 + 0.8, 12);
    // Saved: the batch tokens as live calls (300k × $2 + 700k × $0.5 + 100k × $8) less their batch cost.
    expect(c.savedUsd).toBeCloseTo(0.6 + 0.35 + 0.8 - 0.84, 12);
  });

  it("without batch columns a batch hit costs the live cached rate halved; with a batch input rate, that rate cut as a live hit is", () => {
    const u = usage({ inputTokens: 1_000_000, cachedInputTokens: 800_000, outputTokens: 0 });
    const all = [{ model: "m", inputTokens: 1_000_000, cachedInputTokens: 800_000, outputTokens: 0 }];
    // No batch columns: 200k × $1 (half of $2) + 800k × $0.25 (half of $0.5).
    const plain = { m: { inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 8 } };
    expect(costWithBatch("openai:m", u, all, plain)!.costUsd).toBeCloseTo(0.2 + 0.2, 12);
    // batchInputPerMTok $1.2: a hit costs it × 0.5/2 = $0.3, so 200k × $1.2 + 800k × $0.3.
    const own = { m: { ...plain.m, batchInputPerMTok: 1.2 } };
    expect(costWithBatch("openai:m", u, all, own)!.costUsd).toBeCloseTo(0.24 + 0.24, 12);
    // No cached column either: a live hit is half the input, a batch hit half the batch input ($0.6).
    const bare = { m: { inputPerMTok: 2, outputPerMTok: 8, batchInputPerMTok: 1.2 } };
    expect(costWithBatch("openai:m", u, all, bare)!.costUsd).toBeCloseTo(0.24 + 0.48, 12);
    // The live view of a batch run prices its usage the same way.
    expect(batchCostOf("openai:m", u, own)).toBeCloseTo(0.48, 12);
    expect(batchCostOf("openai:other", u, own)).toBeNull();
  });

  it("a ledger without hits (written before they were kept) leaves every hit to the live calls, as before", () => {
    const prices = { m: { inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 8 } };
    const u = usage({ inputTokens: 3_000_000, cachedInputTokens: 1_000_000, outputTokens: 0 });
    const c = costWithBatch(
      "openai:m",
      u,
      [{ model: "m", inputTokens: 1_000_000, outputTokens: 0 }],
      prices,
    )!;
    // Batch: 1M × $1. Live: 1M × $2 + 1M × $0.5.
    expect(c.costUsd).toBeCloseTo(1 + 2 + 0.5, 12);
  });
});
