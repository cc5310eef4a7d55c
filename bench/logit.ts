/**
 * One binary-logit fit on 7,200 observations × 12 covariates (the size of one agent's pooled
 * binary + ternary PriceBench data): median wall time of repeated fits, with and without
 * cluster-robust SEs. When a python3 with statsmodels is found, statsmodels' Logit is timed on the
 * same data in the same run and the ratio is printed. Run: npx tsx bench/logit.ts (or npm run bench)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fitBinaryLogit } from "../analysis/logit/index.ts";
import { createRng } from "../environments/kernel/rng.ts";
import { simulateBinary } from "../test/analysis/logit/simulate.ts";

const N = 7_200;
const BETA = [0.2, -1.1, 0.4, 0.3, 0.6, -0.5, 0.25, 0.8, 0.1, -0.3, 0.45, 0.2];
const WARMUP = 20;
const REPEATS = 60;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

function timeMs(run: () => unknown): number {
  for (let i = 0; i < WARMUP; i++) run();
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  return median(times);
}

// X is made C-contiguous as statsmodels would get it from a DataFrame or an array built in memory:
// a column slice of the loaded CSV is strided, which keeps numpy off BLAS and makes statsmodels
// look ~3x slower than it is.
const PYTHON_TIMER = `
import sys, time, statistics
import numpy as np
import statsmodels, statsmodels.api as sm
d = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1)
g = d[:, 0].astype(int)
y = np.ascontiguousarray(d[:, 1])
X = np.ascontiguousarray(d[:, 2:])
warmup, repeats = int(sys.argv[2]), int(sys.argv[3])
def run(cluster):
    kw = {"cov_type": "cluster", "cov_kwds": {"groups": g}} if cluster else {}
    res = sm.Logit(y, X).fit(disp=0, **kw)
    return res.bse, res.llf
for cluster in (False, True):
    for _ in range(warmup): run(cluster)
    ts = []
    for _ in range(repeats):
        t0 = time.perf_counter(); run(cluster); ts.append((time.perf_counter() - t0) * 1000)
    print(("cluster" if cluster else "plain"), statistics.median(ts))
print("version", statsmodels.__version__)
`;

function findPython(): string | undefined {
  for (const candidate of ["python3", "/usr/bin/python3"]) {
    const probe = spawnSync(candidate, ["-c", "import statsmodels"], { encoding: "utf8" });
    if (probe.status === 0) return candidate;
  }
  return undefined;
}

/** Prints the timings; `npm run bench` calls this, `npx tsx bench/logit.ts` runs it directly. */
export async function benchLogit(): Promise<void> {
  const data = simulateBinary(createRng("bench-logit"), N, BETA, { clusterSize: 4, shareWithinCluster: 0.3 });
  const names = BETA.map((_, j) => (j === 0 ? "intercept" : `x${j}`));
  const check = fitBinaryLogit({ ...data, names });
  if (check.status !== "ok") throw new Error(`bench data not identified: ${check.reason}`);

  const plainMs = timeMs(() => fitBinaryLogit({ X: data.X, y: data.y, names }));
  const clusterMs = timeMs(() => fitBinaryLogit({ ...data, names }));
  console.log(`logit fit ${N} x ${BETA.length}: ${check.iterations} Newton iterations`);
  console.log(`bazaar fitBinaryLogit, model-based SEs: median ${plainMs.toFixed(2)} ms over ${REPEATS} fits`);
  console.log(
    `bazaar fitBinaryLogit, + cluster-robust SEs (${check.clusterCount} clusters): median ${clusterMs.toFixed(2)} ms`,
  );
  // A bootstrap refit: clusters resampled with replacement, started from the full-sample estimate.
  const rng = createRng("bench-logit-bootstrap");
  const byCluster = new Map<number, number[]>();
  data.clusters.forEach((c, i) => {
    byCluster.set(c, [...(byCluster.get(c) ?? []), i]);
  });
  const ids = [...byCluster.keys()];
  const rows = ids.flatMap(() => byCluster.get(rng.pick(ids)) ?? []);
  const resample = {
    X: rows.map((i) => data.X[i] as number[]),
    y: rows.map((i) => data.y[i] as 0 | 1),
    names,
  };
  const start = check.coefficients.map((c) => c.estimate);
  const refit = fitBinaryLogit(resample, { start });
  const refitMs = timeMs(() => fitBinaryLogit(resample, { start }));
  console.log(
    `bazaar bootstrap refit (resampled clusters, warm start): median ${refitMs.toFixed(2)} ms, ${refit.iterations} Newton iterations`,
  );

  const python = findPython();
  if (!python) {
    console.log("statsmodels: not found (python3 -c 'import statsmodels' failed); no ratio");
  } else {
    const dir = mkdtempSync(join(tmpdir(), "bazaar-bench-"));
    try {
      const csv = join(dir, "logit.csv");
      const lines = data.X.map((row, i) => [data.clusters[i], data.y[i], ...row].join(","));
      writeFileSync(csv, `${["cluster", "y", ...names].join(",")}\n${lines.join("\n")}\n`);
      const pyWarmup = 10;
      const pyRepeats = 60;
      // numpy's OpenBLAS starts a thread per core; on small problems the threads cost more than
      // they save, so statsmodels is also timed single-threaded, like this (single-threaded) fit.
      const runs: [string, NodeJS.ProcessEnv][] = [
        ["default BLAS threads", process.env],
        [
          "BLAS single-threaded",
          { ...process.env, OPENBLAS_NUM_THREADS: "1", OMP_NUM_THREADS: "1", MKL_NUM_THREADS: "1" },
        ],
      ];
      for (const [label, env] of runs) {
        const out = spawnSync(python, ["-c", PYTHON_TIMER, csv, String(pyWarmup), String(pyRepeats)], {
          encoding: "utf8",
          env,
        });
        if (out.status !== 0) throw new Error(`statsmodels timing failed: ${out.stderr}`);
        const read = (key: string): string =>
          out.stdout
            .split("\n")
            .find((l) => l.startsWith(`${key} `))
            ?.split(" ")[1] ?? "";
        const smPlain = Number(read("plain"));
        const smCluster = Number(read("cluster"));
        console.log(
          `statsmodels ${read("version")} Logit.fit (${python}, ${label}), default SEs: median ${smPlain.toFixed(2)} ms over ${pyRepeats} fits; cov_type="cluster": median ${smCluster.toFixed(2)} ms`,
        );
        console.log(
          `ratio statsmodels / bazaar (${label}): model-based ${(smPlain / plainMs).toFixed(2)}x, cluster-robust ${(smCluster / clusterMs).toFixed(2)}x`,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchLogit();
