import { createRng } from "../../environments/kernel/rng.ts";
import { mean } from "../stats/index.ts";
import { fittedNullTest } from "./bootstrap.ts";
import type { AgentData } from "./collect.ts";
import { fitUtilities } from "./fit.ts";
import {
  indexGroup,
  itemResiduals,
  type LocalResidual,
  type P2Residual,
  pathResiduals,
  zFor,
} from "./local.ts";
import { type PathLengthPoint, pathLengthCurve } from "./paths.ts";
import { untestableReason } from "./testable.ts";
import type { GroupData } from "./types.ts";
import { decideGroups, type GroupDecision, type GroupStatus, type JointVerdict } from "./verdict.ts";

export interface ConsistencyOptions {
  /** Bootstrap draws for the group test and the path-length intervals (the paper: 2,000). */
  draws: number;
  /** Seeds every bootstrap stream (one per agent and group, so results do not depend on order). */
  seed: string | number;
  /** Family-wise level of the group tests, Bonferroni-corrected across an agent's testable groups. */
  alpha: number;
  /** Level of the local Wald intervals. */
  level: number;
  /** See FittedNullOptions.smallSampleCorrection. */
  smallSampleCorrection: boolean;
}

export const DEFAULT_CONSISTENCY_OPTIONS: ConsistencyOptions = {
  draws: 2000,
  seed: "bazaar-consistency",
  alpha: 0.05,
  level: 0.95,
  smallSampleCorrection: true,
};

/** The global test of one audit group. */
export interface GroupTest {
  group: string;
  domain: string;
  utterance: string;
  itemSet: string;
  collection: string;
  /** Queries with at least one finite completion (the rest are dropped from the fit). */
  queries: number;
  droppedQueries: number;
  items: number;
  rank: number;
  completions: number;
  nonFinite: number;
  /** Why the group cannot be tested (then p, the adjusted p and `rejected` are empty), else null. */
  untestableReason: string | null;
  status: GroupStatus;
  /** T in dollars: the RMSE of the best-fitting unrestricted utility (NaN when exact by construction). */
  rmse: number;
  /** Mean listed price of the comparisons' endpoint offers (all offers when there are no comparisons). */
  meanEndpointPrice: number;
  /** T / mean endpoint price. */
  relativeRmse: number;
  /** NaN when untestable. */
  pValue: number;
  /** Bonferroni-adjusted p (p × number of testable groups, capped at 1); NaN when untestable. */
  adjustedP: number;
  /** Null when untestable: no test ran. */
  rejected: boolean | null;
  utilities: Record<string, number>;
}

export interface LocalSummary {
  count: number;
  testable: number;
  /** Intervals excluding zero, and their share of the testable residuals. */
  rejections: number;
  rejectionRate: number;
  /** Residuals whose magnitude lower bound is ≥ 25% of the mean listed price. */
  atLeastQuarter: number;
}

export interface P2Summary extends LocalSummary {
  reversals: number;
  reversalRate: number;
}

export interface AgentAudit {
  agent: string;
  groups: GroupTest[];
  verdict: JointVerdict;
  p1: LocalSummary;
  p2: P2Summary;
  /** P1 residuals of the main design (two-step paths) and of the stress paths. */
  p1Residuals: LocalResidual[];
  p2Residuals: P2Residual[];
  stressResiduals: LocalResidual[];
  pathLength: PathLengthPoint[];
  nonFinite: {
    completions: number;
    nonFinite: number;
    share: number;
    byQueryType: Record<string, number>;
    byReason: Record<string, number>;
  };
}

function meanEndpointPrice(group: GroupData): number {
  const direct: number[] = [];
  const all: number[] = [];
  for (const q of group.queries) {
    if (!q.source || !q.target) continue;
    const s = (q.source.price + q.target.price) / 2;
    all.push(s);
    if (q.uses.some((u) => u.kind === "direct")) direct.push(s);
  }
  return direct.length > 0 ? mean(direct) : all.length > 0 ? mean(all) : Number.NaN;
}

