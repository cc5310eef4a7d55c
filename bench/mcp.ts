/**
 * Agents from outside, what MCP costs: the careful simulated shopper (sim:careful) played through
 * `bazaar serve shop` over MCP Streamable HTTP on loopback against the same policy played natively,
 * the same N trials (the first N of the default shop design) each way, in one run:
 *
 * 1. end to end from process start: `bazaar serve shop --agent-name … --port 0 --limit N` with
 *    test/fixtures/serve/sim-client.ts (`node --import tsx`, one session after another) started when
 *    serve says where it listens, from serve's start to its exit (every trial stored, the headline
 *    printed), against `bazaar run shop --agent sim:careful --limit N`; wall time and the CPU of the
 *    processes (user + sys, GNU time), the two taking turns each round, after a 10-trial round of
 *    each that is not counted (file cache, tsx's cache of the client's sources);
 * 2. in process, warm: the run's waiting agent, session hub and MCP server on an HTTP host in this
 *    process (as serve sets them up) with an MCP client in this process playing the same policy,
 *    against the sim agent run by the runner in this process; the round trip MCP adds per tool call
 *    is a step call's latency at the client minus the native cost of a step (native ms per episode /
 *    steps per episode; steps counted from the stored trials); target ≤ 2 ms;
 * 3. `exec:`: `bazaar run shop --agent 'exec:node test/fixtures/outside/client.mjs'` (the fixture
 *    plays the first-result shopper: one process per episode) against `--agent sim:first-result`,
 *    the same trials; the milliseconds (wall and CPU, children included) exec adds per episode.
 *
 * Processes run dist/ (`npm run build` first).
 *
 *   npx tsx bench/mcp.ts [--trials 200] [--rounds 2] [--ip-rounds 3] [--exec-trials 12]
 *
 * --rounds: rounds of the processes (1 and 3), --ip-rounds: rounds in process (2), each after a warm-up.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Command } from "commander";
import { McpHttpHost } from "../agents/outside/http.ts";
import { episodeServer, serveInstructions } from "../agents/outside/mcp.ts";
import { outsideResolver } from "../agents/outside/registry.ts";
import { SessionHub } from "../agents/outside/sessions.ts";
import type { LlmContext } from "../agents/registry.ts";
import { addSharedOptions } from "../cli/commands/run.ts";
import { ENVIRONMENT_CLIS } from "../cli/run/index.ts";
import { resolveShopAgent } from "../cli/run/shop-plan.ts";
import { surfaceOf } from "../environments/kernel/surface.ts";
import type { Agent } from "../environments/kernel/types.ts";
import { environmentNamed } from "../environments/registry.ts";
import { executeRun } from "../environments/runner/execute.ts";
import type { RunPlan } from "../environments/runner/plan.ts";
import { trialRecords } from "../environments/runner/records.ts";
import { TOOL_CALL_BATCH } from "../environments/shop/actions.ts";
import { Store } from "../environments/store/index.ts";
import { Reseeded } from "../test/fixtures/serve/reseeded.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.join(ROOT, "bin/bazaar.js");
const SIM_CLIENT = path.join(ROOT, "test/fixtures/serve/sim-client.ts");
const EXEC_CLIENT = "test/fixtures/outside/client.mjs";
const POLICY = "sim:careful";
const ROLE = "shopper";

const argv = process.argv.slice(2);
const value = (name: string, dflt: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const range = (xs: number[], digits = 2) =>
  `${median(xs).toFixed(digits)} [${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}]`;

// ---------------------------------------------------------------------------------------------
// Processes

interface Proc {
  wallMs: number;
  cpuS: number;
  code: number | null;
  stderr: string;
}

/** Starts `node <args>` under GNU time; `onStderr` sees its stderr as it comes. */
function timed(
  args: string[],
  cwd: string,
  timeFile: string,
  onStderr?: (all: string) => void,
): { child: ChildProcess; done: Promise<Proc> } {
  const t0 = performance.now();
  const child = spawn("/usr/bin/time", ["-o", timeFile, "-f", "%U %S", process.execPath, ...args], {
    cwd,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => {
    stderr += d.toString();
    onStderr?.(stderr);
  });
  const done = new Promise<Proc>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = performance.now() - t0;
      const [user, sys] = readFileSync(timeFile, "utf8").trim().split(/\s+/).slice(-2).map(Number);
      resolve({ wallMs, cpuS: user! + sys!, code, stderr });
    });
  });
  return { child, done };
}

