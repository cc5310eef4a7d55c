/**
 * The whole cue analysis of a run: per agent, the non-response rate and the exclusion rule; per
 * agent and category, every condition's estimate, the price-sensitivity control, the primacy
 * diagnostic, the "equal-price rate vs PE" ceiling, the additivity factorial and the paraphrase
 * robustness. Pure: observations and options in, a result out.
 */
import { createRng } from "../../environments/kernel/rng.ts";
import { type ConditionEstimate, estimateCondition } from "./condition.ts";
import { analyzeFactorial, type FactorialResult } from "./factorial.ts";
import { type ParaphraseSummary, summarizeParaphrases } from "./paraphrases.ts";
import { type PrimacyDiagnostic, primacyDiagnostic } from "./primacy.ts";
import { type PriceSensitivity, priceSensitivity } from "./sensitivity.ts";
import type { CueObservation } from "./types.ts";

export interface CueAnalysisOptions {
  /** Pair-clustered bootstrap resamples (paper: 2000; 0 skips the intervals). */
  bootstrap: number;
  level: number;
  seed: string | number;
  /** An agent above this non-response rate is excluded from cross-model claims. */
  maxNonResponseRate: number;
  /** A first- (or last-) card rate at equal price at or above this leaves the PE not identified. */
  orderFollowingRate: number;
  /** The primacy diagnostic's low-signal set: one-sided cues with a PE below this. */
  lowSignalPe: number;
  /** The price-only control keeping at least this share on the dearer item at the top premium. */
  priceInsensitiveRate: number;
  /** Equal-price rates at or above this are "at the ceiling". */
  ceilingRate: number;
}

export const DEFAULT_CUE_ANALYSIS: CueAnalysisOptions = {
  bootstrap: 2000,
  level: 0.95,
  seed: 2026,
  maxNonResponseRate: 0.1,
  orderFollowingRate: 0.9,
  lowSignalPe: 0.03,
  priceInsensitiveRate: 0.35,
  ceilingRate: 0.95,
};

export interface CeilingSummary {
  rate: number;
  /** Main-block cue conditions (cue-free controls aside) whose equal-price rate is at or above `rate`. */
  conditions: string[];
  /** The smallest and largest point PE among them (censored ones are listed, not ranged). */
  lowestPe: number | null;
  highestPe: number | null;
}

export interface CategoryCueAnalysis {
  category: string;
  pairs: string[];
  /** Main-block conditions in the run's order. */
  conditions: ConditionEstimate[];
  /** Conditions with a point PE, largest first; censored and unidentified ones are kept out. */
  ranking: string[];
  ceiling: CeilingSummary;
  priceSensitivity: PriceSensitivity | null;
  primacy: PrimacyDiagnostic;
  additivity: { cells: ConditionEstimate[]; test: FactorialResult } | null;
  paraphrases: ParaphraseSummary | null;
}

export interface AgentCueAnalysis {
  agent: string;
  trials: number;
  nonResponses: number;
  nonResponseRate: number;
  /** Reasons with their counts, most frequent first. */
  nonResponseReasons: { reason: string; count: number }[];
  excluded: boolean;
  exclusionNote: string | null;
  categories: CategoryCueAnalysis[];
}

export interface CueAnalysis {
  options: CueAnalysisOptions;
  agents: AgentCueAnalysis[];
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    let g = groups.get(k);
    if (!g) {
      g = [];
      groups.set(k, g);
    }
    g.push(item);
  }
  return groups;
}

const PRICE_ONLY = "price-only";
/** Controls that carry no cue (the length control does: strong social proof, length-matched). */
const CUELESS_FAMILIES = new Set(["control-price", "control-presence"]);

function ceilingOf(conditions: readonly ConditionEstimate[], rate: number): CeilingSummary {
  const at = conditions.filter(
    (c) => !CUELESS_FAMILIES.has(c.family) && c.baseRate !== null && c.baseRate >= rate,
  );
  const points = at.flatMap((c) => (c.pe.kind === "point" ? [c.pe.value] : []));
  return {
    rate,
    conditions: at.map((c) => c.condition),
    lowestPe: points.length > 0 ? Math.min(...points) : null,
    highestPe: points.length > 0 ? Math.max(...points) : null,
  };
}

/** Right-censored PEs of a price-insensitive agent measure its indifference to price, not the cue. */
function markPriceInsensitive(conditions: ConditionEstimate[], s: PriceSensitivity): void {
  if (!s.priceInsensitive) return;
  for (const c of conditions) {
    if (c.pe.kind !== "right") continue;
    c.pe = {
      kind: "not-identified",
      reason: `price-insensitive: the price-only control still keeps ${(100 * (s.keepDearerAtTop ?? 0)).toFixed(1)}% on the dearer identical item at +${(100 * s.topPremium).toFixed(0)}%, so a curve that never crosses measures price blindness (PE > ${(100 * c.pe.bound).toFixed(0)}%)`,
    };
  }
}

