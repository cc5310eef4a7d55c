/**
 * The pair-clustered bootstrap: resample the unique binary option sets with replacement, refit each
 * agent's binary logits (log and linear price) on the same draws, and read intervals, ranking
 * stability and the spread of willingness to pay across agents off the draws.
 */
import type { Rng } from "../../environments/kernel/rng.ts";
import { type Interval, percentileInterval, spearman } from "../stats/index.ts";
import { REVIEW_INDEX } from "./attributes.ts";
import { binaryDesign } from "./design.ts";
import type { ChoiceConvention, ChoiceTrial } from "./types.ts";
import { WeightedBinaryLogit } from "./weighted-logit.ts";
import { wtpValue } from "./wtp.ts";

export interface BootstrapAgentInput {
  agent: string;
  trials: readonly ChoiceTrial[];
  /** Full-sample coefficients of the log and linear binary fits (warm starts and point values). */
  start: { log: readonly number[]; linear: readonly number[] };
  /** In the WTP ranking and spread (the paper's well-identified screen). */
  wellIdentified: boolean;
}

export interface AgentBootstrap {
  agent: string;
  /** Draws whose log / linear refit failed (no finite maximum or no convergence); left out. */
  failedLog: number;
  failedLinear: number;
  lnPrice: Interval | null;
  price: Interval | null;
  reviewLog: Interval | null;
  reviewLinear: Interval | null;
  /** Percentile intervals of the log-form (at the reference price) and linear-form WTP. */
  wtpLog: Interval | null;
  wtpLinear: Interval | null;
}

export interface RankStability {
  agents: number;
  /** Mean over draws of Spearman's ρ between the draw's ranking and the full-sample ranking. */
  meanSpearman: number | null;
  /** Draws in which every agent's refit succeeded (only those enter the mean). */
  usableDraws: number;
  /**
   * Monte Carlo standard error of the mean (SD of the per-draw ρ / √draws): how far another set of
   * draws (another seed, another generator) would typically land.
   */
  monteCarloSe: number | null;
}

/**
 * Monte Carlo error of figures that rest on the draws, from resampling the draws themselves (the
 * same draw indices for every agent): the SD of each figure over `resamples` resamples estimates how
 * much it moves with the draws — what separates two bootstrap runs that differ only in their seed.
 */
export interface SpreadMonteCarlo {
  resamples: number;
  intervalLowSe: number | null;
  intervalHighSe: number | null;
  separablePairsSe: number | null;
}

export interface WtpSpread {
  form: "log" | "linear";
  agents: number;
  /** max/min WTP across the well-identified agents, full sample. */
  point: number | null;
  interval: Interval | null;
  usableDraws: number;
  /** Draws skipped because some agent's WTP was ≤ 0 there (the ratio means nothing then). */
  nonPositiveDraws: number;
  /** Pairs of agents, and pairs whose WTP intervals do not overlap. */
  pairs: number;
  separablePairs: number;
  monteCarlo: SpreadMonteCarlo | null;
}

export interface ChoiceBootstrap {
  draws: number;
  clusters: number;
  level: number;
  agents: AgentBootstrap[];
  /** Ranking of |β_ln p| over all bootstrapped agents. */
  priceRank: RankStability;
  /** Ranking of the log-form WTP over the well-identified agents. */
  wtpRank: RankStability;
  wtpSpreadLog: WtpSpread;
  wtpSpreadLinear: WtpSpread;
}

export interface BootstrapOptions {
  draws: number;
  rng: Rng;
  referencePrice: number;
  convention: ChoiceConvention;
  edges: readonly number[];
  level?: number;
  /** Resamples of the draws behind the Monte Carlo errors (default 200; 0 skips them). */
  monteCarloResamples?: number;
}

/**
 * Newton converges quadratically: after a last step of size δ the error is of order δ², so a
 * tolerance of 1e-5 on the linear predictor leaves ~1e-10 — far below any bootstrap spread.
 */
const REFIT = { tolerance: 1e-5 };

/** B draws of G cluster indices each (with replacement), the same for every agent. */
export function clusterDraws(rng: Rng, clusters: number, draws: number): Int32Array[] {
  return Array.from({ length: draws }, () => {
    const d = new Int32Array(clusters);
    for (let i = 0; i < clusters; i++) d[i] = rng.int(clusters);
    return d;
  });
}

function safeInterval(xs: readonly number[], level: number): Interval | null {
  const finite = xs.filter(Number.isFinite);
  return finite.length === 0 ? null : percentileInterval(finite, level);
}

