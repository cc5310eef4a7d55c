/**
 * A paired difference of two agents on the same units, clustered by task: the mean of within-unit
 * differences, Σ(t − c)/Σn over the tasks' sums — a ratio of task sums, since tasks carry different
 * numbers of units. Its interval is a studentized (bootstrap-t) task bootstrap: tasks are resampled
 * with all their units, since the replicates (and clients) of a task are not independent, and each
 * draw's (r* − r̂)/se* — se the task-clustered linearized SE of the ratio, with G/(G − 1) — gives
 * the quantiles turned around r̂.
 *
 * Why bootstrap-t: the plain percentile bootstrap, even with its draws spread by √(G/(G − 1)), held
 * the truth 92.2–93.9% at 60 tasks and 91.1–92.2% at 15 on the negotiation comparisons (whose P′_b
 * draws are skewed); the bootstrap-t holds it 93.5–94.4% at both (1,000 seeded replications,
 * negotiation-coverage.validate.test.ts); on the client shoppers' regret difference — a mixture of
 * zeros and whole best surpluses — it holds it 94.5% at 40 tasks, 94.8% at 60 and 92.0% at 15
 * (89.4% for a 90% interval at 40; 2,000 replications, client/coverage.validate.test.ts). The
 * buyers' comparison of a run with offers and the shoppers' comparison of a run with clients both
 * use it.
 */
import type { Rng } from "../../environments/kernel/rng.ts";
import { type Interval, percentileInterval, resampleIndices } from "../stats/index.ts";

/** Below this many tasks, a paired interval runs noticeably under its level (the tables say so). */
export const FEW_TASKS = 30;

/** One task's units: how many, and the sums of the treatment's and the control's values over them. */
export interface PairedSums {
  n: number;
  t: number;
  c: number;
}

export interface PairedDifference {
  /** Units (task × replicate, and client where there are clients) where both agents have the value. */
  units: number;
  tasks: number;
  treatment: number | null;
  control: number | null;
  /** treatment − control; null without units. */
  difference: number | null;
  /** Bootstrap-t task interval; null without draws or with fewer than two tasks. */
  interval: Interval | null;
}

/**
 * The task-clustered standard error of a ratio of sums Σd/Σn (the linearization: each task's
 * residual d_g − r·n_g), with the G/(G − 1) small-sample factor.
 */
export function pairedRatioSe(clusters: readonly PairedSums[], ratio: number): number {
  let n = 0;
  let ss = 0;
  for (const s of clusters) {
    n += s.n;
    const e = s.t - s.c - ratio * s.n;
    ss += e * e;
  }
  const g = clusters.length;
  return g > 1 && n > 0 ? Math.sqrt((ss * g) / (g - 1)) / n : 0;
}

/**
 * The difference over the tasks' sums (tasks without units count for nothing), with its bootstrap-t
 * interval from `draws` task resamples drawn from `rng`.
 */
export function pairedDifference(
  clusters: readonly PairedSums[],
  options: { draws: number; level: number; rng: Rng },
): PairedDifference {
  const { draws, level, rng } = options;
  const used = clusters.filter((s) => s.n > 0);
  const total = { n: 0, t: 0, c: 0 };
  for (const s of used) {
    total.n += s.n;
    total.t += s.t;
    total.c += s.c;
  }
  if (total.n === 0)
    return { units: 0, tasks: 0, treatment: null, control: null, difference: null, interval: null };
  const estimate = (total.t - total.c) / total.n;
  let interval: Interval | null = null;
  if (draws > 0 && used.length >= 2) {
    const se = pairedRatioSe(used, estimate);
    const ts: number[] = [];
    for (let r = 0; r < draws; r++) {
      const sample = Array.from(resampleIndices(rng, used.length), (i) => used[i]!);
      let n = 0;
      let d = 0;
      for (const s of sample) {
        n += s.n;
        d += s.t - s.c;
      }
      const star = d / n;
      const seStar = pairedRatioSe(sample, star);
      if (seStar > 0) ts.push((star - estimate) / seStar);
    }
    if (se > 0 && ts.length > 0) {
      // Bootstrap-t: the studentized draws' quantiles, turned around the estimate.
      const q = percentileInterval(ts, level);
      interval = { low: estimate - q.high * se, high: estimate - q.low * se };
    } else interval = { low: estimate, high: estimate };
  }
  return {
    units: total.n,
    tasks: used.length,
    treatment: total.t / total.n,
    control: total.c / total.n,
    difference: estimate,
    interval,
  };
}