function testGroup(
  group: GroupData,
  rngSeed: string,
  o: ConsistencyOptions,
): Omit<GroupTest, keyof GroupDecision> {
  const kept = group.queries.filter((q) => q.values.length > 0);
  const fit = fitUtilities(
    kept,
    kept.map((q) => mean(q.values)),
  );
  const reason = untestableReason(kept, group.queries.length - kept.length, fit.design);
  // No residual degrees of freedom: T is 0 by construction (rounding aside), not a measured misfit.
  const rmse = kept.length > fit.design.rank ? fit.rmse : Number.NaN;
  const pValue =
    reason === null
      ? fittedNullTest(
          fit.design,
          kept.map((q) => q.values),
          rmse,
          { draws: o.draws, rng: createRng(rngSeed), smallSampleCorrection: o.smallSampleCorrection },
        ).pValue
      : Number.NaN;
  const scale = meanEndpointPrice(group);
  return {
    group: group.group,
    domain: group.domain,
    utterance: group.utterance,
    itemSet: group.itemSet,
    collection: group.collection,
    queries: kept.length,
    droppedQueries: group.queries.length - kept.length,
    items: fit.design.items.length,
    rank: fit.design.rank,
    completions: kept.reduce((a, q) => a + q.values.length, 0),
    nonFinite: group.queries.reduce((a, q) => a + q.nonFinite, 0),
    untestableReason: reason,
    rmse,
    meanEndpointPrice: scale,
    relativeRmse: rmse / scale,
    pValue,
    utilities: fit.utilities,
  };
}

/** By comparison id, then path (numeric-aware: fc2 < fc10, k2 < k16). */
function byComparison(a: LocalResidual, b: LocalResidual): number {
  const key = (r: LocalResidual) => `${r.comparison} ${r.path ?? ""}`;
  return key(a).localeCompare(key(b), "en", { numeric: true });
}

function summarize(residuals: readonly LocalResidual[]): LocalSummary {
  const testable = residuals.filter((r) => r.testable);
  const rejections = testable.filter((r) => r.excludesZero).length;
  return {
    count: residuals.length,
    testable: testable.length,
    rejections,
    rejectionRate: testable.length > 0 ? rejections / testable.length : Number.NaN,
    atLeastQuarter: testable.filter((r) => r.relativeLowerBound >= 0.25).length,
  };
}

/**
 * The whole self-consistency audit of one agent: per `main` audit group the least-squares utility
 * fit, T and its fitted-null bootstrap p (Bonferroni across the testable groups; an `untestable`
 * group keeps its reason and enters neither the count nor the verdict); P1 and P2 residuals with
 * Wald intervals, local rejection rates, supported reversals and ≥ 25% lower bounds; the path-length
 * curve of the `paths` groups; and the non-finite output counts.
 */
export function auditAgent(data: AgentData, options: Partial<ConsistencyOptions> = {}): AgentAudit {
  const o = { ...DEFAULT_CONSISTENCY_OPTIONS, ...options };
  const z = zFor(o.level);
  const main = data.groups.filter((g) => g.collection === "main");
  const stress = data.groups.filter((g) => g.collection === "paths");
  const tests = main.map((g) => testGroup(g, `${o.seed}/${data.agent}/${g.group}`, o));
  const { decisions, verdict } = decideGroups(tests, o.alpha);
  const groups: GroupTest[] = tests.map((t, i) => ({ ...t, ...(decisions[i] as GroupDecision) }));
  const p1Residuals: LocalResidual[] = [];
  const p2Residuals: P2Residual[] = [];
  for (const g of main) {
    const { stats } = indexGroup(g);
    p1Residuals.push(...pathResiduals(g, stats, z));
    p2Residuals.push(...itemResiduals(g, stats, z));
  }
  const stressResiduals = stress.flatMap((g) => pathResiduals(g, indexGroup(g).stats, z));
  const groupRank = new Map(data.groups.map((g, i) => [g.group, i]));
  const order = (a: LocalResidual, b: LocalResidual) =>
    (groupRank.get(a.group) ?? 0) - (groupRank.get(b.group) ?? 0) || byComparison(a, b);
  for (const list of [p1Residuals, p2Residuals, stressResiduals]) list.sort(order);
  const p2 = summarize(p2Residuals);
  const reversals = p2Residuals.filter((r) => r.reversal).length;
  let completions = 0;
  let nonFinite = 0;
  const byQueryType: Record<string, number> = {};
  for (const g of data.groups)
    for (const q of g.queries) {
      completions += q.values.length + q.nonFinite;
      nonFinite += q.nonFinite;
      if (q.nonFinite > 0) byQueryType[q.queryType] = (byQueryType[q.queryType] ?? 0) + q.nonFinite;
    }
  return {
    agent: data.agent,
    groups,
    verdict,
    p1: summarize(p1Residuals),
    p2: { ...p2, reversals, reversalRate: p2.count > 0 ? reversals / p2.count : Number.NaN },
    p1Residuals,
    p2Residuals,
    stressResiduals,
    pathLength: pathLengthCurve(stressResiduals, {
      draws: o.draws,
      level: o.level,
      rng: createRng(`${o.seed}/${data.agent}/path-length`),
    }),
    nonFinite: {
      completions,
      nonFinite,
      share: completions > 0 ? nonFinite / completions : Number.NaN,
      byQueryType,
      byReason: data.nonFiniteReasons,
    },
  };
}
