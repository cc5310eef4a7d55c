import { createRng } from "../../environments/kernel/rng.ts";
import { percentileInterval, resampleIndices } from "../stats/index.ts";
import type { ScoredSession } from "./session.ts";

/**
 * Two buyers compared on the same scenarios against the same seller(s): a pair is one scenario,
 * seller and replicate played by both. The bootstrap resamples scenarios (all of a scenario's pairs
 * together), since sessions on one product are not independent.
 */
export const PAIRED_METRICS = [
  "dealRateAll",
  "dealRateValid",
  "buyerSnp",
  "buyerProfit",
  "meanBuyerNormalized",
] as const;
export type PairedMetric = (typeof PAIRED_METRICS)[number];

export interface PairedValue {
  treatment: number | null;
  control: number | null;
  /** treatment − control; null when either is undefined. */
  difference: number | null;
  /** Percentile bootstrap interval of the difference; null without enough defined draws. */
  interval: { low: number; high: number } | null;
  /** Bootstrap draws where the difference was undefined (e.g. no deals), left out of the interval. */
  undefinedDraws: number;
}

export interface PairedComparison {
  treatment: string;
  control: string;
  /** The seller both buyers faced, or null for all sellers pooled. */
  seller: string | null;
  pairs: number;
  scenarios: number;
  level: number;
  resamples: number;
  /** Why every interval is null although resamples were asked for (a single scenario), else null. */
  intervalNote: string | null;
  metrics: Record<PairedMetric, PairedValue>;
}

export interface PairedOptions {
  resamples?: number;
  level?: number;
  seed?: string | number;
}

/** Per-scenario sums of both buyers; metrics are ratios of sums, so clusters add up. */
interface Totals {
  n: number;
  deals: [number, number];
  valid: [number, number];
  snp: [number, number];
  profit: [number, number];
}

function empty(): Totals {
  return { n: 0, deals: [0, 0], valid: [0, 0], snp: [0, 0], profit: [0, 0] };
}

function add(into: Totals, t: Totals, times = 1): void {
  into.n += t.n * times;
  for (const k of ["deals", "valid", "snp", "profit"] as const) {
    into[k][0] += t[k][0] * times;
    into[k][1] += t[k][1] * times;
  }
}

function metricsOf(t: Totals): Record<PairedMetric, [number | null, number | null]> {
  const ratio = (a: number, b: number) => (b > 0 ? a / b : null);
  const pick = (i: 0 | 1) => ({
    dealRateAll: ratio(t.deals[i], t.n),
    dealRateValid: ratio(t.deals[i], t.valid[i]),
    buyerSnp: t.snp[i],
    buyerProfit: t.profit[i],
    meanBuyerNormalized: ratio(t.snp[i], t.deals[i]),
  });
  const a = pick(0);
  const b = pick(1);
  return Object.fromEntries(PAIRED_METRICS.map((m) => [m, [a[m], b[m]]])) as Record<
    PairedMetric,
    [number | null, number | null]
  >;
}

function unitOf(s: ScoredSession): Totals {
  return {
    n: 1,
    deals: [s.deal ? 1 : 0, 0],
    valid: [s.valid ? 1 : 0, 0],
    snp: [s.buyerNormalized ?? 0, 0],
    profit: [s.buyerProfit ?? 0, 0],
  };
}

export function comparePairedBuyers(
  sessions: readonly ScoredSession[],
  treatment: string,
  control: string,
  seller: string | null,
  options: PairedOptions = {},
): PairedComparison {
  const resamples = options.resamples ?? 2000;
  const level = options.level ?? 0.95;
  const key = (s: ScoredSession) => `${s.scenarioId}\u0000${s.seller}\u0000${s.replicate}`;
  const control_ = new Map<string, ScoredSession>();
  for (const s of sessions) {
    if (s.buyer === control && (seller === null || s.seller === seller)) control_.set(key(s), s);
  }
  const clusters = new Map<string, Totals>();
  for (const s of sessions) {
    if (s.buyer !== treatment || (seller !== null && s.seller !== seller)) continue;
    const c = control_.get(key(s));
    if (!c) continue;
    const unit = unitOf(s);
    const other = unitOf(c);
    unit.deals[1] = other.deals[0];
    unit.valid[1] = other.valid[0];
    unit.snp[1] = other.snp[0];
    unit.profit[1] = other.profit[0];
    let cluster = clusters.get(s.scenarioId);
    if (!cluster) {
      cluster = empty();
      clusters.set(s.scenarioId, cluster);
    }
    add(cluster, unit);
  }
  const list = [...clusters.values()];
  const total = empty();
  for (const c of list) add(total, c);
  const point = metricsOf(total);

  const draws = Object.fromEntries(PAIRED_METRICS.map((m) => [m, [] as number[]])) as Record<
    PairedMetric,
    number[]
  >;
  const undefinedDraws = Object.fromEntries(PAIRED_METRICS.map((m) => [m, 0])) as Record<
    PairedMetric,
    number
  >;
  // One scenario resampled is that scenario every time: a zero-width interval, not uncertainty.
  const intervalNote =
    list.length === 1 ? "1 scenario: resampling scenarios needs 2 or more, so no interval" : null;
  if (list.length > 1) {
    const rng = createRng(`bargain/paired/${options.seed ?? 0}/${treatment}/${control}/${seller ?? "*"}`);
    for (let r = 0; r < resamples; r++) {
      const t = empty();
      for (const i of resampleIndices(rng, list.length)) add(t, list[i]!);
      const m = metricsOf(t);
      for (const k of PAIRED_METRICS) {
        const [a, b] = m[k];
        if (a === null || b === null) undefinedDraws[k]++;
        else draws[k].push(a - b);
      }
    }
  }
  const metrics = Object.fromEntries(
    PAIRED_METRICS.map((k) => {
      const [a, b] = point[k];
      const enough = draws[k].length >= Math.max(2, resamples / 2);
      const value: PairedValue = {
        treatment: a,
        control: b,
        difference: a === null || b === null ? null : a - b,
        interval: enough ? percentileInterval(draws[k], level) : null,
        undefinedDraws: undefinedDraws[k],
      };
      return [k, value];
    }),
  ) as Record<PairedMetric, PairedValue>;
  return {
    treatment,
    control,
    seller,
    pairs: total.n,
    scenarios: list.length,
    level,
    resamples,
    intervalNote,
    metrics,
  };
}
