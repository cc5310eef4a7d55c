import { mean, normalQuantile, standardDeviation } from "../stats/index.ts";
import type { GroupData, Offer, QueryData, QueryStats, WaldEstimate } from "./types.ts";

export function queryStats(values: readonly number[]): QueryStats {
  const n = values.length;
  if (n === 0) return { mean: Number.NaN, sd: Number.NaN, n, se: Number.NaN };
  const m = mean(values);
  if (n === 1) return { mean: m, sd: Number.NaN, n, se: Number.NaN };
  const sd = standardDeviation(values);
  return { mean: m, sd, n, se: sd / Math.sqrt(n) };
}

/** A signed sum of independent query means plus a fixed price adjustment: SEs add in quadrature. */
export function wald(estimate: number, ses: readonly number[], z: number): WaldEstimate {
  const se = Math.sqrt(ses.reduce((a, s) => a + s * s, 0));
  return { estimate, se, low: estimate - z * se, high: estimate + z * se };
}

/** The smallest |R| the interval allows, ≥ 0: the comparison-specific magnitude lower bound. */
export function magnitudeLowerBound(w: WaldEstimate): number {
  if (Number.isNaN(w.se)) return Number.NaN;
  return w.low > 0 ? w.low : w.high < 0 ? -w.high : 0;
}

/** A P1 or P2 residual with its Wald interval, also divided by the mean endpoint price s_ab. */
export interface LocalResidual {
  kind: "P1" | "P2";
  group: string;
  comparison: string;
  /** P1: the path (`b1`, `k8`, …) and its number of steps. */
  path?: string;
  steps?: number;
  source: Offer;
  target: Offer;
  /** s_ab = (p + q)/2 of the endpoints (intermediate prices never enter). */
  scale: number;
  residual: WaldEstimate;
  /** residual / s_ab, interval included. */
  relative: WaldEstimate;
  /** Whether the interval is defined (every query had at least 2 finite completions). */
  testable: boolean;
  /** Local rejection: the interval excludes zero. */
  excludesZero: boolean;
  /** Lower bound of |R| / s_ab (0 when the interval covers zero). */
  relativeLowerBound: number;
  queries: string[];
}

/** P2's two selectors for one comparison: the offer-pair mean and the item-query difference. */
export interface P2Residual extends LocalResidual {
  kind: "P2";
  offerPair: WaldEstimate;
  itemDifference: WaldEstimate;
  /** Both intervals exclude zero, in opposite directions: the two selectors pick opposite offers. */
  reversal: boolean;
}

function residualOf(
  base: Omit<
    LocalResidual,
    "residual" | "relative" | "testable" | "excludesZero" | "relativeLowerBound" | "kind"
  >,
  kind: "P1" | "P2",
  residual: WaldEstimate,
): LocalResidual {
  const s = base.scale;
  const relative = {
    estimate: residual.estimate / s,
    se: residual.se / s,
    low: residual.low / s,
    high: residual.high / s,
  };
  const testable = Number.isFinite(residual.se);
  return {
    kind,
    ...base,
    residual,
    relative,
    testable,
    excludesZero: testable && (residual.low > 0 || residual.high < 0),
    relativeLowerBound: magnitudeLowerBound(relative),
  };
}

interface Indexed {
  stats: Map<string, QueryStats>;
  byId: Map<string, QueryData>;
}

function usable(q: QueryData | undefined, stats: Map<string, QueryStats>): q is QueryData {
  return q !== undefined && (stats.get(q.queryId)?.n ?? 0) > 0;
}

/**
 * P1 (path additivity) for every comparison and path of a group whose direct query and every step
 * have a finite mean: R1 = Δ(a→c) − Σ Δ(b_{i−1}→b_i).
 */
