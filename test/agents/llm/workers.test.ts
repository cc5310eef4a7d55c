import { getEventListeners } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryResponseCache } from "../../../agents/llm/cache.ts";
import { endpointLimits } from "../../../agents/llm/gate.ts";
import { autoWorkers, llmWorkerHost } from "../../../agents/llm/host.ts";
import { workerPool } from "../../../agents/llm/workers.ts";
import { type LlmContext, resolveChoiceAgent } from "../../../agents/registry.ts";
import { startSimServer } from "../../../agents/serve-sim/index.ts";
import type { SimServer, SimServerOptions } from "../../../agents/serve-sim/types.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../../../environments/choice/design.ts";
import { choiceEnvironment } from "../../../environments/choice/environment.ts";
import type { AgentEntry } from "../../../environments/kernel/types.ts";
import { executeRun } from "../../../environments/runner/execute.ts";
import { planRun } from "../../../environments/runner/plan.ts";
import { Store } from "../../../environments/store/index.ts";

const tasks = buildChoiceTasks(
  { pairs: 30, pairAppearances: 2, triples: 0, fives: 0, seed: 3 },
  DEFAULT_HOTEL_POOL,
);
let dir: string;
let modelNo = 0;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "bazaar-workers-"));
});
afterAll(async () => {
  await workerPool(2).terminate();
  rmSync(dir, { recursive: true, force: true });
});

async function withServer<T>(options: SimServerOptions, f: (s: SimServer) => Promise<T>): Promise<T> {
  const server = await startSimServer(options);
  try {
    return await f(server);
  } finally {
    await server.close();
  }
}

/** A fresh LLM context per test: endpoints (cap, breaker) are shared per base URL and model. */
function llmFor(server: SimServer, settings: LlmContext["settings"] = {}, cache?: MemoryResponseCache) {
  return {
    settings: { baseURL: server.url, maxRetries: 3, useCache: cache !== undefined, ...settings },
    cache,
  } satisfies LlmContext;
}

function plan(agents: AgentEntry[], label = `t${++modelNo}`) {
  return planRun({
    env: choiceEnvironment,
    settings: { maxReasks: 0 },
    tasks,
    agents,
    replicates: 1,
    design: { test: label },
  });
}

function outcomes(store: Store, runId: string) {
  return [...store.trialRows(runId)].map((r) => ({
    seq: r.seq,
    trialKey: r.trialKey,
    chosenSlot: (r.result as { outcome: { chosenSlot: number | null } }).outcome.chosenSlot,
  }));
}