function standardDeviation(xs: readonly number[]): number | null {
  if (xs.length < 2) return null;
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) * (b - m), 0) / (xs.length - 1));
}

function rankStability(values: number[][], point: number[]): RankStability {
  const draws = point.length < 2 ? 0 : (values[0]?.length ?? 0);
  const rhos: number[] = [];
  for (let b = 0; b < draws; b++) {
    const row = values.map((v) => v[b] as number);
    if (row.some((v) => !Number.isFinite(v))) continue;
    const rho = spearman(row, point);
    if (Number.isFinite(rho)) rhos.push(rho);
  }
  const sd = standardDeviation(rhos);
  return {
    agents: point.length,
    meanSpearman:
      point.length < 2 || rhos.length === 0 ? null : rhos.reduce((a, b) => a + b, 0) / rhos.length,
    usableDraws: rhos.length,
    monteCarloSe: point.length < 2 || sd === null ? null : sd / Math.sqrt(rhos.length),
  };
}

function countSeparable(intervals: readonly (Interval | null)[]): { pairs: number; separable: number } {
  let pairs = 0;
  let separable = 0;
  for (let i = 0; i < intervals.length; i++) {
    for (let j = i + 1; j < intervals.length; j++) {
      pairs++;
      const a = intervals[i];
      const c = intervals[j];
      if (a && c && (a.low > c.high || c.low > a.high)) separable++;
    }
  }
  return { pairs, separable };
}

/** The spread's interval and separable pairs recomputed on `resamples` resamples of the draws. */
function spreadMonteCarlo(
  values: number[][],
  level: number,
  rng: Rng,
  resamples: number,
): SpreadMonteCarlo | null {
  const draws = values[0]?.length ?? 0;
  if (resamples <= 0 || draws < 2 || values.length < 2) return null;
  const lows: number[] = [];
  const highs: number[] = [];
  const counts: number[] = [];
  const pick = new Int32Array(draws);
  for (let r = 0; r < resamples; r++) {
    for (let b = 0; b < draws; b++) pick[b] = rng.int(draws);
    const resampled = values.map((v) => Array.from(pick, (b) => v[b] as number));
    const ratios = ratioDraws(resampled).ratios;
    if (ratios.length > 0) {
      const ci = percentileInterval(ratios, level);
      lows.push(ci.low);
      highs.push(ci.high);
    }
    counts.push(countSeparable(resampled.map((v) => safeInterval(v, level))).separable);
  }
  return {
    resamples,
    intervalLowSe: standardDeviation(lows),
    intervalHighSe: standardDeviation(highs),
    separablePairsSe: standardDeviation(counts),
  };
}

/** max/min across agents in each draw where every agent's value is finite and the minimum positive. */
function ratioDraws(values: number[][]): { ratios: number[]; nonPositive: number } {
  const draws = values[0]?.length ?? 0;
  const ratios: number[] = [];
  let nonPositive = 0;
  for (let b = 0; b < draws; b++) {
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    let finite = true;
    for (const v of values) {
      const x = v[b] as number;
      if (!Number.isFinite(x)) {
        finite = false;
        break;
      }
      if (x < min) min = x;
      if (x > max) max = x;
    }
    if (!finite) continue;
    if (min <= 0) {
      nonPositive++;
      continue;
    }
    ratios.push(max / min);
  }
  return { ratios, nonPositive };
}

function spread(
  form: "log" | "linear",
  values: number[][],
  point: number[],
  intervals: (Interval | null)[],
  level: number,
  monteCarlo: { rng: Rng; resamples: number },
): WtpSpread {
  const { ratios, nonPositive } = ratioDraws(values);
  const { pairs, separable } = countSeparable(intervals);
  const pmin = Math.min(...point);
  return {
    form,
    agents: point.length,
    point: point.length >= 2 && pmin > 0 ? Math.max(...point) / pmin : null,
    interval: point.length >= 2 ? safeInterval(ratios, level) : null,
    usableDraws: ratios.length,
    nonPositiveDraws: nonPositive,
    pairs,
    separablePairs: separable,
    monteCarlo: spreadMonteCarlo(values, level, monteCarlo.rng, monteCarlo.resamples),
  };
}

