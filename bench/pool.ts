/**
 * Endpoint pools: trials/s of `openai:sim-steep` against one serve-sim replica vs two, each at
 * 200 ms latency with the same per-replica cap (`--model-concurrency 8`) and enough trials in flight
 * to fill both (32). The ideal ratio is 2: a pool adds the capacity of its replicas.
 *
 *   npx tsx bench/pool.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { resolveChoiceAgent } from "../agents/registry.ts";
import { startSimServer } from "../agents/serve-sim/index.ts";
import { DEFAULT_HOTEL_POOL } from "../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../environments/choice/design.ts";
import { choiceEnvironment } from "../environments/choice/environment.ts";
import { executeRun } from "../environments/runner/execute.ts";
import { planRun } from "../environments/runner/plan.ts";
import { Store } from "../environments/store/index.ts";

process.env.LANGSMITH_TRACING ??= "false"; // as the CLI does

const tasks = buildChoiceTasks(
  { pairs: 100, pairAppearances: 2, triples: 0, fives: 0, seed: 9 },
  DEFAULT_HOTEL_POOL,
);
const dir = mkdtempSync(path.join(os.tmpdir(), "bazaar-bench-pool-"));

async function trialsPerSecond(urls: string[], label: string): Promise<number> {
  const settings = {
    baseURL: urls[0],
    ...(urls.length > 1 ? { replicas: urls } : {}),
    useCache: false,
    concurrency: 8,
    maxRetries: 2,
  };
  const plan = planRun({
    env: choiceEnvironment,
    settings: { maxReasks: 0 },
    tasks,
    agents: [resolveChoiceAgent("openai:sim-steep", { settings })],
    replicates: 1,
    design: { bench: label },
  });
  const store = Store.open(path.join(dir, `${label}.db`), { create: true });
  const t0 = performance.now();
  const r = await executeRun(plan, store, { concurrency: 32 });
  const s = (performance.now() - t0) / 1000;
  store.close();
  return r.ranNow / s;
}

export async function benchPool(): Promise<void> {
  const servers = await Promise.all([startSimServer({ latencyMs: 200 }), startSimServer({ latencyMs: 200 })]);
  try {
    const one = await trialsPerSecond([servers[0]!.url], "one");
    const two = await trialsPerSecond(
      servers.map((s) => s.url),
      "two",
    );
    const split = servers.map((s) => s.stats().requests);
    console.log(`1 replica:  ${one.toFixed(1)} trials/s (cap 8 at 200 ms: ideal 40)`);
    console.log(
      `2 replicas: ${two.toFixed(1)} trials/s (requests per replica in this run: ${split[0]! - tasks.length}, ${split[1]})`,
    );
    console.log(`ratio: ${(two / one).toFixed(2)}× (ideal 2)`);
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchPool();
