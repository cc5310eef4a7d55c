/**
 * Two shoppers compared on the same units (specs/client.md: paired comparisons of agents on the
 * same tasks, clients and replicates): a unit is a task, client and replicate both shoppers played
 * — the same catalog, the same hidden profile, the same persona — so what differs is the shopper.
 * Per client, and over all the run's clients together when it has several (units of one task with
 * different clients stay in one task cluster: they share the catalog and the profile).
 *
 * Each difference is treatment − control of the mean over the same units: success (a share),
 * regret (dollars a night) and messages to the client (burden). Intervals: the studentized task
 * bootstrap of paired-difference.ts. A unit one shopper lacks (an agent error, or an episode left
 * out for a client fault) is no unit.
 */
import { createRng } from "../../../environments/kernel/rng.ts";
import { type PairedDifference, type PairedSums, pairedDifference } from "../paired-difference.ts";
import type { ClientEpisode } from "./records.ts";

export interface ShopperComparison {
  /** The client's spec, or null for all the run's clients together. */
  client: string | null;
  treatment: string;
  control: string;
  units: number;
  tasks: number;
  level: number;
  draws: number;
  success: PairedDifference;
  regret: PairedDifference;
  messages: PairedDifference;
}

const METRICS = {
  success: (e: ClientEpisode) => (e.success ? 1 : 0),
  regret: (e: ClientEpisode) => e.regret,
  messages: (e: ClientEpisode) => e.burden.messages,
} as const;
type Metric = keyof typeof METRICS;

/** Every pair of shoppers once, in the order given (the first is the treatment). */
export function shopperPairs(shoppers: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < shoppers.length; i++)
    for (let j = i + 1; j < shoppers.length; j++) out.push([shoppers[i]!, shoppers[j]!]);
  return out;
}

export function compareShoppers(
  episodes: readonly ClientEpisode[],
  treatment: string,
  control: string,
  options: { client?: string | null; draws?: number; level?: number; seed?: string } = {},
): ShopperComparison {
  const client = options.client ?? null;
  const draws = options.draws ?? 200;
  const level = options.level ?? 0.95;
  const mine = client === null ? episodes : episodes.filter((e) => e.client.spec === client);
  const key = (e: ClientEpisode) => `${e.taskId}\u0000${e.client.spec}\u0000${e.replicate}`;
  const controls = new Map<string, ClientEpisode>();
  for (const e of mine) if (e.shopper === control) controls.set(key(e), e);
  const byTask = new Map<string, Record<Metric, PairedSums>>();
  let units = 0;
  for (const t of mine) {
    if (t.shopper !== treatment) continue;
    const c = controls.get(key(t));
    if (!c) continue;
    units++;
    let sums = byTask.get(t.taskId);
    if (!sums) {
      sums = {
        success: { n: 0, t: 0, c: 0 },
        regret: { n: 0, t: 0, c: 0 },
        messages: { n: 0, t: 0, c: 0 },
      };
      byTask.set(t.taskId, sums);
    }
    for (const m of Object.keys(METRICS) as Metric[]) {
      sums[m].n++;
      sums[m].t += METRICS[m](t);
      sums[m].c += METRICS[m](c);
    }
  }
  const clusters = [...byTask.values()];
  const rng = createRng(
    `${options.seed ?? "bazaar-shop"}/client/paired/${client ?? "all"}/${treatment}/${control}`,
  );
  const diff = (m: Metric) =>
    pairedDifference(
      clusters.map((s) => s[m]),
      { draws, level, rng: rng.fork(m) },
    );
  return {
    client,
    treatment,
    control,
    units,
    tasks: byTask.size,
    level,
    draws,
    success: diff("success"),
    regret: diff("regret"),
    messages: diff("messages"),
  };
}
