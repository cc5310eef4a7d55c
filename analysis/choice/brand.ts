/** Brand premiums: chain-family coefficients against an otherwise comparable independent hotel. */
import { CHAIN_FAMILIES, type Chain } from "../../datasets/hotels/schema.ts";
import type { Rng } from "../../environments/kernel/rng.ts";
import type { LogitFit, LogitOptions } from "../logit/index.ts";
import { pearson } from "../stats/index.ts";
import { fitBinaryChoice } from "./fits.ts";
import type { ChoiceConvention, ChoiceTrial } from "./types.ts";
import { coefficient } from "./wtp.ts";

export interface BrandPremium {
  chain: Chain;
  estimate: number;
  se: number;
  p: number;
  ciLow: number;
  ciHigh: number;
  robustSe?: number;
}

export interface BrandPremiums {
  /** Binary logit: controls, chain dummies, price-decile dummies (and neighborhoods if asked). */
  fit: LogitFit;
  /** Null when the fit is not identified. */
  premiums: BrandPremium[] | null;
  neighborhoodControls: boolean;
}

/** Neighborhoods seen in the binary options, most frequent first: that one is the reference level. */
function neighborhoodLevels(trials: readonly ChoiceTrial[]): string[] {
  const counts = new Map<string, number>();
  for (const t of trials) {
    if (t.kind !== "binary") continue;
    for (const o of t.options) counts.set(o.neighborhood, (counts.get(o.neighborhood) ?? 0) + 1);
  }
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([n]) => n);
  return sorted.slice(1);
}

/**
 * The reference's brand specification: the binary logit with stars, bed rank, cancellation,
 * breakfast, review score and count, chain-family dummies (independent = reference) and price-decile
 * dummies (D1 = reference); optionally neighborhood dummies too.
 */
export function fitBrandPremiums(
  trials: readonly ChoiceTrial[],
  convention: ChoiceConvention,
  edges: readonly number[],
  opts: { neighborhoods?: boolean; logit?: LogitOptions } = {},
): BrandPremiums {
  const neighborhoods = opts.neighborhoods ? neighborhoodLevels(trials) : undefined;
  const fit = fitBinaryChoice(
    trials,
    { priceForm: "deciles", edges, chains: true, neighborhoods },
    convention,
    opts.logit,
  );
  const premiums =
    fit.status !== "ok"
      ? null
      : CHAIN_FAMILIES.map((chain) => {
          const c = coefficient(fit, `chain${chain}`)!;
          const row: BrandPremium = {
            chain,
            estimate: c.estimate,
            se: c.se,
            p: c.p,
            ciLow: c.ciLow,
            ciHigh: c.ciHigh,
          };
          if (c.robustSe !== undefined) row.robustSe = c.robustSe;
          return row;
        });
  return { fit, premiums, neighborhoodControls: opts.neighborhoods === true };
}

export interface ProviderBrandTest {
  /** Mean Pearson correlation of brand-coefficient vectors between agents of the same provider. */
  withinMeanR: number;
  acrossMeanR: number;
  withinPairs: number;
  acrossPairs: number;
  /** One-sided permutation p-value of (within − across) under shuffled provider labels. */
  p: number;
  permutations: number;
  /** Monte Carlo standard error of `p`, √(p(1 − p)/permutations): its spread across seeds. */
  monteCarloSe: number;
}

function meanCorrelations(vectors: readonly number[][], labels: readonly string[]) {
  const within: number[] = [];
  const across: number[] = [];
  for (let i = 0; i < vectors.length; i++) {
    for (let j = i + 1; j < vectors.length; j++) {
      const r = pearson(vectors[i]!, vectors[j]!);
      if (Number.isNaN(r)) continue;
      (labels[i] === labels[j] ? within : across).push(r);
    }
  }
  const avg = (xs: number[]) => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
  return { within: avg(within), across: avg(across), nWithin: within.length, nAcross: across.length };
}

/**
 * Are brand preferences more alike within a provider than across providers? The reference's
 * permutation test: shuffle provider labels, count how often the within − across gap is at least
 * the observed one. Null when no two agents share a provider or no two differ.
 */
export function providerBrandTest(
  agents: readonly { provider: string; premiums: readonly number[] }[],
  rng: Rng,
  permutations = 2000,
): ProviderBrandTest | null {
  const vectors = agents.map((a) => [...a.premiums]);
  const labels = agents.map((a) => a.provider);
  const observed = meanCorrelations(vectors, labels);
  if (observed.nWithin === 0 || observed.nAcross === 0) return null;
  const gap = observed.within - observed.across;
  let atLeast = 0;
  for (let b = 0; b < permutations; b++) {
    const shuffled = rng.shuffle([...labels]);
    const m = meanCorrelations(vectors, shuffled);
    if (m.within - m.across >= gap) atLeast++;
  }
  return {
    withinMeanR: observed.within,
    acrossMeanR: observed.across,
    withinPairs: observed.nWithin,
    acrossPairs: observed.nAcross,
    p: atLeast / permutations,
    permutations,
    monteCarloSe: Math.sqrt(((atLeast / permutations) * (1 - atLeast / permutations)) / permutations),
  };
}