function check(p: Proc, what: string): Proc {
  if (p.code !== 0) throw new Error(`${what} exited ${p.code}:\n${p.stderr.slice(-2000)}`);
  return p;
}

/** Steps (tool calls that were steps) of the trials a store holds, and how many trials. */
function stepsIn(file: string): { trials: number; steps: number } {
  const store = Store.open(file, { create: false });
  try {
    let trials = 0;
    let steps = 0;
    for (const run of store.listRuns())
      for (const r of trialRecords(store, run.id)) {
        trials++;
        steps += Number(r.steps ?? 0);
      }
    return { trials, steps };
  } finally {
    store.close();
  }
}

/** `bazaar run shop --agent <spec> --limit n` in a new store. */
async function nativeProcess(spec: string, n: number, dir: string, tag: string): Promise<Proc> {
  const store = path.join(dir, `${tag}.db`);
  const args = [BIN, "run", "shop", "--agent", spec, "--limit", String(n), "--store", store];
  return check(
    await timed(args, ROOT, path.join(dir, `${tag}.time`)).done,
    `bazaar run shop --agent ${spec}`,
  );
}

/** `bazaar serve shop … --limit n` and sim-client.ts started when serve says where it listens. */
async function servedProcess(n: number, dir: string, tag: string): Promise<Proc & { client: Proc }> {
  const store = path.join(dir, `${tag}.db`);
  let client: Promise<Proc> | null = null;
  const serveArgs = [BIN, "serve", "shop", "--agent-name", "sim-careful", "--port", "0"];
  const serve = timed(
    [...serveArgs, "--limit", String(n), "--store", store],
    ROOT,
    path.join(dir, `${tag}.time`),
    (stderr) => {
      const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1];
      if (url && !client)
        client = timed(
          ["--import", "tsx", SIM_CLIENT, url, "shop", ROLE, POLICY],
          ROOT,
          path.join(dir, `${tag}-client.time`),
        ).done;
    },
  );
  const s = check(await serve.done, "bazaar serve shop");
  if (!client) throw new Error(`serve never said where it listens:\n${s.stderr}`);
  return { ...s, client: check(await client, "sim-client.ts") };
}

// ---------------------------------------------------------------------------------------------
// In process

async function shopPlan(spec: string, llm: LlmContext): Promise<RunPlan> {
  const shop = ENVIRONMENT_CLIS.find((e) => e.name === "shop")!;
  const cmd = addSharedOptions((await shop.options())(new Command()).exitOverride());
  cmd.parse(["--agent", spec], { from: "user" });
  return (await shop.planner())(cmd.opts(), llm);
}

type Result = { content: { text: string }[]; isError?: boolean; _meta?: Record<string, unknown> };

/** What the in-process client measured. */
interface Played {
  episodes: number;
  /** Tool calls made, get_task included. */
  calls: number;
  /** Step calls (every call but get_task) and their latency at the client, summed. */
  stepCalls: number;
  stepMs: number;
  /** get_task (the session's first call: it waits for the episode to be admitted and start). */
  taskMs: number;
  /** Session open (initialize) and close, summed. */
  connectMs: number;
  closeMs: number;
}

/** The tool calls of one move: a batch of calls (a parallel shopper) or a single action. */
function callsOf(action: Record<string, unknown>): { name: string; args: Record<string, unknown> }[] {
  if (action.type === TOOL_CALL_BATCH)
    return (action.calls as { name: string; args: Record<string, unknown> }[]).map((c) => ({
      name: c.name,
      args: c.args ?? {},
    }));
  const { type, ...args } = action;
  return [{ name: String(type), args }];
}

