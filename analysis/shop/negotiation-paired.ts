/**
 * Two buyers compared on the same tasks (specs/bargain.md: compare buyers on the same scenarios,
 * paired, with bootstrap intervals of the differences): a unit is one task and replicate both
 * played, against the same sellers (a run deals every buyer the same listings and negotiators).
 *
 * - Price paid: the nightly price paid, over the units where both booked (the agreed price where
 *   there was a deal, else the list price).
 * - Buyer normalized profit of the booking: the bargaining paper's P′_b = (B′ − D)/|B′ − C| with D
 *   the price paid, B the request's cap and C the booked listing's cost, over the units where both
 *   booked a listing that takes offers on a request with a cap (elsewhere there is no B or no C).
 *
 * Each difference is a mean of within-unit differences (the two means over the same units), a
 * ratio of task sums, with the studentized task-bootstrap interval of paired-difference.ts (its
 * coverage: negotiation-coverage.validate.test.ts). Below FEW_TASKS the tables still say that
 * intervals over few tasks run a little under their level.
 */
import { createRng } from "../../environments/kernel/rng.ts";
import { adjustBudget } from "../bargain/session.ts";
import type { NegotiationEpisode } from "./negotiation-records.ts";
import { FEW_TASKS, type PairedDifference, type PairedSums, pairedDifference } from "./paired-difference.ts";

export { FEW_TASKS, type PairedDifference };

export interface NegotiationComparison {
  treatment: string;
  control: string;
  /** Units both buyers played (whether or not either booked). */
  units: number;
  tasks: number;
  level: number;
  draws: number;
  paid: PairedDifference;
  buyerNormalized: PairedDifference;
}

/** The realized P′_b of an episode's booking; null without a booking, a cap or a seller's cost. */
export function bookingBuyerNormalized(e: NegotiationEpisode): number | null {
  const cap = e.request.constraints.maxPrice;
  const cost = (e.booked as { negotiation?: { cost: number } } | null)?.negotiation?.cost;
  if (e.booked === null || e.paid === null || cap === null || cost === undefined) return null;
  const { budget, room } = adjustBudget(cap, cost);
  return (budget - e.paid) / room;
}

/**
 * Every pair of buyers once: an OG-Narrator buyer (`og-narrator…`) first when one of the two is
 * one, otherwise in the order given.
 */
export function buyerPairs(buyers: readonly string[]): [string, string][] {
  const og = (b: string) => b.startsWith("og-narrator");
  const out: [string, string][] = [];
  for (let i = 0; i < buyers.length; i++)
    for (let j = i + 1; j < buyers.length; j++) {
      const [a, b] = [buyers[i]!, buyers[j]!];
      out.push(og(b) && !og(a) ? [b, a] : [a, b]);
    }
  return out;
}

/** Per task: units and the sums of each side's values, for each metric. */
type Cluster = { paid: PairedSums; norm: PairedSums };

const zero = (): Cluster => ({ paid: { n: 0, t: 0, c: 0 }, norm: { n: 0, t: 0, c: 0 } });

export function compareNegotiatingBuyers(
  episodes: readonly NegotiationEpisode[],
  treatment: string,
  control: string,
  options: { draws?: number; level?: number; seed?: string } = {},
): NegotiationComparison {
  const draws = options.draws ?? 200;
  const level = options.level ?? 0.95;
  const key = (e: NegotiationEpisode) => `${e.taskId}\u0000${e.replicate}`;
  const controls = new Map<string, NegotiationEpisode>();
  for (const e of episodes) if (e.agent === control) controls.set(key(e), e);
  const byTask = new Map<string, Cluster>();
  let units = 0;
  for (const t of episodes) {
    if (t.agent !== treatment) continue;
    const c = controls.get(key(t));
    if (!c) continue;
    units++;
    let cluster = byTask.get(t.taskId);
    if (!cluster) {
      cluster = zero();
      byTask.set(t.taskId, cluster);
    }
    if (t.paid !== null && c.paid !== null && t.booked !== null && c.booked !== null) {
      cluster.paid.n++;
      cluster.paid.t += t.paid;
      cluster.paid.c += c.paid;
    }
    const [nt, nc] = [bookingBuyerNormalized(t), bookingBuyerNormalized(c)];
    if (nt !== null && nc !== null) {
      cluster.norm.n++;
      cluster.norm.t += nt;
      cluster.norm.c += nc;
    }
  }
  const clusters = [...byTask.values()];
  const rng = createRng(`${options.seed ?? "bazaar-shop"}/negotiation/paired/${treatment}/${control}`);
  return {
    treatment,
    control,
    units,
    tasks: byTask.size,
    level,
    draws,
    paid: pairedDifference(
      clusters.map((c) => c.paid),
      { draws, level, rng: rng.fork("paid") },
    ),
    buyerNormalized: pairedDifference(
      clusters.map((c) => c.norm),
      { draws, level, rng: rng.fork("normalized") },
    ),
  };
}
