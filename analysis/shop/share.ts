/**
 * A share of episodes with a task-clustered standard error: replicates of one task (and an agent's
 * episodes on it) are not independent draws, so the variance sums residuals within a task first
 * (the sandwich form with the G/(G−1) small-sample factor, as the logit's cluster-robust SEs).
 */
import { normalQuantile } from "../stats/index.ts";

export interface Share {
  /** Episodes in the denominator. */
  n: number;
  hits: number;
  estimate: number | null;
  /** Task-clustered SE; null with fewer than two tasks. */
  se: number | null;
  low: number | null;
  high: number | null;
}

export function clusteredShare(items: readonly { cluster: string; hit: boolean }[], level = 0.95): Share {
  const n = items.length;
  const hits = items.filter((i) => i.hit).length;
  if (n === 0) return { n, hits, estimate: null, se: null, low: null, high: null };
  const p = hits / n;
  const residual = new Map<string, number>();
  for (const i of items) residual.set(i.cluster, (residual.get(i.cluster) ?? 0) + (i.hit ? 1 : 0) - p);
  const g = residual.size;
  if (g < 2) return { n, hits, estimate: p, se: null, low: null, high: null };
  let ss = 0;
  for (const e of residual.values()) ss += e * e;
  const se = Math.sqrt(((g / (g - 1)) * ss) / (n * n));
  const z = normalQuantile(1 - (1 - level) / 2);
  return { n, hits, estimate: p, se, low: Math.max(0, p - z * se), high: Math.min(1, p + z * se) };
}