/** sim-client.ts's loop in this process: `episodes` sessions one after another, each one episode. */
async function playSessions(url: string, episodes: number, policy: Agent<unknown, unknown>): Promise<Played> {
  const p: Played = { episodes: 0, calls: 0, stepCalls: 0, stepMs: 0, taskMs: 0, connectMs: 0, closeMs: 0 };
  const call = async (client: Client, name: string, args: Record<string, unknown>) => {
    const t0 = performance.now();
    const r = (await client.callTool({ name, arguments: args })) as Result;
    const ms = performance.now() - t0;
    p.calls++;
    if (name === "get_task") p.taskMs += ms;
    else {
      p.stepCalls++;
      p.stepMs += ms;
    }
    return r;
  };
  for (let s = 0; s < episodes; s++) {
    const client = new Client({ name: "bench-client", version: "1" });
    let t0 = performance.now();
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    p.connectMs += performance.now() - t0;
    const task = await call(client, "get_task", {});
    if (task.isError) throw new Error(`get_task: ${task.content[0]?.text}`);
    const trial = task._meta?.["bazaar/trial"] as { key: string; replicate: number };
    let view = task._meta?.["bazaar/view"];
    const ctx = { rng: undefined as never, trialKey: trial.key, replicate: trial.replicate };
    const messages = [{ role: "user" as const, content: task.content.map((c) => c.text).join("\n") }];
    let over = false;
    for (let turns = 0; !over && turns < 1000; turns++) {
      const acted = await policy.act({ messages, view } as never, ctx);
      for (const c of callsOf(acted.action as Record<string, unknown>)) {
        const last = await call(client, c.name, c.args);
        if (last._meta?.["bazaar/over"]) {
          over = true;
          break;
        }
        view = last._meta?.["bazaar/view"];
      }
    }
    await policy.endEpisode?.(ctx);
    p.episodes++;
    t0 = performance.now();
    await client.close();
    p.closeMs += performance.now() - t0;
  }
  return p;
}

interface InProcess {
  ms: number;
  cpuMs: number;
  trials: number;
  steps: number;
}

async function runInProcess(
  plan: RunPlan,
  file: string,
  n: number,
  admit?: SessionHub["admit"],
  client?: () => Promise<Played>,
): Promise<InProcess & { played?: Played }> {
  const store = Store.open(file, { create: true });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const [r, played] = await Promise.all([
    executeRun(plan, store, { limit: n, concurrency: 8, ...(admit ? { admit } : {}) }),
    client?.(),
  ]);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  let steps = 0;
  for (const rec of trialRecords(store, plan.runId)) steps += Number(rec.steps ?? 0);
  store.close();
  if (r.ranNow !== n) throw new Error(`ran ${r.ranNow} of ${n} trials`);
  return {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    trials: r.ranNow,
    steps,
    ...(played ? { played } : {}),
  };
}

// ---------------------------------------------------------------------------------------------