export function pairClusteredBootstrap(
  agents: readonly BootstrapAgentInput[],
  options: BootstrapOptions,
): ChoiceBootstrap {
  const level = options.level ?? 0.95;
  const { convention, edges, referencePrice } = options;
  const clusterIds = [
    ...new Set(agents.flatMap((a) => a.trials.filter((t) => t.kind === "binary").map((t) => t.cluster))),
  ].sort();
  const clusterIndex = new Map(clusterIds.map((c, i) => [c, i]));
  const draws = clusterDraws(options.rng, clusterIds.length, options.draws);
  const counts = new Float64Array(clusterIds.length);
  const per = agents.map((a) => {
    const log = binaryDesign(a.trials, { priceForm: "log", edges }, convention);
    const linear = binaryDesign(a.trials, { priceForm: "linear", edges }, convention);
    const rows = Int32Array.from(log.clusters, (c) => clusterIndex.get(c) as number);
    return {
      input: a,
      log: new WeightedBinaryLogit(log.X, log.y),
      linear: new WeightedBinaryLogit(linear.X, linear.y),
      rows,
      weights: new Float64Array(rows.length),
      lnPrice: [] as number[],
      price: [] as number[],
      reviewLog: [] as number[],
      reviewLinear: [] as number[],
    };
  });
  const priceIndex = 1 + REVIEW_INDEX + 2; // intercept, 6 attributes, then the price term
  const reviewIndex = 1 + REVIEW_INDEX;
  for (const draw of draws) {
    counts.fill(0);
    for (const g of draw) counts[g] = (counts[g] as number) + 1;
    for (const p of per) {
      for (let i = 0; i < p.rows.length; i++) p.weights[i] = counts[p.rows[i] as number] as number;
      const bl = p.log.fit(p.weights, p.input.start.log, REFIT);
      const bn = p.linear.fit(p.weights, p.input.start.linear, REFIT);
      p.lnPrice.push(bl ? (bl[priceIndex] as number) : Number.NaN);
      p.reviewLog.push(bl ? (bl[reviewIndex] as number) : Number.NaN);
      p.price.push(bn ? (bn[priceIndex] as number) : Number.NaN);
      p.reviewLinear.push(bn ? (bn[reviewIndex] as number) : Number.NaN);
    }
  }
  const wtpDraws = per.map((p) => ({
    log: p.lnPrice.map((b, i) => wtpValue(p.reviewLog[i] as number, b, "log", referencePrice)),
    linear: p.price.map((b, i) => wtpValue(p.reviewLinear[i] as number, b, "linear", referencePrice)),
  }));
  const results: AgentBootstrap[] = per.map((p, a) => ({
    agent: p.input.agent,
    failedLog: p.lnPrice.filter((v) => !Number.isFinite(v)).length,
    failedLinear: p.price.filter((v) => !Number.isFinite(v)).length,
    lnPrice: safeInterval(p.lnPrice, level),
    price: safeInterval(p.price, level),
    reviewLog: safeInterval(p.reviewLog, level),
    reviewLinear: safeInterval(p.reviewLinear, level),
    wtpLog: safeInterval(wtpDraws[a]!.log, level),
    wtpLinear: safeInterval(wtpDraws[a]!.linear, level),
  }));
  const pointWtp = (p: (typeof per)[number], form: "log" | "linear") => {
    const s = form === "log" ? p.input.start.log : p.input.start.linear;
    return wtpValue(s[reviewIndex] as number, s[priceIndex] as number, form, referencePrice);
  };
  const well = per.map((_, i) => i).filter((i) => per[i]!.input.wellIdentified);
  const resamples = options.monteCarloResamples ?? 200;
  const mc = (form: string) => ({ rng: options.rng.fork(`monte-carlo-${form}`), resamples });
  return {
    draws: draws.length,
    clusters: clusterIds.length,
    level,
    agents: results,
    priceRank: rankStability(
      per.map((p) => p.lnPrice.map(Math.abs)),
      per.map((p) => Math.abs(p.input.start.log[priceIndex] as number)),
    ),
    wtpRank: rankStability(
      well.map((i) => wtpDraws[i]!.log),
      well.map((i) => pointWtp(per[i]!, "log")),
    ),
    wtpSpreadLog: spread(
      "log",
      well.map((i) => wtpDraws[i]!.log),
      well.map((i) => pointWtp(per[i]!, "log")),
      well.map((i) => results[i]!.wtpLog),
      level,
      mc("log"),
    ),
    wtpSpreadLinear: spread(
      "linear",
      well.map((i) => wtpDraws[i]!.linear),
      well.map((i) => pointWtp(per[i]!, "linear")),
      well.map((i) => results[i]!.wtpLinear),
      level,
      mc("linear"),
    ),
  };
}