export function pathResiduals(group: GroupData, stats: Map<string, QueryStats>, z: number): LocalResidual[] {
  const direct = new Map<string, QueryData>();
  const paths = new Map<
    string,
    { comparison: string; path: string; steps: number; parts: Map<number, QueryData> }
  >();
  for (const q of group.queries) {
    for (const use of q.uses) {
      if (use.kind === "direct") direct.set(use.comparison, q);
      else {
        const key = `${use.comparison}\u0000${use.path}`;
        let p = paths.get(key);
        if (!p) {
          p = { comparison: use.comparison, path: use.path, steps: use.steps, parts: new Map() };
          paths.set(key, p);
        }
        p.parts.set(use.step, q);
      }
    }
  }
  const out: LocalResidual[] = [];
  for (const p of paths.values()) {
    const d = direct.get(p.comparison);
    if (!usable(d, stats)) continue;
    const steps: QueryData[] = [];
    for (let j = 1; j <= p.steps; j++) {
      const q = p.parts.get(j);
      if (usable(q, stats)) steps.push(q);
    }
    if (steps.length !== p.steps) continue;
    const sd = stats.get(d.queryId) as QueryStats;
    const stepStats = steps.map((q) => stats.get(q.queryId) as QueryStats);
    const estimate = sd.mean - stepStats.reduce((a, s) => a + s.mean, 0);
    const source = d.source as Offer;
    const target = d.target as Offer;
    out.push(
      residualOf(
        {
          group: group.group,
          comparison: p.comparison,
          path: p.path,
          steps: p.steps,
          source,
          target,
          scale: (source.price + target.price) / 2,
          queries: [d.queryId, ...steps.map((q) => q.queryId)],
        },
        "P1",
        wald(estimate, [sd.se, ...stepStats.map((s) => s.se)], z),
      ),
    );
  }
  return out;
}

/**
 * P2 for every comparison of a group whose direct query and both endpoint item queries have a finite
 * mean: R2 = Δ(a→b) − [(Y(y) − q) − (Y(x) − p)], with both selectors' intervals for reversals.
 */
export function itemResiduals(group: GroupData, stats: Map<string, QueryStats>, z: number): P2Residual[] {
  const itemQuery = new Map<string, QueryData>();
  for (const q of group.queries) if (q.queryType === "item" && q.item !== undefined) itemQuery.set(q.item, q);
  const out: P2Residual[] = [];
  for (const d of group.queries) {
    for (const use of d.uses) {
      if (use.kind !== "direct") continue;
      const source = d.source as Offer;
      const target = d.target as Offer;
      const qx = itemQuery.get(source.item);
      const qy = itemQuery.get(target.item);
      if (!usable(d, stats) || !usable(qx, stats) || !usable(qy, stats)) continue;
      const sd = stats.get(d.queryId) as QueryStats;
      const sx = stats.get(qx.queryId) as QueryStats;
      const sy = stats.get(qy.queryId) as QueryStats;
      const offerPair = wald(sd.mean, [sd.se], z);
      const itemDifference = wald(sy.mean - target.price - (sx.mean - source.price), [sx.se, sy.se], z);
      const base = residualOf(
        {
          group: group.group,
          comparison: use.comparison,
          source,
          target,
          scale: (source.price + target.price) / 2,
          queries: [d.queryId, qx.queryId, qy.queryId],
        },
        "P2",
        wald(offerPair.estimate - itemDifference.estimate, [sd.se, sx.se, sy.se], z),
      );
      const reversal =
        base.testable &&
        ((offerPair.low > 0 && itemDifference.high < 0) || (offerPair.high < 0 && itemDifference.low > 0));
      out.push({ ...base, kind: "P2", offerPair, itemDifference, reversal });
    }
  }
  return out;
}

/** Index a group's per-query statistics once. */
export function indexGroup(group: GroupData): Indexed {
  const stats = new Map<string, QueryStats>();
  const byId = new Map<string, QueryData>();
  for (const q of group.queries) {
    stats.set(q.queryId, queryStats(q.values));
    byId.set(q.queryId, q);
  }
  return { stats, byId };
}

/** z for a two-sided level (0.95 ⇒ 1.959964). */
export function zFor(level: number): number {
  return normalQuantile((1 + level) / 2);
}
