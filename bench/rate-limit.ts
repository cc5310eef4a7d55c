/**
 * Adaptive concurrency against a rate limit (issue 35's bar): `openai:sim-steep` choice trials,
 * 64 in flight, against serve-sim at 200 ms with `--limit-rpm 600` (a one-second bucket), the
 * model's ceiling 64. In one run: the adaptive limiter with the server's x-ratelimit-* headers and
 * without them, a sweep of fixed concurrencies (`--fixed-concurrency --model-concurrency c`), the
 * ratio of adaptive to the best fixed; then the limit dropped mid-run (600 → 300 by POST
 * /_sim/limits) and how long the answered rate takes to follow it.
 *
 * Answers a minute and the share of attempts answered 429 are read from the server's counters over
 * each run's measured span (after a warm-up).
 *
 *   npx tsx bench/rate-limit.ts [--measure-s 30] [--warmup-s 10] [--sweep 1,2,3,4,8,64]
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { endpointLimits } from "../agents/llm/gate.ts";
import { resolveChoiceAgent } from "../agents/registry.ts";
import { startSimServer } from "../agents/serve-sim/index.ts";
import type { SimServer } from "../agents/serve-sim/types.ts";
import { parseOption, positiveInt } from "../cli/options.ts";
import { DEFAULT_HOTEL_POOL } from "../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../environments/choice/design.ts";
import { choiceEnvironment } from "../environments/choice/environment.ts";
import { executeRun } from "../environments/runner/execute.ts";
import { planRun } from "../environments/runner/plan.ts";
import { Store } from "../environments/store/index.ts";

process.env.LANGSMITH_TRACING ??= "false"; // as the CLI does

const LIMIT = 600;
const LATENCY_MS = 200;
const CEILING = 64;
const tasks = buildChoiceTasks(
  { pairs: 1500, pairAppearances: 2, triples: 0, fives: 0, seed: 11 },
  DEFAULT_HOTEL_POOL,
);

interface Sample {
  at: number;
  ok: number;
  limited: number;
}

/** Answers a minute and the share of 429s between two samples of the server's counters. */
function between(a: Sample, b: Sample): { perMinute: number; share429: number } {
  const ok = b.ok - a.ok;
  const limited = b.limited - a.limited;
  return { perMinute: (ok * 60_000) / (b.at - a.at), share429: limited / Math.max(1, ok + limited) };
}

/**
 * Runs trials against `server` until `seconds` have passed, sampling its counters every second;
 * `at` runs things at given seconds (the limit's drop).
 */
async function timedRun(
  server: SimServer,
  o: { label: string; adaptive: boolean; ceiling: number; seconds: number; dir: string },
  at: Record<number, () => void> = {},
): Promise<Sample[]> {
  const settings = { baseURL: server.url, useCache: false, maxRetries: 20, concurrency: o.ceiling };
  const plan = planRun({
    env: choiceEnvironment,
    settings: { maxReasks: 0 },
    tasks,
    agents: [
      resolveChoiceAgent("openai:sim-steep", { settings: { ...settings, adaptiveConcurrency: o.adaptive } }),
    ],
    replicates: 1,
    design: { bench: o.label },
  });
  const store = Store.open(path.join(o.dir, `${o.label}.db`), { create: true });
  const stop = new AbortController();
  const t0 = performance.now();
  const samples: Sample[] = [];
  const sample = () => {
    const s = server.stats().byOutcome;
    samples.push({ at: performance.now() - t0, ok: s.ok, limited: s.limited });
  };
  sample();
  let second = 0;
  const ticker = setInterval(() => {
    second++;
    at[second]?.();
    sample();
    if (second >= o.seconds) stop.abort();
  }, 1000);
  try {
    await executeRun(plan, store, { concurrency: CEILING, signal: stop.signal });
  } finally {
    clearInterval(ticker);
    store.close();
  }
  return samples;
}

async function withServer<T>(headers: boolean, f: (s: SimServer) => Promise<T>): Promise<T> {
  const server = await startSimServer({ latencyMs: LATENCY_MS, limits: { rpm: LIMIT, headers } });
  try {
    return await f(server);
  } finally {
    await server.close();
  }
}

function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

/** One steady configuration: its rate and 429 share over the measured span. */
async function steady(
  label: string,
  headers: boolean,
  adaptive: boolean,
  ceiling: number,
  o: { warmup: number; measure: number; dir: string },
) {
  return withServer(headers, async (server) => {
    const samples = await timedRun(server, {
      label,
      adaptive,
      ceiling,
      seconds: o.warmup + o.measure,
      dir: o.dir,
    });
    const r = between(samples[o.warmup]!, samples[o.warmup + o.measure]!);
    const e = endpointLimits().find((x) => x.url === server.url);
    const found = e?.found?.requestsPerMinute;
    console.log(
      `${label.padEnd(28)} ${r.perMinute.toFixed(0).padStart(4)} answers/min = ${pct(r.perMinute / LIMIT).padStart(6)} of ${LIMIT}, 429s ${pct(r.share429).padStart(6)}` +
        (adaptive
          ? `  (window ${e?.window}, limit found ${found === undefined ? "none" : found.toFixed(0)} by ${e?.found?.source ?? "-"})`
          : ""),
    );
    return r;
  });
}

