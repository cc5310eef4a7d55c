/**
 * The choice analysis at PriceBench scale, in one run: one binary logit on 7,200 answers with an
 * intercept and 12 covariates (the six attributes, five chain dummies, log price), timed against
 * statsmodels' Logit on the same data when /usr/bin/python3 has it; then the full analysis of 28
 * simulated agents (7,200 binary + ternary answers and 300 five-option answers each) with the
 * 500-draw pair-clustered bootstrap shared by all agents (log and linear refits: 28,000 fits).
 *
 *   npx tsx bench/choice-analysis.ts [--draws 500]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { CHOICE_PRESETS, type LogitChooserParams } from "../agents/sim/index.ts";
import {
  analyzeChoice,
  binaryDesign,
  type ChoiceTrial,
  DEFAULT_CONVENTION,
} from "../analysis/choice/index.ts";
import { fitBinaryLogit } from "../analysis/logit/index.ts";
import { DEFAULT_HOTEL_POOL } from "../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../environments/choice/design.ts";
import { createRng } from "../environments/kernel/rng.ts";
import { simulateTask, trialOf } from "../test/analysis/choice/simulate.ts";

const AGENTS = 28;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** 28 logit shoppers spanning the paper's range: β_ln p from −0.4 to −7, varied quality weights. */
function agentParams(i: number): LogitChooserParams {
  const base = CHOICE_PRESETS.steep!.params!;
  const t = i / (AGENTS - 1);
  return {
    ...base,
    priceForm: i % 2 === 0 ? "log" : "linear",
    betaPrice: i % 2 === 0 ? -0.4 - 6.6 * t : -0.002 - 0.028 * t,
    betaReview: 0.4 + (4.6 * ((i * 7) % AGENTS)) / AGENTS,
    firstSlot: ((i % 5) - 2) * 0.2,
  };
}

function simulate(tasks: ReturnType<typeof buildChoiceTasks>): ChoiceTrial[] {
  const root = createRng("bench-choice-analysis");
  const trials: ChoiceTrial[] = [];
  for (let i = 0; i < AGENTS; i++) {
    const rng = root.fork(i);
    const policy = { kind: "logit" as const, params: agentParams(i) };
    for (const task of tasks)
      trials.push(trialOf(`sim:bench-${i + 1}`, task, simulateTask(task, policy, rng)));
  }
  return trials;
}

function findPython(): string | undefined {
  for (const candidate of ["/usr/bin/python3", "python3"]) {
    const probe = spawnSync(candidate, ["-c", "import statsmodels"], { encoding: "utf8" });
    if (probe.status === 0) return candidate;
  }
  return undefined;
}

// Column 0 is the cluster (pair) code, column 1 the outcome, the rest the design.
const PYTHON_TIMER = `
import sys, time, statistics
import numpy as np
import statsmodels.api as sm
d = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1)
g = d[:, 0].astype(int)
y = np.ascontiguousarray(d[:, 1]); X = np.ascontiguousarray(d[:, 2:])
for cluster in (False, True):
    kw = {"cov_type": "cluster", "cov_kwds": {"groups": g}} if cluster else {}
    for _ in range(10): sm.Logit(y, X).fit(disp=0, **kw)
    ts = []
    for _ in range(40):
        t0 = time.perf_counter(); sm.Logit(y, X).fit(disp=0, **kw); ts.append((time.perf_counter() - t0) * 1000)
    print(statistics.median(ts))
`;

