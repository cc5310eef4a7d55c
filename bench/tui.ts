/**
 * What the live view costs: a 5,000-episode simulated run with and without `--watch`, in one
 * process, alternating the two so that a shared, noisy machine slows both alike; the ratio of the
 * best wall times of the rounds is the figure (target: at most 10% added), with the medians beside
 * it and the time the dashboard itself spent drawing. The dashboard draws into a stream that
 * says it is a 100×40 terminal and throws the bytes away, so everything up to the terminal itself is
 * measured: folding every trial, snapshots, React, layout, ink's frame diffing. The one-off import of
 * ink and React (paid only when the dashboard opens) is reported on its own. The dashboard hears of
 * every turn as `bazaar run --watch` wires it; beside it, what the store's turn log (on by default,
 * for `watch --follow`) costs a run nobody watches, against a run with no per-turn work at all.
 * Each timed run starts from a fully collected heap (as a fresh `bazaar run` process does).
 *
 *   npx tsx bench/tui.ts [--episodes N] [--rounds N]
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import v8 from "node:v8";
import vm from "node:vm";
import { ENVIRONMENT_CLIS } from "../cli/run/index.ts";
import { startRunView } from "../cli/tui/live/run-view.ts";
import { executeRun } from "../environments/runner/execute.ts";
import type { RunPlan } from "../environments/runner/plan.ts";
import { Store } from "../environments/store/index.ts";

const args = process.argv.slice(2);
const value = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};

/** A 100×40 "terminal" that discards what it is sent. */
function fakeTerminal(): NodeJS.WriteStream {
  const sink = new Writable({ write: (_chunk, _enc, done) => done() });
  return Object.assign(sink, { isTTY: true, columns: 100, rows: 40 }) as unknown as NodeJS.WriteStream;
}

async function plan(env: string, episodes: number): Promise<RunPlan> {
  const cli = ENVIRONMENT_CLIS.find((e) => e.name === env);
  if (!cli) throw new Error(`no environment ${env}`);
  // Enough replicates of the default simulated design for `episodes` trials.
  const planner = await cli.planner();
  const base = planner({ replicates: "1", maxReasks: "2" }, { settings: {} });
  const replicates = Math.ceil(episodes / base.total);
  return planner({ replicates: String(replicates), maxReasks: "2" }, { settings: {} });
}

// A full collection before each timed run: each starts from a clean heap, as a `bazaar run` process
// does, instead of paying for the garbage the run before it left (a dashboard's or not).
v8.setFlagsFromString("--expose-gc");
const collect = vm.runInNewContext("gc") as () => void;

let runs = 0;
/** Time the dashboard spent drawing, summed over the measured runs with it. */
const drawing = { frames: 0, ms: 0, runs: 0 };

