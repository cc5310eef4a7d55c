/**
 * Coverage studies of the negotiation intervals on synthetic episodes whose population truth is
 * known in closed form (or by quadrature): the paired task bootstrap of the differences in price
 * paid and in the booking's P′_b, and the task-clustered interval of a mean discount.
 *
 * The paired model: a task draws a list price L ~ U(100, 300), the request's cap B = k·L with
 * k ~ U(1, 1.3) and the seller's cost C = c·L with c ~ U(0.6, 0.9) — all shared by the task's
 * replicates, so they are correlated within a task. In each replicate the control books at L; the
 * treatment gets a deal with probability p at L·(1 − d), d ~ U(0, 0.3), else books at L. Then
 *   E[paid_t − paid_c] = −p·E[L]·E[d] = −p · 200 · 0.15,
 *   E[P′_t − P′_c] = E[(paid_c − paid_t)/(B − C)] = p·E[d]·E[1/(k − c)]
 * (B − C ≥ $10 here, so the small-gap rule never applies).
 *
 * The task-clustered intervals (a mean discount, a deal or success rate) are t intervals with G − 1
 * degrees of freedom; their studies below draw the task effects that make clustering matter.
 */
import {
  clusteredMean,
  clusteredShare,
  compareNegotiatingBuyers,
  type NegotiationEpisode,
} from "../../../analysis/shop/index.ts";
import { normalQuantile } from "../../../analysis/stats/index.ts";
import { createRng, type Rng } from "../../../environments/kernel/rng.ts";

export const DEAL_PROBABILITY = 0.8;

/** E[1/(k − c)] for k ~ U(1, 1.3), c ~ U(0.6, 0.9), by the midpoint rule on a fine grid. */
function meanInverseGap(): number {
  const n = 1500;
  let s = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) s += 1 / (1 + (0.3 * (i + 0.5)) / n - (0.6 + (0.3 * (j + 0.5)) / n));
  return s / (n * n);
}

export const TRUTH = {
  paid: -DEAL_PROBABILITY * 200 * 0.15,
  buyerNormalized: DEAL_PROBABILITY * 0.15 * meanInverseGap(),
};

function booking(
  agent: string,
  taskId: string,
  replicate: number,
  list: number,
  cap: number,
  cost: number,
  paid: number,
) {
  return {
    agent,
    taskId,
    replicate,
    request: { constraints: { maxPrice: cap } },
    booked: { id: `${taskId}-L`, price: list, negotiation: { seller: "seller-1", cost } },
    paid,
    negotiations: [],
    deadlock: false,
  } as unknown as NegotiationEpisode;
}

export function pairedSample(rng: Rng, tasks: number, replicates: number): NegotiationEpisode[] {
  const out: NegotiationEpisode[] = [];
  for (let t = 0; t < tasks; t++) {
    const list = rng.uniform(100, 300);
    const cap = list * rng.uniform(1, 1.3);
    const cost = list * rng.uniform(0.6, 0.9);
    for (let r = 0; r < replicates; r++) {
      const paid = rng.bernoulli(DEAL_PROBABILITY) ? list * (1 - rng.uniform(0, 0.3)) : list;
      out.push(booking("og-narrator", `t${t}`, r, list, cap, cost, paid));
      out.push(booking("plain", `t${t}`, r, list, cap, cost, list));
    }
  }
  return out;
}

export interface Coverage {
  paid: number;
  buyerNormalized: number;
  replications: number;
}

/** The share of seeded replications whose paired bootstrap interval holds the truth. */
export function pairedCoverage(args: {
  replications: number;
  tasks: number;
  replicates: number;
  draws: number;
  level: number;
  seed: string;
}): Coverage {
  let paid = 0;
  let norm = 0;
  for (let i = 0; i < args.replications; i++) {
    const rng = createRng(`${args.seed}/${i}`);
    const c = compareNegotiatingBuyers(
      pairedSample(rng, args.tasks, args.replicates),
      "og-narrator",
      "plain",
      {
        draws: args.draws,
        level: args.level,
        seed: `${args.seed}/${i}`,
      },
    );
    if (c.paid.interval!.low <= TRUTH.paid && TRUTH.paid <= c.paid.interval!.high) paid++;
    const b = c.buyerNormalized.interval!;
    if (b.low <= TRUTH.buyerNormalized && TRUTH.buyerNormalized <= b.high) norm++;
  }
  return {
    paid: paid / args.replications,
    buyerNormalized: norm / args.replications,
    replications: args.replications,
  };
}

/**
 * How often a task-clustered interval held the truth: as the estimator gives it (a t interval with
 * G − 1 degrees of freedom), and as the normal interval on the same SE would have (what it was).
 */
export interface ClusteredCoverage {
  t: number;
  normal: number;
}

function coverageTally(level: number) {
  const z = normalQuantile(1 - (1 - level) / 2);
  let t = 0;
  let normal = 0;
  return {
    add(
      e: { estimate: number | null; se: number | null; low: number | null; high: number | null },
      truth: number,
    ) {
      if (e.low! <= truth && truth <= e.high!) t++;
      if (Math.abs(e.estimate! - truth) <= z * e.se!) normal++;
    },
    result: (replications: number): ClusteredCoverage => ({
      t: t / replications,
      normal: normal / replications,
    }),
  };
}

/**
 * A discount per deal: a task effect u ~ U(−0.1, 0.1) shared by its deals plus a deal's own
 * U(0, 0.2), a varying number of deals per task (1–4); truth 0.1.
 */
export function clusteredMeanCoverage(args: {
  replications: number;
  tasks: number;
  level: number;
  seed: string;
}): ClusteredCoverage {
  const tally = coverageTally(args.level);
  for (let i = 0; i < args.replications; i++) {
    const rng = createRng(`${args.seed}/${i}`);
    const items: { cluster: string; value: number }[] = [];
    for (let t = 0; t < args.tasks; t++) {
      const u = rng.uniform(-0.1, 0.1);
      const deals = 1 + rng.int(4);
      for (let j = 0; j < deals; j++) items.push({ cluster: `t${t}`, value: u + rng.uniform(0, 0.2) });
    }
    tally.add(clusteredMean(items, args.level), 0.1);
  }
  return tally.result(args.replications);
}

/**
 * A deal (or success) rate: a task's own rate p ~ U(0.2, 0.9), shared by its 1–4 negotiations (or
 * episodes), each a deal with probability p; the count is independent of p, so the truth is
 * E[p] = 0.55.
 */
export function clusteredShareCoverage(args: {
  replications: number;
  tasks: number;
  level: number;
  seed: string;
}): ClusteredCoverage {
  const tally = coverageTally(args.level);
  for (let i = 0; i < args.replications; i++) {
    const rng = createRng(`${args.seed}/${i}`);
    const items: { cluster: string; hit: boolean }[] = [];
    for (let t = 0; t < args.tasks; t++) {
      const p = rng.uniform(0.2, 0.9);
      const tries = 1 + rng.int(4);
      for (let j = 0; j < tries; j++) items.push({ cluster: `t${t}`, hit: rng.bernoulli(p) });
    }
    tally.add(clusteredShare(items, args.level), 0.55);
  }
  return tally.result(args.replications);
}
