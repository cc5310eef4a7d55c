import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listRuns } from "../../cli/actions/runs.ts";
import type { Output } from "../../cli/output.ts";
import { spentLines } from "../../cli/tui/spent.ts";
import type { Usage } from "../../environments/kernel/types.ts";
import { Store, type StoredTrial } from "../../environments/store/index.ts";
import { tempDir } from "../helpers/cli.ts";

/** A trial of an LLM agent with this usage (`cached` absent: a trial stored before the count). */
function trial(seq: number, agent: string, u: Partial<Usage>): StoredTrial {
  const usage = {
    calls: 1,
    cacheHits: 0,
    inputTokens: 0,
    outputTokens: 0,
    reasoningTokens: 0,
    latencyMs: 5,
    ...u,
  };
  return {
    runId: "r1",
    seq,
    trialKey: `k${seq}`,
    agent,
    taskIndex: 0,
    replicate: 0,
    nonResponse: false,
    agentError: false,
    resultJson: JSON.stringify({ outcome: { chosenSlot: 0 }, usage }),
  };
}

/** A store with one run: two trials that counted prompt-cache hits, one stored before it, one from bazaar's cache. */
function storeWithRun(): { file: string; prices: string } {
  const dir = tempDir("bazaar-runs-");
  const file = path.join(dir, "t.db");
  const store = Store.open(file, { create: true });
  store.ensureRun({ id: "r1", env: "choice", config: { design: 1 }, total: 8 }, [{ taskId: "t0" }]);
  store.writeTrials([
    trial(0, "openai:gpt-4o-mini", { inputTokens: 10_000, cachedInputTokens: 4_000, outputTokens: 500 }),
    trial(1, "openai:gpt-4o-mini", { inputTokens: 10_000, cachedInputTokens: 2_000, outputTokens: 500 }),
    trial(2, "openai:gpt-4o-mini", { inputTokens: 5_000, outputTokens: 100 }),
    trial(3, "openai:gpt-4o-mini", { calls: 0, cacheHits: 1 }),
    trial(4, "sim:steep", { calls: 0 }),
  ]);
  store.close();
  const prices = path.join(dir, "prices.json");
  writeFileSync(
    prices,
    JSON.stringify({ "gpt-4o-mini": { inputPerMTok: 0.15, cachedInputPerMTok: 0.075, outputPerMTok: 0.6 } }),
  );
  return { file, prices };
}

function capture(): Output & { text: () => string } {
  const lines: string[] = [];
  return { log: (l) => lines.push(l), error: (l) => lines.push(l), text: () => lines.join("\n") };
}

// By hand: 25,000 prompt tokens of which 6,000 cache hits, 1,100 completion tokens.
const HAND_USD = (19_000 * 0.15 + 6_000 * 0.075 + 1_100 * 0.6) / 1e6;

describe("bazaar runs", () => {
  it("--json: prompt, prompt-cache and completion tokens per agent and per run, and the cost", () => {
    const { file, prices } = storeWithRun();
    const out = capture();
    listRuns({ store: file, json: true, prices }, out);
    const [run] = JSON.parse(out.text()) as {
      spent: { inputTokens: number; cachedInputTokens: number; outputTokens: number; costUsd: number };
      usageByAgent: { agent: string; usage: Usage & { cachedInputTokens: number }; costUsd: number | null }[];
    }[];
    const llm = run!.usageByAgent.find((a) => a.agent === "openai:gpt-4o-mini")!;
    expect(llm.usage).toMatchObject({
      calls: 3,
      cacheHits: 1,
      inputTokens: 25_000,
      cachedInputTokens: 6_000,
      outputTokens: 1_100,
    });
    expect(llm.costUsd).toBeCloseTo(HAND_USD, 15);
    // An agent that called nothing: its hits are 0, not absent; a sim agent needs no price.
    expect(run!.usageByAgent.find((a) => a.agent === "sim:steep")!.usage.cachedInputTokens).toBe(0);
    expect(run!.spent).toMatchObject({ inputTokens: 25_000, cachedInputTokens: 6_000, outputTokens: 1_100 });
    expect(run!.spent.costUsd).toBeCloseTo(HAND_USD, 15);
  });

  it("the table: bazaar's cache hits apart from the provider's prompt-cache tokens, and the cost", () => {
    const { file, prices } = storeWithRun();
    const out = capture();
    listRuns({ store: file, prices }, out);
    const text = out.text();
    expect(text).toMatch(/resp\. cache +prompt tok\. +prompt-cache tok\. +completion tok\./);
    expect(text).toMatch(/openai:gpt-4o-mini +3 +1 +25,000 +6,000 +1,100 +0 +0\.0040/);
    expect(text).toContain(
      "prompt-cache tok.: of the prompt tokens, those the provider's prompt cache served",
    );
  });

  it("the run summary's lines: per LLM agent its tokens and cost, nothing for simulated agents", () => {
    const mini = {
      agent: "openai:gpt-4o-mini",
      usage: { calls: 3, cacheHits: 1, inputTokens: 25_000, cachedInputTokens: 6_000, outputTokens: 1_100 },
      costUsd: HAND_USD,
    };
    const sim = {
      agent: "sim:steep",
      usage: { calls: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0 },
      costUsd: null,
    };
    expect(spentLines([mini, sim], true)).toEqual([
      "spent by openai:gpt-4o-mini over the run: 25,000 prompt tokens (6,000 of them prompt-cache hits), 1,100 completion tokens in 3 calls (and 1 answer from bazaar's response cache, free) · cost $0.0040",
    ]);
    expect(spentLines([sim], true)).toEqual([]);
    // Without a table the line says how to get the cost; a trial stored before the count shows 0 hits.
    const old = { ...mini, usage: { ...mini.usage, cachedInputTokens: undefined }, costUsd: null };
    expect(spentLines([old], false)[0]).toMatch(
      /\(0 of them prompt-cache hits\).* · cost: --prices <table\.json> gives it$/,
    );
    const two = spentLines([mini, { ...mini, agent: "openai:gpt-4o", costUsd: null }], true);
    expect(two).toHaveLength(3);
    expect(two[1]).toMatch(/no price in the table$/);
    expect(two[2]).toMatch(
      /^spent in all: 50,000 prompt tokens \(12,000 of them prompt-cache hits\).* · no price in the table$/,
    );
  });
});