/** The limit dropped from 600 to 300 after `before` seconds: the rate over each 10 s after it. */
async function drop(headers: boolean, o: { before: number; after: number; dir: string }) {
  return withServer(headers, async (server) => {
    const root = server.url.replace(/\/v1$/, "");
    const post = () => {
      void fetch(`${root}/_sim/limits`, { method: "POST", body: JSON.stringify({ rpm: LIMIT / 2 }) });
    };
    const samples = await timedRun(
      server,
      { label: `drop-${headers}`, adaptive: true, ceiling: CEILING, seconds: o.before + o.after, dir: o.dir },
      { [o.before]: post },
    );
    const target = LIMIT / 2;
    const spans: string[] = [];
    const end = o.before + o.after;
    // Followed from the first 10 s window after the drop from which on every window answers 80–110%
    // of the new limit (ten seconds are 50 answers: ±10% is their noise) and the 429s from there to
    // the end are at most 5%.
    let followedAt: number | null = null;
    for (let s = o.before; s + 10 <= end; s += 10) {
      const r = between(samples[s]!, samples[s + 10]!);
      spans.push(
        `${s - o.before}–${s - o.before + 10} s: ${r.perMinute.toFixed(0)}/min, 429s ${pct(r.share429)}`,
      );
      const inBand = r.perMinute >= 0.8 * target && r.perMinute <= 1.1 * target;
      if (inBand && followedAt === null && between(samples[s]!, samples[end]!).share429 <= 0.05)
        followedAt = s - o.before;
      if (!inBand) followedAt = null;
    }
    const last = between(samples[o.before + o.after - 30]!, samples[o.before + o.after]!);
    console.log(
      `drop 600 → 300, ${headers ? "headers" : "no headers"}: followed ${followedAt === null ? "NOT within the run" : `within ${followedAt + 10} s`}; last 30 s ${last.perMinute.toFixed(0)}/min (${pct(last.perMinute / target)} of 300), 429s ${pct(last.share429)}`,
    );
    console.log(`  ${spans.join("; ")}`);
    return { followedAt, last };
  });
}

export async function benchRateLimit(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      "measure-s": { type: "string", default: "30" },
      "warmup-s": { type: "string", default: "10" },
      sweep: { type: "string", default: "1,2,3,4,8,64" },
      "drop-after-s": { type: "string", default: "60" },
    },
  });
  // Whole seconds and concurrencies ≥ 1, refused by name otherwise (NaN would index no sample).
  const sweep = values.sweep.split(",").map((c) => parseOption("sweep", positiveInt, c));
  const before = parseOption("drop-after-s", positiveInt, values["drop-after-s"]);
  const o = {
    warmup: parseOption("warmup-s", positiveInt, values["warmup-s"]),
    measure: parseOption("measure-s", positiveInt, values["measure-s"]),
    dir: mkdtempSync(path.join(os.tmpdir(), "bazaar-bench-rate-")),
  };
  try {
    console.log(
      `serve-sim --limit-rpm ${LIMIT} --latency-ms ${LATENCY_MS}, ceiling ${CEILING}, ${CEILING} trials in flight; ${o.warmup} s warm-up, ${o.measure} s measured`,
    );
    const withHeaders = await steady("adaptive, headers", true, true, CEILING, o);
    const without = await steady("adaptive, no headers", false, true, CEILING, o);
    const fixed: { c: number; perMinute: number; share429: number }[] = [];
    for (const c of sweep) fixed.push({ c, ...(await steady(`fixed ${c}`, true, false, c, o)) });
    const best = fixed.reduce((a, b) => (b.perMinute > a.perMinute ? b : a));
    console.log(
      `best fixed: ${best.c} (${best.perMinute.toFixed(0)}/min, 429s ${pct(best.share429)}); adaptive/best: headers ${(withHeaders.perMinute / best.perMinute).toFixed(2)}×, no headers ${(without.perMinute / best.perMinute).toFixed(2)}×`,
    );
    console.log(
      `bars: headers ≥ 90% with ≤ 2% 429s: ${withHeaders.perMinute >= 0.9 * LIMIT && withHeaders.share429 <= 0.02 ? "met" : "NOT met"}; no headers ≥ 80% with ≤ 5%: ${without.perMinute >= 0.8 * LIMIT && without.share429 <= 0.05 ? "met" : "NOT met"}`,
    );
    for (const headers of [true, false]) await drop(headers, { before, after: 60, dir: o.dir });
  } finally {
    rmSync(o.dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchRateLimit(process.argv.slice(2));