async function timed(
  p: RunPlan,
  episodes: number,
  dir: string,
  watch: "none" | "dashboard" | "no-turn-log",
): Promise<number> {
  const store = Store.open(path.join(dir, `run-${runs++}.db`), { create: true });
  collect();
  const t0 = performance.now();
  const view =
    watch === "dashboard"
      ? await startRunView({
          plan: p,
          target: episodes,
          storedByAgent: new Map(),
          stdout: fakeTerminal(),
          log: () => {},
          onStop: () => {},
        })
      : null;
  const result = await executeRun(p, store, {
    concurrency: 8,
    limit: episodes,
    onProgress: view ? (x) => view.onProgress(x) : undefined,
    onTrial: view ? (r) => view.onTrial(r) : undefined,
    // As `bazaar run --watch` wires it: every turn of every episode reaches the dashboard.
    onEpisode: view ? view.episodes : undefined,
    liveTurns: watch !== "no-turn-log",
  });
  await view?.finish(result);
  const ms = performance.now() - t0;
  if (view) {
    const d = view.drawn();
    drawing.frames += d.frames;
    drawing.ms += d.ms;
    drawing.runs++;
  }
  store.close();
  if (result.ranNow !== episodes) throw new Error(`ran ${result.ranNow} of ${episodes}`);
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function compare(env: string, episodes: number, rounds: number, dir: string): Promise<void> {
  const p = await plan(env, episodes);
  await timed(p, Math.min(episodes, 500), dir, "none"); // warm-up of both paths
  await timed(p, Math.min(episodes, 500), dir, "dashboard");
  await timed(p, Math.min(episodes, 500), dir, "no-turn-log");
  const bare: number[] = [];
  const watched: number[] = [];
  const noLog: number[] = [];
  Object.assign(drawing, { frames: 0, ms: 0, runs: 0 });
  for (let i = 0; i < rounds; i++) {
    // Alternate which goes first, so a drift in machine load does not favour one side.
    if (i % 2 === 0) {
      noLog.push(await timed(p, episodes, dir, "no-turn-log"));
      bare.push(await timed(p, episodes, dir, "none"));
      watched.push(await timed(p, episodes, dir, "dashboard"));
    } else {
      watched.push(await timed(p, episodes, dir, "dashboard"));
      bare.push(await timed(p, episodes, dir, "none"));
      noLog.push(await timed(p, episodes, dir, "no-turn-log"));
    }
  }
  // Noise on a shared machine only ever adds time, so the fastest of the rounds is the headline;
  // the medians are printed beside it.
  const b = Math.min(...bare);
  const w = Math.min(...watched);
  const added = (100 * (w - b)) / b;
  const addedMedian = (100 * (median(watched) - median(bare))) / median(bare);
  const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(1)}%`;
  console.log(
    `  ${env}: ${episodes.toLocaleString("en-US")} episodes (${p.agents.length} agents), best of ${rounds}: without --watch ${b.toFixed(0)} ms, with the dashboard ${w.toFixed(0)} ms → ${signed(added)} ${added <= 10 ? "(within the 10% target)" : "(OVER the 10% target)"}; medians ${median(bare).toFixed(0)} / ${median(watched).toFixed(0)} ms → ${signed(addedMedian)}`,
  );
  // What a run nobody watches pays for the turn log (`watch --follow`, interrupted episodes): the
  // default run against one with no per-turn work at all (`liveTurns: false`).
  const n0 = Math.min(...noLog);
  const logAdded = (100 * (b - n0)) / n0;
  console.log(
    `    the turn log of a run without --watch: ${n0.toFixed(0)} ms without it, ${b.toFixed(0)} ms with it → ${signed(logAdded)} (best of ${rounds}); medians ${median(noLog).toFixed(0)} / ${median(bare).toFixed(0)} ms → ${signed((100 * (median(bare) - median(noLog))) / median(noLog))}`,
  );
  // The wall-time difference is noisy on a shared machine; the drawing time itself is not.
  const perRun = drawing.ms / drawing.runs;
  console.log(
    `    the dashboard drawing itself: ${(drawing.frames / drawing.runs).toFixed(1)} frames, ${perRun.toFixed(1)} ms per run = ${((100 * perRun) / b).toFixed(1)}% of the run without --watch`,
  );
}

export async function benchTui(): Promise<void> {
  const episodes = value("--episodes", 5_000);
  const rounds = value("--rounds", 7);
  const dir = mkdtempSync(path.join(os.tmpdir(), "bazaar-bench-tui-"));
  try {
    // As the CLI does before it loads the dashboard (React's development build is far slower).
    process.env.NODE_ENV ??= "production";
    const t0 = performance.now();
    await import("ink");
    await import("react");
    console.log(`live view (bazaar run --watch), wall time added to a simulated run:`);
    console.log(
      `  first import of ink + React: ${(performance.now() - t0).toFixed(0)} ms (once per process, only with --watch on a terminal)`,
    );
    await compare("bargain", episodes, rounds, dir);
    await compare("choice", episodes, rounds, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchTui();
