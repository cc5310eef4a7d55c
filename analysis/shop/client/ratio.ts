/**
 * A ratio of sums with a task-clustered interval: Σ num / Σ den over episodes — the share of the
 * best surplus captured (surplus over best surplus), the share of hidden requirements learned,
 * faults per client reply. Episodes differ in their denominators (a best surplus of $20 or of
 * $200, two hidden requirements or five), so the ratio of sums, not a mean of per-episode ratios,
 * is what "share of the total" means; its SE is the linearization every clustered ratio here uses
 * (each task's residual Σ(num − r·den), with G/(G − 1)), and its interval Student's t with G − 1
 * degrees of freedom like `clusteredMean`'s.
 */
import { tQuantile } from "../../stats/index.ts";

export interface RatioEstimate {
  /** Episodes in the sums. */
  n: number;
  num: number;
  den: number;
  /** Null without episodes or when the denominator sums to zero or less. */
  estimate: number | null;
  /** Task-clustered SE; null with fewer than two tasks. */
  se: number | null;
  low: number | null;
  high: number | null;
}

export function clusteredRatio(
  items: readonly { cluster: string; num: number; den: number }[],
  level = 0.95,
): RatioEstimate {
  let num = 0;
  let den = 0;
  for (const i of items) {
    num += i.num;
    den += i.den;
  }
  const n = items.length;
  // A non-positive total has no share to speak of (a best surplus that sums below zero).
  if (n === 0 || den <= 0) return { n, num, den, estimate: null, se: null, low: null, high: null };
  const r = num / den;
  const residual = new Map<string, number>();
  for (const i of items) residual.set(i.cluster, (residual.get(i.cluster) ?? 0) + i.num - r * i.den);
  const g = residual.size;
  if (g < 2) return { n, num, den, estimate: r, se: null, low: null, high: null };
  let ss = 0;
  for (const e of residual.values()) ss += e * e;
  const se = Math.sqrt((g / (g - 1)) * ss) / den;
  const t = tQuantile(1 - (1 - level) / 2, g - 1);
  return { n, num, den, estimate: r, se, low: r - t * se, high: r + t * se };
}