function analyzeCategory(
  category: string,
  observations: readonly CueObservation[],
  o: CueAnalysisOptions,
  agent: string,
): CategoryCueAnalysis {
  const settings = { bootstrap: o.bootstrap, level: o.level, orderFollowingRate: o.orderFollowingRate };
  const estimate = (group: readonly CueObservation[]) => {
    const g = group[0] as CueObservation;
    const rng = createRng(
      `cue-bootstrap/${o.seed}/${agent}/${category}/${g.block}/${g.condition}/${g.instruction}`,
    );
    return estimateCondition(group, settings, rng);
  };
  const byBlock = groupBy(observations, (x) => x.block);
  const main = [...groupBy(byBlock.get("main") ?? [], (x) => x.condition).values()].map(estimate);
  const control = main.find((c) => c.condition === PRICE_ONLY);
  const sensitivity = control
    ? priceSensitivity(
        control,
        byBlock.get("main")?.filter((x) => x.condition === PRICE_ONLY) ?? [],
        o.priceInsensitiveRate,
      )
    : null;
  if (sensitivity) markPriceInsensitive(main, sensitivity);
  const additivityObs = byBlock.get("additivity") ?? [];
  const paraphraseObs = byBlock.get("paraphrases") ?? [];
  const paraphraseCells = [...groupBy(paraphraseObs, (x) => `${x.condition}/${x.instruction}`).values()].map(
    estimate,
  );
  const additivityCells = [...groupBy(additivityObs, (x) => x.condition).values()]
    .map(estimate)
    .sort((a, b) => a.condition.localeCompare(b.condition));
  if (sensitivity) {
    markPriceInsensitive(paraphraseCells, sensitivity);
    markPriceInsensitive(additivityCells, sensitivity);
  }
  const ranking = main
    .filter((c) => c.pe.kind === "point")
    .sort((a, b) => (b.pe as { value: number }).value - (a.pe as { value: number }).value)
    .map((c) => c.condition);
  return {
    category,
    pairs: [...new Set(observations.map((x) => x.pairId))].sort(),
    conditions: main,
    ranking,
    ceiling: ceilingOf(main, o.ceilingRate),
    priceSensitivity: sensitivity,
    primacy: primacyDiagnostic(main, o.lowSignalPe),
    additivity:
      additivityObs.length > 0
        ? {
            cells: additivityCells,
            test: analyzeFactorial(additivityObs, o.level),
          }
        : null,
    paraphrases: summarizeParaphrases(
      // A paraphrase block run on its own holds its instruction 0; otherwise the main block is it.
      paraphraseCells.some((p) => p.instruction === 0)
        ? paraphraseCells
        : [
            ...main.filter((c) => paraphraseCells.some((p) => p.condition === c.condition)),
            ...paraphraseCells,
          ],
    ),
  };
}

export function analyzeCue(
  observations: readonly CueObservation[],
  options: Partial<CueAnalysisOptions> = {},
): CueAnalysis {
  const o: CueAnalysisOptions = { ...DEFAULT_CUE_ANALYSIS, ...options };
  const agents = [...groupBy(observations, (x) => x.agent).entries()].map(
    ([agent, obs]): AgentCueAnalysis => {
      const nonResponses = obs.filter((x) => x.choseCued === null);
      const reasons = [...groupBy(nonResponses, (x) => x.nonResponseReason ?? "unknown").entries()]
        .map(([reason, list]) => ({ reason, count: list.length }))
        .sort((a, b) => b.count - a.count);
      const rate = obs.length > 0 ? nonResponses.length / obs.length : 0;
      const excluded = rate > o.maxNonResponseRate;
      return {
        agent,
        trials: obs.length,
        nonResponses: nonResponses.length,
        nonResponseRate: rate,
        nonResponseReasons: reasons,
        excluded,
        exclusionNote: excluded
          ? `${agent} is excluded from cross-model claims: ${(100 * rate).toFixed(1)}% of its trials are non-responses (threshold ${(100 * o.maxNonResponseRate).toFixed(0)}%)`
          : null,
        categories: [...groupBy(obs, (x) => x.category).entries()].map(([category, c]) =>
          analyzeCategory(category, c, o, agent),
        ),
      };
    },
  );
  return { options: o, agents };
}
