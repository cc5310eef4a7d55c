/**
 * Several runners, one run: the same catalog-choice run (`openai:sim-steep`, `--concurrency 16`)
 * against `bazaar serve-sim --latency-ms 200` in its own process, made by one `bazaar run` process
 * and then by four on one SQLite store, alternating, in one run of this script. The figure is the
 * ratio of trials per second, four runners against one (target ≥ 3.5×), over the time the runs
 * themselves took (each process's executeRun, from `--json`: the longest of the four), and beside it
 * over the whole wall time (process start-up, preflight and the closing headline included, which
 * every runner pays once), with the model requests serve-sim counted (one per trial, however many
 * runners).
 *
 * With `--postgres <url>` (a role that may create databases) the runners share a new PostgreSQL
 * database each time instead of a SQLite file.
 *
 *   npx tsx bench/runners.ts [--trials 2400] [--rounds 2] [--latency 200] [--concurrency 16] [--postgres <url>]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDatabase, dropDatabase } from "./postgres.ts";

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

interface Ran {
  ranNow: number;
  elapsedMs: number;
}

function runner(url: string, store: string, trials: number, concurrency: number): Promise<Ran> {
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
        String(concurrency),
        "--no-cache",
        "--json",
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(JSON.parse(out) as Ran) : reject(new Error(`bazaar run exited ${code}`)),
    );
  });
}

const POSTGRES = (() => {
  const i = process.argv.indexOf("--postgres");
  return i >= 0 ? process.argv[i + 1] : undefined;
})();

/** A new store for one measurement: a SQLite file, or a new PostgreSQL database. */
async function freshStore(dir: string, tag: string): Promise<string> {
  if (!POSTGRES) return path.join(dir, `${tag}.db`);
  return createDatabase(POSTGRES, `bazaar_bench_runners_${process.pid}_${tag.replace(/\W/g, "_")}`);
}

async function timed(url: string, dir: string, n: number, trials: number, concurrency: number, tag: string) {
  const store = await freshStore(dir, tag);
  const before = await requests(url);
  const t0 = performance.now();
  const ran = await Promise.all(Array.from({ length: n }, () => runner(url, store, trials, concurrency)));
  const s = (performance.now() - t0) / 1000;
  if (POSTGRES) await dropDatabase(POSTGRES, store);
  const runS = Math.max(...ran.map((r) => r.elapsedMs)) / 1000;
  return {
    s,
    runS,
    rate: trials / runS,
    wallRate: trials / s,
    shares: ran.map((r) => r.ranNow),
    sent: (await requests(url)) - before,
  };
}

export async function benchRunners(): Promise<void> {
  const trials = arg("trials", 2400);
  const rounds = arg("rounds", 2);
  const latency = arg("latency", 200);
  const concurrency = arg("concurrency", 16);
  const dir = mkdtempSync(path.join(os.tmpdir(), "bazaar-bench-runners-"));
  const server = await startServer(latency);
  try {
    console.log(
      `several runners, one run: ${trials.toLocaleString("en-US")} choice trials, concurrency ${concurrency} each, serve-sim at ${latency} ms, on a ${POSTGRES ? "PostgreSQL" : "SQLite"} store`,
    );
    const one: number[] = [];
    const four: number[] = [];
    const oneWall: number[] = [];
    const fourWall: number[] = [];
    for (let i = 0; i < rounds; i++) {
      // Alternate which goes first, so a drift in the machine's load does not favour one side.
      const order = i % 2 === 0 ? [1, 4] : [4, 1];
      for (const n of order) {
        const r = await timed(server.url, dir, n, trials, concurrency, `r${i}-${n}`);
        (n === 1 ? one : four).push(r.rate);
        (n === 1 ? oneWall : fourWall).push(r.wallRate);
        console.log(
          `  round ${i + 1}, ${n} runner${n === 1 ? "" : "s"}: run ${r.runS.toFixed(1)} s = ${r.rate.toFixed(1)} trials/s (wall ${r.s.toFixed(1)} s = ${r.wallRate.toFixed(1)}/s), trials per runner ${r.shares.join(" + ")}, ${r.sent.toLocaleString("en-US")} model requests`,
        );
      }
    }
    const best = (xs: number[]) => Math.max(...xs);
    const ratio = best(four) / best(one);
    console.log(
      `  four runners vs one (best of ${rounds}): ${best(four).toFixed(1)} vs ${best(one).toFixed(1)} trials/s = ${ratio.toFixed(2)}× over the runs (target ≥ 3.5×; ideal ${((concurrency * 1000) / latency).toFixed(1)} trials/s per runner); ${(best(fourWall) / best(oneWall)).toFixed(2)}× over the wall time`,
    );
  } finally {
    server.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchRunners();
