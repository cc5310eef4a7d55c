/**
 * The client side of a 100,000-request batch run, against `bazaar serve-sim` in its own process
 * (zero batch delay), in rounds of 20,000 as `--batch-size 20000` runs it:
 *  1. the batch machinery alone — park each request (its body as ChatOpenAI writes it), ask the
 *     ledger where it went, build and upload the JSONL, create, poll, download the output a line at
 *     a time, ingest it into the ledger, hand each request its answer: wall time, client CPU and the
 *     process's RSS after every round (flat memory: the peak must not grow with the rounds);
 *  2. the same requests through the model caller as an agent turn makes them (ChatOpenAI building
 *     the body and parsing the answer, the cache key, the gate, the answer into the SQLite cache);
 *  3. the ratio in the same run: the client CPU per request of (1) and (2) against a live call's
 *     (ChatOpenAI over HTTP to the same server, concurrency 64).
 * Server CPU is the child's, not counted.
 *
 *   npx tsx bench/batch.ts [--requests 100000] [--round 20000]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { batchChat } from "../agents/llm/batch/chat.ts";
import { OpenAIBatchClient } from "../agents/llm/batch/client.ts";
import { turnContext } from "../agents/llm/batch/context.ts";
import { type BatchCounts, BatchEndpoint } from "../agents/llm/batch/endpoint.ts";
import { BatchGate } from "../agents/llm/batch/gate.ts";
import { OPENAI_LIMITS } from "../agents/llm/batch/lines.ts";
import { ModelCaller } from "../agents/llm/caller.ts";
import { LlmSettingsSchema } from "../agents/llm/settings.ts";
import { DEFAULT_HOTEL_POOL } from "../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../environments/choice/design.ts";
import { renderChoiceMessages } from "../environments/choice/prompt.ts";
import type { Message } from "../environments/kernel/types.ts";
import { batchLedger } from "../environments/store/batches.ts";
import { Store } from "../environments/store/index.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
process.env.LANGSMITH_TRACING ??= "false"; // as the CLI does

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function startServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(ROOT, "bin/bazaar.js"), "serve-sim", "--port", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
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

/** Request i: a catalog-choice prompt of the default design, its replicate's seed (all distinct). */
function requestMaker() {
  const tasks = buildChoiceTasks({}, DEFAULT_HOTEL_POOL);
  const rendered = tasks.map((t) => renderChoiceMessages(t.options, t.variant));
  return (i: number): { messages: Message[]; replicate: number } => ({
    messages: rendered[i % rendered.length]!,
    replicate: Math.floor(i / rendered.length),
  });
}

const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(since);
  return (c.user + c.system) / 1e6;
};
const rssMb = () => process.memoryUsage().rss / 1e6;

interface Measured {
  wallS: number;
  cpuS: number;
  rssAfterRounds: number[];
  answered: number;
}

/** (1) The batch machinery alone, through the fetch ChatOpenAI calls. */
async function machinery(url: string, dir: string, total: number, round: number): Promise<Measured> {
  const make = requestMaker();
  const store = Store.open(path.join(dir, "machinery.db"), { create: true });
  const counts: BatchCounts = { submitted: 0, requests: 0, resumed: 0, answered: 0, failed: 0 };
  const endpoint = new BatchEndpoint({
    runId: "bench",
    baseURL: url,
    model: "sim-steep",
    client: new OpenAIBatchClient(url, undefined),
    ledger: batchLedger(store),
    limits: OPENAI_LIMITS,
    pollMs: { min: 20, max: 200 },
    reuseOtherRuns: true,
    counts,
    say: () => {},
    fail: (err) => {
      throw err;
    },
    parked: () => {},
  });
  const rss: number[] = [];
  let answered = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (let start = 0; start < total; start += round) {
    const waits: Promise<void>[] = [];
    for (let i = start; i < Math.min(total, start + round); i++) {
      const r = make(i);
      // The body as ChatOpenAI writes it for these settings (checked by the batch-chat test).
      const body = JSON.stringify({
        model: "sim-steep",
        stream: false,
        seed: r.replicate,
        messages: r.messages,
      });
      const key = `bench-${i}`;
      waits.push(
        turnContext.run({ agent: "openai:sim-steep", key }, async () => {
          const res = await endpoint.fetch(`${url}/chat/completions`, { method: "POST", body });
          const json = (await res.json()) as { choices?: unknown[] };
          if (res.status === 200 && json.choices?.length) answered++;
        }),
      );
    }
    endpoint.flush();
    await Promise.all(waits);
    rss.push(rssMb());
  }
  const cpuS = cpuSeconds(c0);
  const wallS = (performance.now() - t0) / 1000;
  await endpoint.close();
  store.close();
  return { wallS, cpuS, rssAfterRounds: rss, answered };
}

