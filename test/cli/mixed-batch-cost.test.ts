/**
 * A run whose calls are partly live and partly through a batch API, with prompt-cache hits on both:
 * the run summary, `bazaar runs` and `bazaar batches` price each call by how it was made — live
 * input, live cached input, batch input, batch cached input, output (reasoning inside it) — checked
 * against a hand computation from the token counts and the price table. serve-sim reports live hits
 * (`promptCache`); its batch lines carry none, so a proxy in front of it writes `cached_tokens` into
 * the batch output lines as OpenAI's batch output does, and counts what it wrote.
 */
import { writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SimServer, startSimServer } from "../../agents/serve-sim/index.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";

let sim: SimServer;
let proxy: http.Server;
let proxyUrl: string;
/** What the proxy's batch output lines said: their tokens, and the cache hits it wrote into them. */
const batchSaid = { lines: 0, input: 0, cached: 0, output: 0 };

const CONTENT = /^\/v1\/files\/[^/]+\/content/;

/** A batch output line with `cached_tokens`: half the prompt, rounded down (a subset, as the API counts). */
function withHits(line: string): string {
  const l = JSON.parse(line) as {
    response?: { body?: { usage?: Record<string, unknown> } } | null;
  };
  const u = l.response?.body?.usage;
  if (!u || typeof u.prompt_tokens !== "number") return line;
  const cached = Math.floor(u.prompt_tokens / 2);
  u.prompt_tokens_details = { cached_tokens: cached };
  batchSaid.lines++;
  batchSaid.input += u.prompt_tokens;
  batchSaid.cached += cached;
  batchSaid.output += u.completion_tokens as number;
  return JSON.stringify(l);
}

beforeAll(async () => {
  sim = await startSimServer({ port: 0, promptCache: true });
  proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === "string" && !["host", "content-length", "connection"].includes(k)) headers[k] = v;
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const r = await fetch(`${sim.url.replace(/\/v1$/, "")}${req.url}`, {
        method: req.method,
        headers,
        ...(body && req.method !== "GET" ? { body } : {}),
      });
      let text = await r.text();
      if (req.method === "GET" && CONTENT.test(req.url ?? "") && r.ok)
        text = text
          .split("\n")
          .map((l) => (l.trim() === "" ? l : withHits(l)))
          .join("\n");
      res.writeHead(r.status, { "content-type": r.headers.get("content-type") ?? "application/json" });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${new URL(sim.url).pathname}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await sim.close();
});

interface Spent {
  agent: string;
  usage: { inputTokens: number; cachedInputTokens: number; outputTokens: number; calls: number };
  costUsd: number | null;
  batch?: { requests: number; inputTokens: number; outputTokens: number; costUsd: number; savedUsd: number };
}

async function json<T>(args: string[]): Promise<T> {
  const r = await runInProcess([...args, "--json"]);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out) as T;
}

describe("a run made partly live, partly in batches, with prompt-cache hits on both", () => {
  it("prices live input, live hits, batch input, batch hits and output each at its own rate", async () => {
    const dir = tempDir();
    const store = path.join(dir, "s.db");
    const args = [
      "run",
      "choice",
      "--pairs",
      "3",
      "--triples",
      "0",
      "--fives",
      "0",
      "--agent",
      "openai:sim-steep",
      "--base-url",
      proxyUrl,
      "--store",
      store,
    ];
    // Every rate distinct, so a token priced at the wrong one shows.
    const table = {
      inputPerMTok: 3,
      cachedInputPerMTok: 0.7,
      outputPerMTok: 11,
      batchInputPerMTok: 1.3,
      batchOutputPerMTok: 5,
    };
    const prices = path.join(dir, "prices.json");
    writeFileSync(prices, JSON.stringify({ "sim-steep": table }));
    // Half the trials live, then the rest of the same run through the batch API.
    const first = await json<{ runId: string; spent: { agents: Spent[] } }>([...args, "--limit", "5"]);
    const live = first.spent.agents[0]!.usage;
    expect(live.cachedInputTokens).toBeGreaterThan(0);
    expect(live.cachedInputTokens).toBeLessThan(live.inputTokens);
    const second = await json<{
      runId: string;
      stored: number;
      total: number;
      batch: { costUsd: number; savedUsd: number };
      spent: { costUsd: number; agents: Spent[] };
    }>([...args, "--batch", "--prices", prices]);
    expect(second.runId).toBe(first.runId);
    expect(second.stored).toBe(second.total);
    expect(batchSaid.lines).toBeGreaterThan(0);
    const all = second.spent.agents[0]!;
    // The trials count every call's tokens, the batch hits among them (ChatOpenAI read them).
    expect(all.usage.inputTokens).toBe(live.inputTokens + batchSaid.input);
    expect(all.usage.cachedInputTokens).toBe(live.cachedInputTokens + batchSaid.cached);
    expect(all.usage.outputTokens).toBe(live.outputTokens + batchSaid.output);

    // By hand. The table has no batchCachedInputPerMTok: a batch hit costs the batch input rate cut
    // as the live rates cut a hit (0.7 / 3 of it) — the batch and cache discounts stack.
    const batchCachedRate = (table.batchInputPerMTok * table.cachedInputPerMTok) / table.inputPerMTok;
    const liveUsd =
      ((live.inputTokens - live.cachedInputTokens) * table.inputPerMTok +
        live.cachedInputTokens * table.cachedInputPerMTok +
        live.outputTokens * table.outputPerMTok) /
      1e6;
    const batchUsd =
      ((batchSaid.input - batchSaid.cached) * table.batchInputPerMTok +
        batchSaid.cached * batchCachedRate +
        batchSaid.output * table.batchOutputPerMTok) /
      1e6;
    const batchAsLiveUsd =
      ((batchSaid.input - batchSaid.cached) * table.inputPerMTok +
        batchSaid.cached * table.cachedInputPerMTok +
        batchSaid.output * table.outputPerMTok) /
      1e6;
    expect(all.costUsd).toBeCloseTo(liveUsd + batchUsd, 12);
    expect(second.spent.costUsd).toBeCloseTo(liveUsd + batchUsd, 12);
    expect(all.batch!.costUsd).toBeCloseTo(batchUsd, 12);
    expect(all.batch!.savedUsd).toBeCloseTo(batchAsLiveUsd - batchUsd, 12);
    expect(second.batch.costUsd).toBeCloseTo(batchUsd, 12);
    expect(second.batch.savedUsd).toBeCloseTo(batchAsLiveUsd - batchUsd, 12);

    // `bazaar runs` and `bazaar batches` read the same store the same way.
    const runs = await json<{ id: string; spent: { costUsd: number }; usageByAgent: Spent[] }[]>([
      "runs",
      "--store",
      store,
      "--prices",
      prices,
    ]);
    const listed = runs.find((r) => r.id === first.runId)!;
    expect(listed.usageByAgent[0]!.costUsd).toBeCloseTo(liveUsd + batchUsd, 12);
    expect(listed.spent.costUsd).toBeCloseTo(liveUsd + batchUsd, 12);
    const batches = await json<{ costUsd: number }[]>(["batches", "--store", store, "--prices", prices]);
    expect(batches.reduce((t, b) => t + b.costUsd, 0)).toBeCloseTo(batchUsd, 12);
  });
});
