import type { Rng } from "../../environments/kernel/rng.ts";
import { sortedQuantile } from "./descriptive.ts";

/** n indices drawn uniformly with replacement from 0..n−1: one nonparametric bootstrap resample. */
export function resampleIndices(rng: Rng, n: number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.int(n);
  return out;
}

export interface Interval {
  low: number;
  high: number;
}

/**
 * The percentile bootstrap interval: the (1 − level)/2 and (1 + level)/2 type-7 quantiles of the
 * bootstrap draws of a statistic. Draws must be finite: decide what a failed refit means (drop it
 * and report how many, or fail) before calling this.
 */
export function percentileInterval(draws: readonly number[], level = 0.95): Interval {
  if (!(level > 0 && level < 1)) throw new RangeError(`percentileInterval needs 0 < level < 1, got ${level}`);
  if (draws.length === 0) throw new RangeError("percentileInterval needs at least one draw");
  draws.forEach((d, i) => {
    if (!Number.isFinite(d))
      throw new RangeError(`percentileInterval: draw ${i} is ${d}; filter failed refits first`);
  });
  const sorted = Float64Array.from(draws).sort();
  return { low: sortedQuantile(sorted, (1 - level) / 2), high: sortedQuantile(sorted, (1 + level) / 2) };
}
