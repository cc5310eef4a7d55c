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
 * ratio of task sums. Its interval is a studentized (bootstrap-t) task bootstrap: tasks are
 * resampled with all their units, since the replicates of a task are not independent, and each
 * draw's (r* − r̂)/se* — se the task-clustered linearized SE of the ratio, with G/(G − 1) — gives
 * the quantiles turned around r̂. The plain percentile bootstrap, even with its draws spread by
 * √(G/(G − 1)), held the truth 92.2–93.9% at 60 tasks and 91.1–92.2% at 15 (P′_b, whose draws are
 * skewed, the lower); the bootstrap-t holds it 93.5–94.4% at both (1,000 seeded replications,
 * negotiation-coverage.validate.test.ts). Below FEW_TASKS the tables still say that intervals over
 * few tasks run a little under their level.
 */
import { createRng } from "../../environments/kernel/rng.ts";
import { adjustBudget } from "../bargain/session.ts";
import { type Interval, percentileInterval, resampleIndices } from "../stats/index.ts";
import type { NegotiationEpisode } from "./negotiation-records.ts";

/** Below this many tasks, a paired interval runs noticeably under its level. */
export const FEW_TASKS = 30;

export interface PairedDifference {
  /** Units (task × replicate) where both buyers have the value. */
  units: number;
  tasks: number;
  treatment: number | null;
  control: number | null;
  /** treatment − control; null without units. */
  difference: number | null;
  /** Percentile task-bootstrap interval; null without draws or with fewer than two tasks. */
  interval: Interval | null;
}

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
interface Sums {
  n: number;
  t: number;
  c: number;
}
type Cluster = { paid: Sums; norm: Sums };

/**
 * The task-clustered standard error of a ratio of sums Σd/Σn (the linearization: each task's
 * residual d_g − r·n_g), with the G/(G − 1) small-sample factor.
 */
function ratioSe(clusters: readonly { n: number; t: number; c: number }[], ratio: number): number {
  let n = 0;
  let ss = 0;
  for (const s of clusters) {
    n += s.n;
    const e = s.t - s.c - ratio * s.n;
    ss += e * e;
  }
  const g = clusters.length;
  return g > 1 && n > 0 ? Math.sqrt((ss * g) / (g - 1)) / n : 0;
}

const zero = (): Cluster => ({ paid: { n: 0, t: 0, c: 0 }, norm: { n: 0, t: 0, c: 0 } });

function difference(
  clusters: readonly Cluster[],
  key: keyof Cluster,
  draws: number,
  level: number,
  rng: ReturnType<typeof createRng>,
): PairedDifference {
  const total = { n: 0, t: 0, c: 0 };
  let tasks = 0;
  for (const c of clusters) {
    const s = c[key];
    total.n += s.n;
    total.t += s.t;
    total.c += s.c;
    if (s.n > 0) tasks++;
  }
  if (total.n === 0)
    return { units: 0, tasks: 0, treatment: null, control: null, difference: null, interval: null };
  const used = clusters.filter((c) => c[key].n > 0);
  let interval: Interval | null = null;
  if (draws > 0 && used.length >= 2) {
    const estimate = (total.t - total.c) / total.n;
    const se = ratioSe(
      used.map((c) => c[key]),
      estimate,
    );
    const ts: number[] = [];
    for (let r = 0; r < draws; r++) {
      const sample = Array.from(resampleIndices(rng, used.length), (i) => used[i]![key]);
      let n = 0;
      let d = 0;
      for (const s of sample) {
        n += s.n;
        d += s.t - s.c;
      }
      const star = d / n;
      const seStar = ratioSe(sample, star);
      if (seStar > 0) ts.push((star - estimate) / seStar);
    }
    if (se > 0 && ts.length > 0) {
      // Bootstrap-t: the studentized draws' quantiles, turned around the estimate.
      const q = percentileInterval(ts, level);
      interval = { low: estimate - q.high * se, high: estimate - q.low * se };
    } else interval = { low: estimate, high: estimate };
  }
  return {
    units: total.n,
    tasks,
    treatment: total.t / total.n,
    control: total.c / total.n,
    difference: (total.t - total.c) / total.n,
    interval,
  };
}

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
    paid: difference(clusters, "paid", draws, level, rng.fork("paid")),
    buyerNormalized: difference(clusters, "norm", draws, level, rng.fork("normalized")),
  };
}