describe("executeRun with LLM agents in worker threads", () => {
  it("stores the same trials as a run in this thread, each once, and forwards retries", async () => {
    await withServer({ faults: { rate429: 0.15 }, retryAfterSeconds: 0 }, async (server) => {
      let retries = 0;
      const results: ReturnType<typeof outcomes>[] = [];
      for (const workers of [0, 2]) {
        // Ten retries: a trial sees eleven 429s in a row with probability 0.15¹¹ (≈ 9e-10), so every
        // trial is answered, however the requests interleave on a loaded machine.
        const llm = { ...llmFor(server, { maxRetries: 10 }), events: { onRetry: () => retries++ } };
        const p = plan([resolveChoiceAgent("openai:sim-steep", llm)], "same");
        const store = Store.open(path.join(dir, `same-${workers}.db`), { create: true });
        const r = await executeRun(p, store, { concurrency: 8, hostAgents: llmWorkerHost(workers) });
        expect(r.ranNow).toBe(tasks.length);
        expect(r.nonResponsesNow).toBe(0);
        expect(r.failedNow).toBe(0);
        results.push(outcomes(store, p.runId));
        store.close();
      }
      expect(results[1]).toEqual(results[0]);
      expect(new Set(results[1]!.map((t) => t.seq)).size).toBe(tasks.length);
      // Retries happen in the workers; the main thread's listener still hears of them, and the
      // endpoint's limiter (one for both runs) counted every 429 the server sent.
      expect(retries).toBeGreaterThan(0);
      const limits = endpointLimits().find((e) => e.url === server.url)!;
      expect(limits.throttled).toBe(server.stats().byOutcome["429"]);
    });
  });

  it("leaves no listener on the run's signal, in this thread or in workers", async () => {
    // LangGraph (invoke's `signal`) and the OpenAI SDK (every request's signal) each add an abort
    // listener per call and never remove it; a run-wide signal would collect thousands.
    await withServer({}, async (server) => {
      for (const workers of [0, 2]) {
        const controller = new AbortController();
        const p = plan([resolveChoiceAgent("openai:sim-steep", llmFor(server))]);
        const store = Store.open(path.join(dir, `listeners-${workers}.db`), { create: true });
        await executeRun(p, store, {
          concurrency: 8,
          hostAgents: llmWorkerHost(workers),
          signal: controller.signal,
        });
        store.close();
        expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
      }
    });
  });

  it("holds the per-model concurrency cap across workers", async () => {
    await withServer({ latencyMs: 15 }, async (server) => {
      const llm = llmFor(server, { concurrency: 3 });
      const p = plan([resolveChoiceAgent("openai:sim-steep", llm)]);
      const store = Store.open(path.join(dir, "cap.db"), { create: true });
      await executeRun(p, store, { concurrency: 16, hostAgents: llmWorkerHost(2) });
      store.close();
      expect(server.stats().maxInFlight).toBe(3);
    });
  });

  it("answers from the main thread's cache: a second run makes no HTTP call", async () => {
    await withServer({}, async (server) => {
      const cache = new MemoryResponseCache();
      const llm = llmFor(server, {}, cache);
      const first = Store.open(path.join(dir, "cache-1.db"), { create: true });
      await executeRun(plan([resolveChoiceAgent("openai:sim-steep", llm)], "cache"), first, {
        concurrency: 8,
        hostAgents: llmWorkerHost(2),
      });
      first.close();
      const calls = server.stats().requests;
      expect(calls).toBe(tasks.length);
      expect(cache.stats().entries).toBe(tasks.length);
      const second = Store.open(path.join(dir, "cache-2.db"), { create: true });
      const p = plan([resolveChoiceAgent("openai:sim-steep", llm)], "cache");
      await executeRun(p, second, { concurrency: 8, hostAgents: llmWorkerHost(2) });
      expect(server.stats().requests).toBe(calls);
      const usage = [...second.trialRows(p.runId)].map(
        (r) => (r.result as { usage: { cacheHits: number } }).usage,
      );
      expect(usage.every((u) => u.cacheHits === 1)).toBe(true);
      second.close();
    });
  });

  it("makes one HTTP call for identical requests in different workers (joined in flight, or cached)", async () => {
    await withServer({ latencyMs: 40 }, async (server) => {
      // With a cache, the second of two identical requests that arrives after the first finished is
      // answered from it: one HTTP call per pair however the machine's load spaces them out.
      const llm = llmFor(server, {}, new MemoryResponseCache());
      // Two agents with the same settings send identical requests for each task, one after the other.
      const a = { ...resolveChoiceAgent("openai:sim-steep", llm), label: "a" };
      const b = { ...resolveChoiceAgent("openai:sim-steep", llm), label: "b" };
      const p = plan([a, b]);
      const store = Store.open(path.join(dir, "dedupe.db"), { create: true });
      const r = await executeRun(p, store, { concurrency: 8, hostAgents: llmWorkerHost(2) });
      expect(r.ranNow).toBe(2 * tasks.length);
      expect(server.stats().requests).toBe(tasks.length);
      const rows = [...store.trialRows(p.runId)];
      const byTask = new Map<number, number[]>();
      for (const row of rows) {
        const slot = (row.result as { outcome: { chosenSlot: number } }).outcome.chosenSlot;
        const task = Math.floor(row.seq / 2); // task-major: both agents' trials of a task are adjacent
        byTask.set(task, [...(byTask.get(task) ?? []), slot]);
      }
      for (const slots of byTask.values()) expect(slots[0]).toBe(slots[1]);
      store.close();
    });
  });

  it("stops on the signal without storing cut-short trials; the resumed run completes the store", async () => {
    await withServer({ latencyMs: 30 }, async (server) => {
      const llm = llmFor(server);
      const store = Store.open(path.join(dir, "abort.db"), { create: true });
      const controller = new AbortController();
      const p = plan([resolveChoiceAgent("openai:sim-steep", llm)], "abort");
      let aborted = false;
      const r = await executeRun(p, store, {
        concurrency: 8,
        hostAgents: llmWorkerHost(2),
        signal: controller.signal,
        batchSize: 4,
        onProgress: (progress) => {
          if (!aborted && progress.stored >= 8) {
            aborted = true;
            controller.abort();
          }
        },
      });
      expect(r.interrupted).toBe(true);
      expect(r.stored).toBeLessThan(tasks.length);
      const again = await executeRun(plan([resolveChoiceAgent("openai:sim-steep", llm)], "abort"), store, {
        concurrency: 8,
        hostAgents: llmWorkerHost(2),
      });
      expect(again.stored).toBe(tasks.length);
      expect(again.ranNow).toBe(tasks.length - r.stored);
      const rows = outcomes(store, p.runId);
      expect(rows.map((t) => t.seq)).toEqual(tasks.map((_, i) => i));
      expect(rows.every((t) => t.chosenSlot !== null)).toBe(true);
      store.close();
    });
  });
});

describe("autoWorkers", () => {
  it("moves LLM turns to workers only when the run is CPU-bound and long enough to repay them", () => {
    expect(autoWorkers({ cores: 8, concurrency: 16, trials: 1600 })).toBe(4);
    expect(autoWorkers({ cores: 4, concurrency: 64, trials: 9000 })).toBe(3);
    // On 2 cores a worker's extra CPU per turn eats the second core's gain.
    expect(autoWorkers({ cores: 2, concurrency: 64, trials: 9000 })).toBe(0);
    expect(autoWorkers({ cores: 8, concurrency: 8, trials: 9000 })).toBe(0);
    expect(autoWorkers({ cores: 8, concurrency: 64, trials: 100 })).toBe(0);
  });
});
