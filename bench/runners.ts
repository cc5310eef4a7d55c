/**
 * Several runners, one run: the same catalog-choice run (`openai:sim-steep`, `--concurrency 16`)
 * against `bazaar serve-sim --latency-ms 200` in its own process, made by one `bazaar run` process
 * and then by four on one SQLite store, alternating, in one run of this script. The figure is the
 * ratio of trials per second, four runners against one (target ≥ 3.5×), from each process's
 * start to the last one's end (process start-up included, as a user pays it), with the model
 * requests serve-sim counted beside it (one per trial, however many runners).
 *
 *   npx tsx bench/runners.ts [--trials 2400] [--rounds 2] [--latency 200]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.join(ROOT, "bin/bazaar.js");

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function startServer(latency: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, "serve-sim", "--port", "0", "--latency-ms", String(latency)], {
    stdio: ["ignore", "pipe", "inherit"],
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

async function requests(url: string): Promise<number> {
  const r = await fetch(`${url.replace(/\/v1$/, "")}/_sim/stats`);
  return ((await r.json()) as { requests: number }).requests;
}

function runner(url: string, store: string, trials: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        BIN,
        "run",
        "choice",
        "--agent",
        "openai:sim-steep",
        "--base-url",
        url,
        "--store",
        store,
        "--limit",
        String(trials),
        "--concurrency",
        "16",
        "--no-cache",
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`bazaar run exited ${code}`))));
  });
}

async function timed(url: string, dir: string, n: number, trials: number, tag: string) {
  const store = path.join(dir, `${tag}.db`);
  const before = await requests(url);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: n }, () => runner(url, store, trials)));
  const s = (performance.now() - t0) / 1000;
  return { s, rate: trials / s, sent: (await requests(url)) - before };
}

export async function benchRunners(): Promise<void> {
  const trials = arg("trials", 2400);
  const rounds = arg("rounds", 2);
  const latency = arg("latency", 200);
  const dir = mkdtempSync(path.join(os.tmpdir(), "bazaar-bench-runners-"));
  const server = await startServer(latency);
  try {
    console.log(
      `several runners, one run: ${trials.toLocaleString("en-US")} choice trials, concurrency 16 each, serve-sim at ${latency} ms`,
    );
    const one: number[] = [];
    const four: number[] = [];
    for (let i = 0; i < rounds; i++) {
      // Alternate which goes first, so a drift in the machine's load does not favour one side.
      const order = i % 2 === 0 ? [1, 4] : [4, 1];
      for (const n of order) {
        const r = await timed(server.url, dir, n, trials, `r${i}-${n}`);
        (n === 1 ? one : four).push(r.rate);
        console.log(
          `  round ${i + 1}, ${n} runner${n === 1 ? "" : "s"}: ${r.s.toFixed(1)} s, ${r.rate.toFixed(0)} trials/s, ${r.sent.toLocaleString("en-US")} model requests`,
        );
      }
    }
    const best = (xs: number[]) => Math.max(...xs);
    const ratio = best(four) / best(one);
    console.log(
      `  four runners vs one (best of ${rounds}): ${best(four).toFixed(0)} vs ${best(one).toFixed(0)} trials/s = ${ratio.toFixed(2)}× (target ≥ 3.5×; ideal ${(16 * 1000) / latency} trials/s per runner)`,
    );
  } finally {
    server.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchRunners();