export async function benchChoiceAnalysis(opts: { draws?: number } = {}): Promise<void> {
  const draws = opts.draws ?? 500;
  // One fit: 7,200 binary answers (900 pairs × 4 appearances × 2 orders).
  const bigTasks = buildChoiceTasks(
    { pairs: 900, triples: 0, fives: 0, seed: "bench-fit" },
    DEFAULT_HOTEL_POOL,
  );
  const rng = createRng("bench-fit-answers");
  const policy = { kind: "logit" as const, params: CHOICE_PRESETS.quality!.params! };
  const fitTrials = bigTasks.map((t) => trialOf("sim:quality", t, simulateTask(t, policy, rng)));
  const design = binaryDesign(fitTrials, { priceForm: "log", chains: true }, DEFAULT_CONVENTION);
  const timeFit = (data: Parameters<typeof fitBinaryLogit>[0]): number => {
    const times: number[] = [];
    for (let i = 0; i < 60; i++) {
      const t0 = performance.now();
      fitBinaryLogit(data);
      if (i >= 10) times.push(performance.now() - t0);
    }
    return median(times);
  };
  const plainMs = timeFit({ X: design.X, y: design.y, names: design.names });
  const clusterMs = timeFit(design);
  console.log(
    `choice analysis: binary logit ${design.X.length} × ${design.names.length - 1} covariates + intercept: median ${plainMs.toFixed(2)} ms; with cluster-robust SEs (pairs) ${clusterMs.toFixed(2)} ms`,
  );
  const python = findPython();
  if (python) {
    const dir = mkdtempSync(join(tmpdir(), "bazaar-bench-choice-"));
    try {
      const csv = join(dir, "fit.csv");
      const code = new Map<string, number>();
      for (const c of design.clusters) if (!code.has(c)) code.set(c, code.size);
      writeFileSync(
        csv,
        `${["g", "y", ...design.names].join(",")}\n${design.X.map((r, i) => [code.get(design.clusters[i]!), design.y[i], ...r].join(",")).join("\n")}\n`,
      );
      const out = spawnSync(python, ["-c", PYTHON_TIMER, csv], {
        encoding: "utf8",
        env: { ...process.env, OPENBLAS_NUM_THREADS: "1", OMP_NUM_THREADS: "1" },
      });
      const [smPlain, smCluster] = out.stdout.trim().split("\n").map(Number);
      if (out.status === 0 && Number.isFinite(smPlain) && Number.isFinite(smCluster))
        console.log(
          `  statsmodels Logit.fit on the same data (BLAS single-threaded): median ${smPlain!.toFixed(2)} ms; cov_type="cluster" ${smCluster!.toFixed(2)} ms; ratio statsmodels / bazaar ${(smPlain! / plainMs).toFixed(2)}x, cluster-robust ${(smCluster! / clusterMs).toFixed(2)}x`,
        );
      else console.log(`  statsmodels failed: ${out.stderr.trim().split("\n").at(-1)}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } else console.log("  statsmodels: not found; no ratio");

  const tasks = buildChoiceTasks({}, DEFAULT_HOTEL_POOL);
  const trials = simulate(tasks);
  const t0 = performance.now();
  const point = analyzeChoice(trials, { bootstrapDraws: 0 });
  const pointMs = performance.now() - t0;
  const t1 = performance.now();
  const cpu0 = process.cpuUsage();
  const full = analyzeChoice(trials, { bootstrapDraws: draws, seed: "bench" });
  const fullMs = performance.now() - t1;
  const cpu = process.cpuUsage(cpu0);
  // Wall time on a shared machine includes waiting for a core; CPU time is what the work costs.
  const cpuS = (cpu.user + cpu.system) / 1e6;
  const fits = full.bootstrap!.agents.length * draws * 2;
  const failed = full.bootstrap!.agents.reduce((s, a) => s + a.failedLog + a.failedLinear, 0);
  console.log(
    `  ${AGENTS} agents × ${(trials.length / AGENTS).toLocaleString("en-US")} trials: every estimate without bootstrap ${(pointMs / 1000).toFixed(2)} s; ` +
      `with the ${draws}-draw pair-clustered bootstrap ${(fullMs / 1000).toFixed(2)} s ` +
      `(bootstrap ${((fullMs - pointMs) / 1000).toFixed(2)} s for ${fits.toLocaleString("en-US")} warm-started refits, ${(((fullMs - pointMs) / fits) * 1000).toFixed(0)} µs each; ${failed} failed); ` +
      `CPU time of the whole analysis ${cpuS.toFixed(2)} s; load average ${loadavg()[0]!.toFixed(1)}; target ≤ 60 s`,
  );
  console.log(
    `  engaged agents: ${point.agents.filter((a) => a.status === "engaged").length}; mean rank correlation |β ln p| ${full.bootstrap!.priceRank.meanSpearman?.toFixed(3)}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf("--draws");
  const draws = i >= 0 ? Number(process.argv[i + 1]) : undefined;
  if (draws !== undefined && !(Number.isInteger(draws) && draws >= 1)) {
    console.error(`--draws must be a whole number ≥ 1, got ${process.argv[i + 1]}`);
    process.exit(2);
  }
  await benchChoiceAnalysis({ draws });
}