/** (2) The same requests through the model caller, as an agent's turn makes them. */
async function throughCaller(url: string, dir: string, total: number, round: number): Promise<Measured> {
  const make = requestMaker();
  const store = Store.open(path.join(dir, "caller.db"), { create: true });
  const settings = LlmSettingsSchema.parse({ model: "sim-steep", baseURL: url, maxRetries: 0 });
  const counts: BatchCounts = { submitted: 0, requests: 0, resumed: 0, answered: 0, failed: 0 };
  const endpoint = new BatchEndpoint({
    runId: "bench",
    baseURL: url,
    model: "sim-steep",
    client: new OpenAIBatchClient(url, undefined),
    ledger: batchLedger(store),
    limits: OPENAI_LIMITS,
    pollMs: { min: 20, max: 200 },
    reuseOtherRuns: true,
    counts,
    say: () => {},
    fail: (err) => {
      throw err;
    },
    parked: () => {},
  });
  const caller = new ModelCaller(
    settings,
    undefined,
    undefined,
    {},
    batchChat(settings, undefined, endpoint.fetch),
    new BatchGate(store.responseCache(), "sim-steep"),
  );
  const rss: number[] = [];
  let answered = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (let start = 0; start < total; start += round) {
    const waits: Promise<void>[] = [];
    const n = Math.min(total, start + round) - start;
    for (let i = start; i < start + n; i++) {
      const r = make(i);
      const messages = r.messages.map((m) =>
        m.role === "system" ? new SystemMessage(m.content) : new HumanMessage(m.content),
      );
      waits.push(
        turnContext.run({ agent: "openai:sim-steep" }, async () => {
          const out = await caller.call(messages, undefined, r.replicate);
          if (typeof out.message.content === "string" && out.message.content.length > 0) answered++;
        }),
      );
    }
    // Wait until the whole round is parked (ChatOpenAI takes a few ticks per request), then send it.
    while (endpoint.queued < n) await new Promise((resolve) => setImmediate(resolve));
    endpoint.flush();
    await Promise.all(waits);
    rss.push(rssMb());
  }
  const cpuS = cpuSeconds(c0);
  const wallS = (performance.now() - t0) / 1000;
  await endpoint.close();
  store.close();
  return { wallS, cpuS, rssAfterRounds: rss, answered };
}

/** (3) Live calls through the same caller, for the client CPU a request costs without batches. */
async function live(url: string, total: number): Promise<{ cpuS: number; wallS: number; answered: number }> {
  const make = requestMaker();
  const settings = LlmSettingsSchema.parse({
    model: "sim-steep",
    baseURL: url,
    maxRetries: 0,
    concurrency: 64,
    useCache: false,
  });
  const caller = new ModelCaller(settings, undefined, undefined);
  let next = 0;
  let answered = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      for (let i = next++; i < total; i = next++) {
        const r = make(i);
        const messages = r.messages.map((m) =>
          m.role === "system" ? new SystemMessage(m.content) : new HumanMessage(m.content),
        );
        const out = await caller.call(messages, undefined, r.replicate + 1000);
        if (typeof out.message.content === "string" && out.message.content.length > 0) answered++;
      }
    }),
  );
  return { cpuS: cpuSeconds(c0), wallS: (performance.now() - t0) / 1000, answered };
}

export async function benchBatch(): Promise<void> {
  const total = arg("requests", 100_000);
  const round = arg("round", 20_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), "bazaar-bench-batch-"));
  const server = await startServer();
  try {
    // Warm-up: JIT of both paths and of the server.
    await machinery(server.url, dir, 2_000, 1_000);
    await live(server.url, 500);
    const m = await machinery(server.url, dir, total, round);
    const c = await throughCaller(server.url, dir, total, round);
    const liveN = Math.min(10_000, total);
    const l = await live(server.url, liveN);
    const perReqMs = (cpuS: number, n: number) => (1000 * cpuS) / n;
    const flat = (r: number[]) => `${r.map((x) => x.toFixed(0)).join(" → ")} MB`;
    console.log(
      `batch run, client side, against serve-sim (zero delay, separate process), ${total.toLocaleString("en-US")} requests in rounds of ${round.toLocaleString("en-US")}, ${os.availableParallelism()} cores:`,
    );
    console.log(
      `  batch machinery (park, ledger, JSONL, upload, poll, download, ingest, answer): ${m.wallS.toFixed(1)} s wall, ${m.cpuS.toFixed(1)} s client CPU (target ≤ 60 s); ${m.answered.toLocaleString("en-US")} answered`,
    );
    console.log(`    RSS after each round: ${flat(m.rssAfterRounds)}`);
    console.log(
      `  through the model caller (ChatOpenAI builds and parses, cache key, gate, SQLite cache): ${c.wallS.toFixed(1)} s wall, ${c.cpuS.toFixed(1)} s client CPU; ${c.answered.toLocaleString("en-US")} answered`,
    );
    console.log(`    RSS after each round: ${flat(c.rssAfterRounds)}`);
    console.log(
      `  live calls through the same caller (HTTP, concurrency 64), ${liveN.toLocaleString("en-US")} requests: ${perReqMs(l.cpuS, liveN).toFixed(3)} ms client CPU a request (${l.answered.toLocaleString("en-US")} answered)`,
    );
    console.log(
      `  client CPU a request: machinery ${perReqMs(m.cpuS, total).toFixed(3)} ms = ${((100 * perReqMs(m.cpuS, total)) / perReqMs(l.cpuS, liveN)).toFixed(0)}% of a live call's; through the caller ${perReqMs(c.cpuS, total).toFixed(3)} ms = ${((100 * perReqMs(c.cpuS, total)) / perReqMs(l.cpuS, liveN)).toFixed(0)}%`,
    );
  } finally {
    server.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchBatch();