export async function benchMcp(trials = 200, rounds = 2, ipRounds = 3, execTrials = 12): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bazaar-bench-mcp-"));
  const load0 = os.loadavg()[0]!;
  try {
    // 1. End to end, processes.
    const e2e = { native: [] as Proc[], served: [] as (Proc & { client: Proc })[], steps: 0 };
    for (let i = -1; i < rounds; i++) {
      // Round -1, of 10 trials, warms the file cache and tsx's cache of sim-client's sources.
      const n = await nativeProcess(POLICY, i < 0 ? 10 : trials, dir, `native-${i}`);
      const s = await servedProcess(i < 0 ? 10 : trials, dir, `served-${i}`);
      if (i < 0) continue;
      e2e.native.push(n);
      e2e.served.push(s);
      const st = stepsIn(path.join(dir, `served-${i}.db`));
      if (st.trials !== trials) throw new Error(`serve stored ${st.trials} of ${trials} trials`);
      e2e.steps = st.steps;
    }

    // 2. In process, warm.
    const surface = surfaceOf(environmentNamed("shop"), ROLE);
    const hub = new SessionHub(false);
    const host = await McpHttpHost.start("127.0.0.1", 0);
    host.addRoute("/mcp", {
      newSession: () => {
        const s = hub.session();
        return {
          server: episodeServer(surface, s.episodes, serveInstructions(surface), "bench"),
          closed: s.closed,
        };
      },
    });
    const url = host.url("/mcp");
    const nativePlan = await shopPlan(POLICY, { settings: {} });
    const servedPlan = await shopPlan("mcp:bench", {
      settings: {},
      outside: outsideResolver({ episodeTimeoutMs: 0, serve: hub.link }),
    });
    const policy = new Reseeded(resolveShopAgent(POLICY).players[ROLE] as Agent<unknown, unknown>, surface);
    const inproc = { native: [] as InProcess[], served: [] as (InProcess & { played?: Played })[] };
    try {
      for (let i = -1; i < ipRounds; i++) {
        // Round -1, of 50 trials, warms the JIT: not counted.
        const k = i < 0 ? Math.min(50, trials) : trials;
        const n = await runInProcess(nativePlan, path.join(dir, `ip-native-${i}.db`), k);
        const s = await runInProcess(servedPlan, path.join(dir, `ip-served-${i}.db`), k, hub.admit, () =>
          playSessions(url, k, policy),
        );
        if (i < 0) continue;
        inproc.native.push(n);
        inproc.served.push(s);
      }
    } finally {
      hub.close("the bench is over");
      await host.close();
    }

    // 3. exec:
    const exec = { native: [] as Proc[], exec: [] as Proc[] };
    let execError: string | null = null;
    try {
      for (let i = 0; i < rounds; i++) {
        exec.native.push(await nativeProcess("sim:first-result", execTrials, dir, `first-${i}`));
        exec.exec.push(await nativeProcess(`exec:node ${EXEC_CLIENT}`, execTrials, dir, `exec-${i}`));
        const stored = stepsIn(path.join(dir, `exec-${i}.db`)).trials;
        if (stored !== execTrials) throw new Error(`exec: stored ${stored} of ${execTrials} trials`);
      }
    } catch (err) {
      execError = err instanceof Error ? err.message.split("\n")[0]! : String(err);
    }

    // Report.
    const load = `load ${load0.toFixed(1)}–${os.loadavg()[0]!.toFixed(1)}`;
    const stepsPerEp = e2e.steps / trials;
    console.log(
      `MCP (serve over loopback) vs native, ${POLICY} on shop, ${trials} trials (${stepsPerEp.toFixed(2)} steps + get_task an episode), ${rounds} rounds, ${load}:`,
    );
    const eps = (p: Proc) => (1000 * trials) / p.wallMs;
    const nEps = e2e.native.map(eps);
    const sEps = e2e.served.map(eps);
    console.log("  end to end from process start (wall; CPU user + sys of every process):");
    console.log(
      `    bazaar run shop --agent ${POLICY}:             ${range(nEps, 0)} episodes/s, ${range(
        e2e.native.map((p) => p.wallMs / 1000),
      )} s wall, ${range(e2e.native.map((p) => p.cpuS))} s CPU`,
    );
    console.log(
      `    bazaar serve shop + sim-client.ts (one session at a time): ${range(sEps, 0)} episodes/s, ${range(
        e2e.served.map((p) => p.wallMs / 1000),
      )} s wall, CPU serve ${range(e2e.served.map((p) => p.cpuS))} s + client ${range(
        e2e.served.map((p) => p.client.cpuS),
      )} s`,
    );
    console.log(
      `    native / served: ${range(nEps.map((x, i) => x / sEps[i]!))}× the episodes/s; served adds ${range(
        e2e.served.map((s, i) => (s.wallMs - e2e.native[i]!.wallMs) / trials),
      )} ms wall and ${range(
        e2e.served.map((s, i) => (1000 * (s.cpuS + s.client.cpuS - e2e.native[i]!.cpuS)) / trials),
      )} ms CPU an episode (client start-up under tsx included)`,
    );
    const e2eCalls = trials * (stepsPerEp + 1);
    console.log(
      `    CPU a tool call (${(stepsPerEp + 1).toFixed(2)} an episode with get_task; session open and close spread over them): serve beyond native ${range(
        e2e.served.map((s, i) => (1000 * (s.cpuS - e2e.native[i]!.cpuS)) / e2eCalls),
      )} ms, sim-client.ts ${range(e2e.served.map((s) => (1000 * s.client.cpuS) / e2eCalls))} ms (its start-up included)`,
    );

    const ipEps = (r: InProcess) => (1000 * r.trials) / r.ms;
    const inEps = inproc.native.map(ipEps);
    const isEps = inproc.served.map(ipEps);
    const ipSteps = inproc.served[0]!.steps / trials;
    const callsPerEp = inproc.served.map((r) => r.played!.calls / r.trials);
    console.log(
      `  in process, warm (${ipRounds} rounds; runner concurrency 8, one MCP session at a time; ${ipSteps.toFixed(2)} steps an episode from the stored trials, ${median(callsPerEp).toFixed(2)} calls at the client with get_task):`,
    );
    console.log(
      `    runner + sim agent:                                   ${range(inEps, 0)} episodes/s (${range(
        inproc.native.map((r) => r.ms / r.trials),
        3,
      )} ms an episode, CPU ${range(
        inproc.native.map((r) => r.cpuMs / r.trials),
        3,
      )} ms)`,
    );
    console.log(
      `    runner + waiting agent + MCP server + MCP client:    ${range(isEps, 0)} episodes/s (${range(
        inproc.served.map((r) => r.ms / r.trials),
      )} ms an episode, CPU ${range(inproc.served.map((r) => r.cpuMs / r.trials))} ms)`,
    );
    console.log(
      `    native / served: ${range(
        inEps.map((x, i) => x / isEps[i]!),
        0,
      )}× the episodes/s`,
    );
    const per = (f: (p: Played) => number, g: (p: Played) => number) =>
      inproc.served.map((r) => f(r.played!) / g(r.played!));
    const nativeStep = inproc.native.map((r) => r.ms / r.steps);
    const stepRt = inproc.served.map((r, i) => r.played!.stepMs / r.played!.stepCalls - nativeStep[i]!);
    console.log(
      `    at the client: a step call ${range(
        per(
          (p) => p.stepMs,
          (p) => p.stepCalls,
        ),
      )} ms, get_task (first call: waits for the trial to start) ${range(
        per(
          (p) => p.taskMs,
          (p) => p.episodes,
        ),
      )} ms, session open ${range(
        per(
          (p) => p.connectMs,
          (p) => p.episodes,
        ),
      )} ms, close ${range(
        per(
          (p) => p.closeMs,
          (p) => p.episodes,
        ),
      )} ms; native cost of a step ${range(nativeStep, 3)} ms`,
    );
    console.log(
      `    round trip MCP adds per tool call: ${range(stepRt)} ms (a step call minus the native step; target ≤ 2 ms); over whole episodes ${range(
        inproc.served.map(
          (r, i) =>
            (r.ms / r.trials - inproc.native[i]!.ms / inproc.native[i]!.trials) /
            (r.played!.calls / r.trials),
        ),
      )} ms a call (session open and close spread over the calls); CPU of this process (client and server) ${range(
        inproc.served.map(
          (r, i) =>
            (r.cpuMs / r.trials - inproc.native[i]!.cpuMs / inproc.native[i]!.trials) / callsPerEp[i]!,
        ),
      )} ms a call`,
    );

    if (execError !== null || exec.exec.length === 0)
      console.log(`  exec: not measured: ${execError ?? "no rounds"}`);
    else {
      console.log(
        `  exec: bazaar run shop --agent 'exec:node ${EXEC_CLIENT}' (first-result policy, one process an episode) vs --agent sim:first-result, ${execTrials} trials, concurrency 8, ${rounds} rounds:`,
      );
      const ms = (p: Proc) => p.wallMs / execTrials;
      const cpu = (p: Proc) => (1000 * p.cpuS) / execTrials;
      console.log(
        `    exec ${range(exec.exec.map(ms), 0)} ms wall, ${range(exec.exec.map(cpu), 0)} ms CPU an episode (children included); native ${range(
          exec.native.map(ms),
          0,
        )} ms wall, ${range(exec.native.map(cpu), 0)} ms CPU an episode (start-up and headline spread over ${execTrials})`,
      );
      console.log(
        `    exec adds ${range(
          exec.exec.map((p, i) => ms(p) - ms(exec.native[i]!)),
          0,
        )} ms wall and ${range(
          exec.exec.map((p, i) => cpu(p) - cpu(exec.native[i]!)),
          0,
        )} ms CPU an episode`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  await benchMcp(value("trials", 200), value("rounds", 2), value("ip-rounds", 3), value("exec-trials", 12));
