/**
 * Seeded data from logit models with known coefficients, for recovery tests, coverage validation
 * and the bench. Clustering keeps the marginal model exactly logit: an option set (cluster) is
 * shown `clusterSize` times, and each showing reuses the cluster's shared random draw with
 * probability `shareWithinCluster` (as an LLM at temperature 0 repeats its answer) or draws afresh.
 */
import type { Rng } from "../../../environments/kernel/rng.ts";

export interface ClusterDesign {
  clusterSize?: number;
  /** Probability that a showing reuses the cluster's shared draw (0 = independent answers). */
  shareWithinCluster?: number;
}

/** Covariate j ≥ 1 of a generic design: normal, 0/1 dummy, or uniform(−1, 1), by j mod 3. */
function covariate(rng: Rng, j: number): number {
  switch (j % 3) {
    case 1:
      return rng.normal();
    case 2:
      return rng.bernoulli(0.5) ? 1 : 0;
    default:
      return rng.uniform(-1, 1);
  }
}

export interface BinarySample {
  X: number[][];
  y: (0 | 1)[];
  clusters: number[];
  names: string[];
}

/** n observations; column 0 is the intercept, beta.length columns in all. */
export function simulateBinary(
  rng: Rng,
  n: number,
  beta: readonly number[],
  design: ClusterDesign = {},
): BinarySample {
  const size = design.clusterSize ?? 1;
  const share = design.shareWithinCluster ?? 0;
  const X: number[][] = [];
  const y: (0 | 1)[] = [];
  const clusters: number[] = [];
  for (let g = 0; X.length < n; g++) {
    const row = beta.map((_, j) => (j === 0 ? 1 : covariate(rng, j)));
    let eta = 0;
    for (let j = 0; j < beta.length; j++) eta += (beta[j] as number) * (row[j] as number);
    const p = 1 / (1 + Math.exp(-eta));
    const shared = rng.next();
    for (let m = 0; m < size && X.length < n; m++) {
      const u = rng.bernoulli(share) ? shared : rng.next();
      X.push(row);
      y.push(u < p ? 1 : 0);
      clusters.push(g);
    }
  }
  return { X, y, clusters, names: beta.map((_, j) => (j === 0 ? "intercept" : `x${j}`)) };
}

export interface ConditionalSample {
  alternatives: number[][][];
  chosen: number[];
  clusters: number[];
  names: string[];
}

/**
 * Situations with `k` alternatives: slot constants (reference slot 0) with coefficients
 * `slotBeta` (length k − 1) followed by attributes with coefficients `attrBeta`. Within a cluster
 * the option set rotates through the display slots; each option keeps its Gumbel draw when the
 * cluster's shared draw is reused.
 */
export function simulateConditional(
  rng: Rng,
  situations: number,
  k: number,
  slotBeta: readonly number[],
  attrBeta: readonly number[],
  design: ClusterDesign = {},
): ConditionalSample {
  if (slotBeta.length !== k - 1) throw new RangeError("slotBeta needs k − 1 entries");
  const size = design.clusterSize ?? 1;
  const share = design.shareWithinCluster ?? 0;
  const alternatives: number[][][] = [];
  const chosen: number[] = [];
  const clusters: number[] = [];
  for (let g = 0; alternatives.length < situations; g++) {
    const options = Array.from({ length: k }, () => attrBeta.map((_, j) => covariate(rng, j + 1)));
    const sharedNoise = options.map(() => rng.gumbel());
    for (let m = 0; m < size && alternatives.length < situations; m++) {
      const reuse = rng.bernoulli(share);
      const rows: number[][] = [];
      let best = -1;
      let bestU = Number.NEGATIVE_INFINITY;
      for (let s = 0; s < k; s++) {
        const o = (s + m) % k;
        const attrs = options[o] as number[];
        const slots = Array.from({ length: k - 1 }, (_, q) => (q === s - 1 ? 1 : 0));
        let u = reuse ? (sharedNoise[o] as number) : rng.gumbel();
        for (let q = 0; q < k - 1; q++) u += (slotBeta[q] as number) * (slots[q] as number);
        for (let j = 0; j < attrBeta.length; j++) u += (attrBeta[j] as number) * (attrs[j] as number);
        if (u > bestU) {
          bestU = u;
          best = s;
        }
        rows.push([...slots, ...attrs]);
      }
      alternatives.push(rows);
      chosen.push(best);
      clusters.push(g);
    }
  }
  const names = [...slotBeta.map((_, q) => `slot${q + 1}`), ...attrBeta.map((_, j) => `a${j + 1}`)];
  return { alternatives, chosen, clusters, names };
}
