/**
 * The LLM path's overhead, against `bazaar serve-sim` running in its own process:
 *  1. zero latency: trials/s through the full LangGraph agent (ChatOpenAI, cache off, machine,
 *     store) vs a bare `fetch` loop sending the same requests at the same concurrency;
 *  2. per-call overhead of the agent in milliseconds, from the same comparison at concurrency 1;
 *  3. 200 ms injected latency at concurrency 64: achieved calls/s vs the ideal 64 / 0.2 s = 320.
 * The agent runs as `bazaar run` runs it by default (one thread); both comparisons are also shown
 * with its turns in 2 worker threads (`--workers 2`).
 *
 *   npx tsx bench/llm.ts
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { llmWorkerHost } from "../agents/llm/host.ts";
import { resolveChoiceAgent } from "../agents/registry.ts";
import { DEFAULT_HOTEL_POOL } from "../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../environments/choice/design.ts";
import { choiceEnvironment } from "../environments/choice/environment.ts";
import { renderChoiceMessages } from "../environments/choice/prompt.ts";
import type { ChoiceTask } from "../environments/choice/types.ts";
import { executeRun } from "../environments/runner/execute.ts";
import { planRun } from "../environments/runner/plan.ts";
import { Store } from "../environments/store/index.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
process.env.LANGSMITH_TRACING ??= "false"; // as the CLI does

export async function startServer(latencyMs: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, "bin/bazaar.js"), "serve-sim", "--port", "0", "--latency-ms", String(latencyMs)],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+\/v1)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on("exit", (code) => reject(new Error(`serve-sim exited (${code})`)));
  });
  return { url, child };
}

async function agentRun(
  tasks: ChoiceTask[],
  url: string,
  concurrency: number,
  dir: string,
  label: string,
  workers: number | "auto" = 0,
) {
  const llm = { settings: { baseURL: url, useCache: false, concurrency, maxRetries: 2 } };
  const plan = planRun({
    env: choiceEnvironment,
    settings: { maxReasks: 0 },
    tasks,
    agents: [resolveChoiceAgent("openai:sim-steep", llm)],
    replicates: 1,
    design: { bench: label },
  });
  const store = Store.open(path.join(dir, `${label}.db`), { create: true });
  const t0 = performance.now();
  const r = await executeRun(plan, store, { concurrency, hostAgents: llmWorkerHost(workers) });
  const ms = performance.now() - t0;
  store.close();
  return { trials: r.ranNow, ms };
}

async function bareFetch(tasks: ChoiceTask[], url: string, concurrency: number) {
  const bodies = tasks.map((t) =>
    JSON.stringify({ model: "sim-steep", messages: renderChoiceMessages(t.options, t.variant), seed: 0 }),
  );
  let next = 0;
  let ok = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < bodies.length; i = next++) {
        const res = await fetch(`${url}/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer not-needed" },
          body: bodies[i],
        });
        const json = (await res.json()) as { choices?: unknown[] };
        if (json.choices?.length) ok++;
      }
    }),
  );
  return { trials: ok, ms: performance.now() - t0 };
}

/** The worker count the bench measures beside the default single thread. */
const BENCH_WORKERS = 2;

export async function benchLlm(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bazaar-bench-llm-"));
  const tasks = buildChoiceTasks(
    { pairs: 400, pairAppearances: 2, triples: 0, fives: 0 },
    DEFAULT_HOTEL_POOL,
  );
  const rate = (r: { trials: number; ms: number }) => (r.trials * 1000) / r.ms;
  const fast = await startServer(0);
  try {
    const concurrency = 16;
    // Warm-up, both ways: JIT, and the worker threads (started once per process, ~1 s each).
    await bareFetch(tasks.slice(0, 200), fast.url, 8);
    await agentRun(tasks.slice(0, 200), fast.url, 8, dir, "warm", 0);
    await agentRun(tasks.slice(0, 200), fast.url, concurrency, dir, "warm-workers", BENCH_WORKERS);
    const bare = await bareFetch(tasks, fast.url, concurrency);
    const single = await agentRun(tasks, fast.url, concurrency, dir, "single", 0);
    const pooled = await agentRun(tasks, fast.url, concurrency, dir, "pooled", BENCH_WORKERS);
    const pct = (r: { trials: number; ms: number }) => `${((100 * rate(r)) / rate(bare)).toFixed(1)}%`;
    console.log(
      `LLM path against serve-sim (zero latency, separate process), ${tasks.length} trials, concurrency ${concurrency}, ${os.availableParallelism()} cores:`,
    );
    console.log(
      `  full LangGraph agent (ChatOpenAI, machine, store; cache off), one thread:   ${rate(single).toFixed(0)} trials/s`,
    );
    console.log(
      `  the same, its LLM calls in ${BENCH_WORKERS} worker threads (--workers ${BENCH_WORKERS}):         ${rate(pooled).toFixed(0)} trials/s`,
    );
    console.log(
      `  bare fetch loop, same requests:                                           ${rate(bare).toFixed(0)} requests/s`,
    );
    console.log(
      `  ratio full/bare: ${pct(single)} (one thread, as \`bazaar run\` runs it by default); with ${BENCH_WORKERS} workers ${pct(pooled)}`,
    );
    const one = tasks.slice(0, 300);
    const bare1 = await bareFetch(one, fast.url, 1);
    const full1 = await agentRun(one, fast.url, 1, dir, "serial");
    const overhead = full1.ms / full1.trials - bare1.ms / bare1.trials;
    console.log(`  per-call overhead of the agent (concurrency 1): ${overhead.toFixed(2)} ms`);
  } finally {
    fast.child.kill();
  }
  const slow = await startServer(200);
  try {
    const n = 64 * 12;
    const r = await agentRun(tasks.slice(0, n), slow.url, 64, dir, "latency");
    const achieved = rate(r);
    const other = await agentRun(tasks.slice(n, 2 * n), slow.url, 64, dir, "latency-other", BENCH_WORKERS);
    console.log(
      `  200 ms latency, concurrency 64: ${achieved.toFixed(0)} calls/s = ${((100 * achieved) / 320).toFixed(1)}% of the ideal 320/s (one thread; with ${BENCH_WORKERS} workers ${((100 * rate(other)) / 320).toFixed(1)}%)`,
    );
  } finally {
    slow.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchLlm();
