/**
 * What an A2A agent costs per episode, against the same policy run as an `exec:` program, in one
 * run (issue 33): `bazaar run shop` (the compiled CLI) on the same trials with
 * - `--agent sim:first-result`: the policy natively, the baseline;
 * - `--agent a2a:<url>`: the policy in an A2A agent already running (test/fixtures/a2a/serve.ts: the
 *   SDK's server, streaming; each episode one task, played through its private MCP endpoint);
 * - `--agent 'exec:node test/fixtures/outside/client.mjs'`: the same policy as a program bazaar
 *   starts for every episode (the MCP client of the exec: tests).
 * Each path's overhead an episode is its wall (and CPU: bazaar with its children, plus the A2A
 * agent's own process) minus the native run's, over the trials; the figure is A2A's overhead as a
 * share of exec:'s, paths alternating within each round, the median over rounds.
 *
 *   npm run build && npx tsx bench/a2a.ts [--trials 40] [--rounds 3]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { trialRecords } from "../environments/runner/records.ts";
import { Store } from "../environments/store/index.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.join(ROOT, "bin/bazaar.js");
const AGENT = path.join(ROOT, "test/fixtures/a2a/serve.ts");
const EXEC_CLIENT = path.join(ROOT, "test/fixtures/outside/client.mjs");

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
const range = (xs: number[], digits = 0) =>
  `${median(xs).toFixed(digits)} [${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}]`;

/** CPU seconds (user + system) a process has used so far (Linux /proc; clock ticks of 100 Hz). */
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Run {
  wallMs: number;
  cpuS: number;
  trials: number;
  steps: number;
}

/** `bazaar run shop --agent <spec>` on `n` trials in a new store, under GNU time. */
function runShop(spec: string, n: number, dir: string, tag: string): Promise<Run> {
  const store = path.join(dir, `${tag}.db`);
  const timeFile = path.join(dir, `${tag}.time`);
  const t0 = performance.now();
  const args = [
    "run",
    "shop",
    "--tasks",
    String(n),
    "--replicates",
    "1",
    "--agent",
    spec,
    "--concurrency",
    "8",
  ];
  const child = spawn(
    "/usr/bin/time",
    ["-o", timeFile, "-f", "%U %S", process.execPath, BIN, ...args, "--store", store],
    {
      cwd: dir,
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = performance.now() - t0;
      if (code !== 0) return reject(new Error(`${spec} exited ${code}:\n${stderr.slice(-2000)}`));
      const [user, sys] = readFileSync(timeFile, "utf8").trim().split(/\s+/).slice(-2).map(Number);
      const s = Store.open(store, { create: false });
      let trials = 0;
      let steps = 0;
      try {
        for (const r of trialRecords(s, s.listRuns()[0]!.id)) {
          trials++;
          steps += Number(r.steps ?? 0);
        }
      } finally {
        s.close();
      }
      resolve({ wallMs, cpuS: user! + sys!, trials, steps });
    });
  });
}

/** The test A2A agent playing the first-result policy, once it says where it listens. */
async function startAgent(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", AGENT, "play:sim:first-result", "--stream"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const url = /listening at (\S+)/.exec(out)?.[1];
    if (url) return { child, url };
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the A2A agent did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function benchA2a(trials = value("trials", 40), rounds = value("rounds", 3)): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bazaar-bench-a2a-"));
  const agent = await startAgent();
  const pid = agent.child.pid!;
  try {
    // Warm: the agent's first episodes load the SDK, MCP and the policy; the OS caches the CLI.
    await runShop(`a2a:${agent.url}`, 8, dir, "warm-a2a");
    await runShop("sim:first-result", 8, dir, "warm-native");
    const got = { native: [] as Run[], a2a: [] as Run[], exec: [] as Run[] };
    for (let r = 0; r < rounds; r++) {
      got.native.push(await runShop("sim:first-result", trials, dir, `native-${r}`));
      const before = cpuOf(pid);
      const a = await runShop(`a2a:${agent.url}`, trials, dir, `a2a-${r}`);
      got.a2a.push({ ...a, cpuS: a.cpuS + cpuOf(pid) - before });
      got.exec.push(await runShop(`exec:node ${EXEC_CLIENT}`, trials, dir, `exec-${r}`));
    }
    for (const [k, runs] of Object.entries(got))
      for (const x of runs)
        if (x.trials !== trials) throw new Error(`${k}: stored ${x.trials} of ${trials} trials`);
    const ms = (x: Run) => x.wallMs / trials;
    const cpu = (x: Run) => (1000 * x.cpuS) / trials;
    const over = (xs: Run[], f: (x: Run) => number) => xs.map((x, i) => f(x) - f(got.native[i]!));
    const a2aWall = over(got.a2a, ms);
    const execWall = over(got.exec, ms);
    const a2aCpu = over(got.a2a, cpu);
    const execCpu = over(got.exec, cpu);
    const steps = (xs: Run[]) => (xs.reduce((s, x) => s + x.steps, 0) / (xs.length * trials)).toFixed(1);
    console.log(
      `a2a: bazaar run shop, ${trials} trials, concurrency 8, ${rounds} rounds (median [range]); the first-result policy natively, behind A2A (message/stream, an agent already running) and as an exec: program (one process an episode):`,
    );
    console.log(
      `  native ${range(got.native.map(ms))} ms wall, ${range(got.native.map(cpu))} ms CPU an episode (${steps(got.native)} steps; start-up and headline spread over ${trials})`,
    );
    console.log(
      `  a2a:  adds ${range(a2aWall)} ms wall, ${range(a2aCpu)} ms CPU an episode (bazaar and the agent's process; ${steps(got.a2a)} steps)`,
    );
    console.log(
      `  exec: adds ${range(execWall)} ms wall, ${range(execCpu)} ms CPU an episode (children included; ${steps(got.exec)} steps)`,
    );
    const ratio = (a: number[], e: number[]) => a.map((x, i) => x / e[i]!);
    console.log(
      `  A2A's overhead as a share of exec:'s: ${range(
        ratio(a2aWall, execWall).map((x) => 100 * x),
        1,
      )}% wall, ${range(
        ratio(a2aCpu, execCpu).map((x) => 100 * x),
        1,
      )}% CPU`,
    );
  } finally {
    agent.child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchA2a();
