/**
 * The CLI's CPU per LLM trial against the agent's own: `bazaar run choice --agent openai:sim-steep`
 * as a user runs it (the default design, 8,700 trials; one process: start-up, the run with the
 * response cache, the closing headline), its whole CPU (user + sys, every thread, read by GNU time)
 * divided by its trials; beside it the same plan's trials run by the agent as bench/llm.ts runs it
 * (in this process, warmed up, cache off), CPU of every thread of this process over the run. Both
 * against one `bazaar serve-sim` at zero latency in its own process, concurrency 16, the two taking
 * turns each round. Bar: the CLI within 1.5× of the agent trial. `--trials n` runs the first n
 * trials of the design both ways (the CLI's `--limit n`): the CLI's start-up, warm-up and headline
 * weigh more on a shorter run.
 *
 *   npx tsx bench/cli-llm.ts [--trials 8700] [--rounds 3]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ENVIRONMENT_CLIS } from "../cli/run/index.ts";
import { executeRun } from "../environments/runner/execute.ts";
import type { RunPlan } from "../environments/runner/plan.ts";
import { Store } from "../environments/store/index.ts";
import { startServer } from "./llm.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.join(ROOT, "bin/bazaar.js");
process.env.LANGSMITH_TRACING ??= "false"; // as the CLI does

function arg(name: string, fallback: number | undefined): number | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** CPU seconds of one `bazaar run` process and the trials it ran. */
function cliRun(url: string, store: string, limit: number | undefined, dir: string) {
  const time = path.join(dir, "time.txt");
  const args = ["run", "choice", "--agent", "openai:sim-steep", "--base-url", url, "--concurrency", "16"];
  if (limit !== undefined) args.push("--limit", String(limit));
  const out = execFileSync(
    "/usr/bin/time",
    ["-o", time, "-f", "%U %S", process.execPath, BIN, ...args, "--store", store, "--json"],
    { cwd: dir, maxBuffer: 1 << 26 },
  ).toString();
  const [user, sys] = readFileSync(time, "utf8").trim().split(/\s+/).slice(-2).map(Number);
  return { cpu: user! + sys!, trials: (JSON.parse(out) as { ranNow: number }).ranNow };
}

/** The plan `bazaar run choice --agent openai:sim-steep` makes, its agent with the cache off. */
async function agentPlan(url: string): Promise<RunPlan> {
  const choice = ENVIRONMENT_CLIS.find((e) => e.name === "choice")!;
  const plan = await choice.planner();
  const llm = { settings: { baseURL: url, useCache: false, concurrency: 16, maxRetries: 2 } };
  return plan({ agent: "openai:sim-steep", replicates: "1", maxReasks: "2" }, llm);
}

/** CPU seconds of this process (every thread) over one run of the agent, as bench/llm.ts runs it. */
async function agentRun(plan: RunPlan, store: string, limit: number | undefined) {
  const s = Store.open(store, { create: true });
  const before = process.cpuUsage();
  const r = await executeRun(plan, s, { concurrency: 16, limit });
  const used = process.cpuUsage(before);
  s.close();
  return { cpu: (used.user + used.system) / 1e6, trials: r.ranNow };
}

export async function benchCliLlm(trials: number | undefined, rounds = 3): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bazaar-bench-cli-llm-"));
  const server = await startServer(0);
  const ms = (r: { cpu: number; trials: number }) => (1000 * r.cpu) / r.trials;
  const cli: number[] = [];
  const agent: number[] = [];
  let ran = 0;
  try {
    const plan = await agentPlan(server.url);
    await agentRun(plan, path.join(dir, "warm.db"), 400); // JIT, as bench/llm.ts
    for (let i = 0; i < rounds; i++) {
      // A new store each time: every trial runs, none from an earlier round's cache.
      const c = cliRun(server.url, path.join(dir, `cli-${i}.db`), trials, dir);
      const a = await agentRun(plan, path.join(dir, `agent-${i}.db`), trials);
      cli.push(ms(c));
      agent.push(ms(a));
      ran = c.trials;
    }
  } finally {
    server.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  };
  const range = (xs: number[]) =>
    `median ${median(xs).toFixed(2)} [${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}]`;
  const ratios = cli.map((c, i) => c / agent[i]!);
  console.log(
    `CLI CPU per LLM trial vs the agent's (serve-sim, zero latency, concurrency 16, ${ran} trials of the default choice design, ${rounds} rounds, load ${os.loadavg()[0]!.toFixed(1)}):`,
  );
  console.log(`  bazaar run (whole process: start-up, run with cache, headline): ${range(cli)} ms per trial`);
  console.log(
    `  agent trial in process, warm, cache off (bench/llm.ts):         ${range(agent)} ms per trial`,
  );
  console.log(`  ratio CLI / agent: ${range(ratios)} (bar ≤ 1.5)`);
}

if (import.meta.url === `file://${process.argv[1]}`)
  await benchCliLlm(arg("trials", undefined), arg("rounds", 3));
