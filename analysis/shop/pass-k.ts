/**
 * pass^k (τ-bench): the chance that k independent trials of a task all succeed, estimated without
 * bias per task from n ≥ k trials with c successes as C(c, k) / C(n, k), averaged over the tasks
 * that have n ≥ k trials; the interval resamples tasks (the unit the average runs over).
 */
import type { Rng } from "../../environments/kernel/rng.ts";
import { percentileInterval } from "../stats/index.ts";
import type { ShopEpisode } from "./records.ts";

/** C(c, k) / C(n, k) = Π_{i<k} (c − i) / (n − i). */
export function passHatK(c: number, n: number, k: number): number {
  if (!(Number.isInteger(k) && k >= 1 && k <= n))
    throw new RangeError(`pass^k needs 1 ≤ k ≤ n, got k=${k}, n=${n}`);
  let r = 1;
  for (let i = 0; i < k; i++) r *= (c - i) / (n - i);
  return Math.max(0, r);
}

export interface PassK {
  k: number;
  /** Tasks with at least k trials (the ones averaged). */
  tasks: number;
  estimate: number;
  /** Percentile interval of the task bootstrap; null without draws or with fewer than 2 tasks. */
  low: number | null;
  high: number | null;
}

export interface PassKOptions {
  draws: number;
  rng: Rng;
  level?: number;
}

/** pass^k for k = 1 … the most trials any task has. */
export function passK(episodes: readonly ShopEpisode[], opts: PassKOptions): PassK[] {
  const byTask = new Map<string, { n: number; c: number }>();
  for (const e of episodes) {
    const t = byTask.get(e.taskId) ?? { n: 0, c: 0 };
    t.n++;
    if (e.success) t.c++;
    byTask.set(e.taskId, t);
  }
  const tasks = [...byTask.values()];
  const maxN = Math.max(0, ...tasks.map((t) => t.n));
  const level = opts.level ?? 0.95;
  // Per task, its pass^k for every k it supports (NaN where n < k).
  const values = tasks.map((t) =>
    Array.from({ length: maxN }, (_, i) => (i + 1 <= t.n ? passHatK(t.c, t.n, i + 1) : Number.NaN)),
  );
  const meanAt = (rows: readonly number[][], k: number) => {
    let sum = 0;
    let m = 0;
    for (const row of rows) {
      const v = row[k - 1] as number;
      if (!Number.isNaN(v)) {
        sum += v;
        m++;
      }
    }
    return m > 0 ? sum / m : Number.NaN;
  };
  const draws: number[][] = Array.from({ length: maxN }, () => []);
  for (let b = 0; b < opts.draws; b++) {
    const sample = Array.from({ length: values.length }, () => values[opts.rng.int(values.length)]!);
    for (let k = 1; k <= maxN; k++) {
      const v = meanAt(sample, k);
      if (!Number.isNaN(v)) draws[k - 1]!.push(v);
    }
  }
  const out: PassK[] = [];
  for (let k = 1; k <= maxN; k++) {
    const averaged = tasks.filter((t) => t.n >= k).length;
    // Resampling a single task redraws it every time: a zero-width interval, not uncertainty.
    const interval =
      averaged >= 2 && draws[k - 1]!.length > 0 ? percentileInterval(draws[k - 1]!, level) : null;
    out.push({
      k,
      tasks: averaged,
      estimate: meanAt(values, k),
      low: interval?.low ?? null,
      high: interval?.high ?? null,
    });
  }
  return out;
}
