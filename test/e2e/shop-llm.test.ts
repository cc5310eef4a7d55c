/**
 * The shop's LLM path: `bazaar run shop --agent openai:<model>` drives the LangGraph agent through
 * ChatOpenAI over HTTP, tool calls included. Against serve-sim's simulated shoppers (known tastes),
 * the analysis recovers them through the real client, with parallel tool calls; against a scripted
 * OpenAI-compatible server, a message whose calls put a booking in the middle ends the episode there.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { CAREFUL_BETA } from "../../agents/sim/shop/index.ts";
import { shopEpisodesFromRecords, shopLogit } from "../../analysis/shop/index.ts";
import { createRng } from "../../environments/kernel/rng.ts";
import type { ShopTrialRecord } from "../../environments/shop/index.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";

/** Hundreds of model calls through the real client: room for a loaded 2-core machine. */
const HEAVY = 300_000;

async function ok(args: string[]): Promise<string> {
  const r = await runInProcess(args);
  expect(r.code, `${args.join(" ")}\n${r.err}`).toBe(0);
  return r.out;
}

async function runShop(cwd: string, args: string[]): Promise<ShopTrialRecord[]> {
  const store = path.join(cwd, "bazaar.db");
  const out = await ok(["run", "shop", ...args, "--store", store, "--no-cache", "--json"]);
  const { runId, stored, total } = JSON.parse(out) as { runId: string; stored: number; total: number };
  expect(stored).toBe(total);
  const file = path.join(cwd, `${runId}.jsonl`);
  await ok(["export", runId, "--store", store, "--out", file]);
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as ShopTrialRecord);
}

describe("the shop through ChatOpenAI against serve-sim", () => {
  let server: Awaited<ReturnType<typeof startSimServer>>;
  beforeAll(async () => {
    server = await startSimServer({ port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  it(
    "tools mode: parallel tool calls, every episode right, and the careful shopper's tastes recovered",
    async () => {
      const records = await runShop(tempDir(), [
        "--agent",
        "openai:sim-shop-careful",
        "--base-url",
        server.url,
        "--answer-mode",
        "tools",
        "--tasks",
        "120",
        "--families",
        "open:3,dominance:1",
        "--page-size",
        "4",
        "--replicates",
        "1",
        "--concurrency",
        "32",
      ]);
      expect(records).toHaveLength(120);
      for (const r of records) {
        expect(r.success, r.taskId).toBe(true);
        expect(r.nonResponse).toBeNull();
        expect(r.usage.calls).toBe(r.turns);
        expect(r.shown.filter((s) => s.admissible).every((s) => s.viewed)).toBe(true);
      }
      // Several calls in one model message, each answered: views of every acceptable result at once.
      const parallel = records.filter((r) =>
        r.trajectory.some((t, i) => i > 0 && t.turn === r.trajectory[i - 1]!.turn),
      );
      expect(parallel.length).toBeGreaterThan(80);
      const fit = shopLogit(shopEpisodesFromRecords(records), {
        referencePrice: 250,
        draws: 0,
        rng: createRng(1),
      });
      if (fit.status !== "ok") throw new Error(fit.reason);
      expect(fit.situations).toBe(120);
      for (const c of fit.fit.coefficients) {
        const truth = (CAREFUL_BETA as Record<string, number>)[c.name]!;
        expect(
          Math.abs(c.estimate - truth) / c.robustSe!,
          `${c.name}: ${c.estimate} vs ${truth}`,
        ).toBeLessThan(3.5);
      }
    },
    HEAVY,
  );

  it(
    "text mode: the same shopper writes Action lines, read by the grammar",
    async () => {
      const records = await runShop(tempDir(), [
        "--agent",
        "openai:sim-shop-careful,openai:sim-shop-first-result",
        "--base-url",
        server.url,
        "--answer-mode",
        "text",
        "--tasks",
        "20",
        "--replicates",
        "1",
      ]);
      const careful = records.filter((r) => r.agent === "openai:sim-shop-careful");
      expect(careful.every((r) => r.success)).toBe(true);
      expect(careful.some((r) => r.trajectory.filter((t) => t.turn === 2).length >= 2)).toBe(true);
      const hasty = records.filter((r) => r.agent === "openai:sim-shop-first-result");
      for (const r of hasty) expect(r.trajectory[0]).toMatchObject({ tool: "search", args: {}, ok: true });
    },
    HEAVY,
  );
});

/** An OpenAI-compatible server that searches, then views, books and views again in one message. */
function scriptedServer(): Promise<{ url: string; requests: unknown[]; close: () => Promise<void> }> {
  const requests: unknown[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      if (req.url?.endsWith("/models")) {
        res.end(JSON.stringify({ object: "list", data: [{ id: "scripted", object: "model" }] }));
        return;
      }
      // Not llama.cpp: the preflight's GET /props finds nothing here.
      if (req.method !== "POST") {
        res.statusCode = 404;
        res.end();
        return;
      }
      const r = JSON.parse(body) as {
        messages: { role: string; content: string | null; tool_call_id?: string }[];
      };
      requests.push(r);
      const results = r.messages.filter((m) => m.role === "tool");
      const call = (id: string, name: string, args: unknown) => ({
        id,
        type: "function",
        function: { name, arguments: JSON.stringify(args) },
      });
      let calls: unknown[];
      if (results.length === 0) calls = [call("call_search", "search", {})];
      else {
        const ids = [...(results[0]!.content ?? "").matchAll(/^\d+\. (\S+) · /gm)].map((m) => m[1]!);
        calls = [
          call("call_v1", "view", { id: ids[0] }),
          call("call_b", "book", { id: ids[1] }),
          call("call_v2", "view", { id: ids[2] }),
        ];
      }
      res.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: "chat.completion",
          created: 0,
          model: "scripted",
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: null, tool_calls: calls },
              finish_reason: "tool_calls",
              logprobs: null,
            },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        }),
      );
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/v1`,
        requests,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}

describe("parallel calls with a booking in the middle (a real client, a scripted model)", () => {
  it("runs the calls before the booking, books, and leaves the call after it not run", async () => {
    const scripted = await scriptedServer();
    try {
      const records = await runShop(tempDir(), [
        "--agent",
        "openai:scripted",
        "--base-url",
        scripted.url,
        "--answer-mode",
        "tools",
        "--tasks",
        "3",
        "--families",
        "open",
        "--replicates",
        "1",
      ]);
      expect(records).toHaveLength(3);
      for (const r of records) {
        expect(r.endReason).toBe("booked");
        expect(r.steps).toBe(3);
        expect(r.turns).toBe(2);
        expect(r.trajectory.map((t) => [t.step, t.tool, t.ok])).toEqual([
          [1, "search", true],
          [2, "view", true],
          [3, "book", true],
          [null, "view", false],
        ]);
        expect(r.booked!.id).toBe(r.shown[1]!.id);
        expect(r.shown[0]!.viewed).toBe(true);
        expect(r.shown[2]!.viewed).toBe(false);
      }
      // The second request answered the search call by its id.
      type Sent = { messages: { role: string; tool_call_id?: string }[] };
      const second = (scripted.requests as Sent[]).find((q) => q.messages.some((m) => m.role === "tool"))!;
      expect(second.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
      expect(second.messages[3]!.tool_call_id).toBe("call_search");
    } finally {
      await scripted.close();
    }
  });
});
