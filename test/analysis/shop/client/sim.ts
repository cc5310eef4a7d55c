/**
 * Client episodes with known truth, through the real path (task with a client profile → machine →
 * simulated shopper and simulated client → export record), and an independent account of what
 * each is worth to the client: V, S, the best admissible surplus and regret computed here from
 * the profile's formula (specs/client.md), not by environments/shop/client/score.ts; and, for the
 * careful shopper's logit draw, the expected regret of an episode over what it opened.
 */
import { simClient } from "../../../../agents/sim/client/index.ts";
import {
  CAREFUL_BETA,
  logitProbabilities,
  SHOP_PRESETS,
  shopUtility,
  TALKER_PRESETS,
} from "../../../../agents/sim/shop/index.ts";
import { runEpisode } from "../../../../environments/kernel/episode.ts";
import { createRng } from "../../../../environments/kernel/rng.ts";
import { type Agent, emptyUsage } from "../../../../environments/kernel/types.ts";
import type { ClientUtility } from "../../../../environments/shop/client/types.ts";
import {
  type ShopOutcome,
  type ShopTask,
  type ShopTrialRecord,
  shopMachine,
  shopTrialRecord,
} from "../../../../environments/shop/index.ts";

/** A sim shopper by name (the talkers and SHOP_PRESETS), as `--agent sim:<name>` plays it. */
export function simShopper(name: string): Agent<unknown, unknown> {
  const preset = TALKER_PRESETS[name] ?? SHOP_PRESETS[name];
  if (!preset) throw new Error(`no sim shopper ${name}`);
  return preset.make(`sim:${name}`) as Agent<unknown, unknown>;
}

/**
 * Every task × replicate played by the shopper for the client (a sim client by name); the record's
 * agent is "<shopper> for sim:<client>", as a run with `--client` labels it.
 */
export async function playClients(args: {
  tasks: readonly ShopTask[];
  shopper: string | Agent<unknown, unknown>;
  client: string;
  replicates: number;
  seed: string;
}): Promise<ShopTrialRecord[]> {
  const shopper = typeof args.shopper === "string" ? simShopper(args.shopper) : args.shopper;
  const client = simClient(args.client);
  if (!client) throw new Error(`no sim client ${args.client}`);
  const agent = `${shopper.id} for ${client.id}`;
  const out: ShopTrialRecord[] = [];
  for (const task of args.tasks)
    for (let rep = 0; rep < args.replicates; rep++) {
      const trialKey = `${args.seed}/${agent}/${task.taskId}/${rep}`;
      const r = await runEpisode<ShopOutcome>(
        shopMachine,
        { task },
        { shopper, client: client as Agent<unknown, unknown> },
        { rng: createRng(trialKey), trialKey, replicate: rep },
      );
      out.push(
        shopTrialRecord({
          run: args.seed,
          trialKey,
          seq: out.length,
          agent,
          replicate: rep,
          task,
          outcome: r.output,
          usage: emptyUsage(),
        }),
      );
    }
  return out;
}

type Valued = {
  price: number;
  reviewScore: number;
  stars: number;
  freeCancellation: boolean;
  breakfast: boolean;
  area: string;
  neighborhood: string;
};

/** V(l) by the profile's formula: base + review·(score − 8) + stars·(stars − 3) + amenities + area. */
export function value(u: ClientUtility, l: Valued): number {
  return (
    u.base +
    u.review * (l.reviewScore - 8) +
    u.stars * (l.stars - 3) +
    (l.freeCancellation ? u.amenities.free_cancellation : 0) +
    (l.breakfast ? u.amenities.breakfast : 0) +
    (u.areas[l.area] ?? 0)
  );
}

type Requirements = ShopTask["request"]["constraints"];

/** Meets every hidden requirement (an area or a neighborhood names where a listing is). */
export function acceptable(c: Requirements, l: Valued): boolean {
  const place = (p: string) =>
    l.area.toLowerCase() === p.toLowerCase() || l.neighborhood.toLowerCase() === p.toLowerCase();
  return (
    (c.maxPrice === null || l.price <= c.maxPrice) &&
    (c.minStars === null || l.stars >= c.minStars) &&
    (c.areas === null || c.areas.some(place)) &&
    c.amenities.every((a) => (a === "breakfast" ? l.breakfast : l.freeCancellation))
  );
}

/** The best surplus over the listings meeting every requirement, or null when none does. */
export function bestSurplus(u: ClientUtility, c: Requirements, listings: readonly Valued[]): number | null {
  const ok = listings.filter((l) => acceptable(c, l)).map((l) => value(u, l) - l.price);
  return ok.length > 0 ? Math.max(...ok) : null;
}

/** Regret of booking `l` (null: no booking): best − (S(l) when acceptable, else 0); 0 when nothing is admissible. */
export function regretOf(
  u: ClientUtility,
  c: Requirements,
  listings: readonly Valued[],
  l: Valued | null,
): number {
  const best = bestSurplus(u, c, listings);
  if (best === null) return 0;
  return best - (l !== null && acceptable(c, l) ? value(u, l) - l.price : 0);
}

/**
 * What an episode of a careful-booking shopper (the careful shopper, or a talker once it shops)
 * could have cost the client, given what it opened: the regret of each listing it viewed with its
 * probability under the logit with β = CAREFUL_BETA at the page and rank each was first shown —
 * the draw its booking is — and whether booking it succeeds. An episode that did not book has one
 * outcome: the whole best surplus (nothing admissible: 0, and a give-up succeeds).
 */
export function expectedOutcomes(r: ShopTrialRecord): { regret: number[]; p: number[]; success: boolean[] } {
  const u = r.client!.profile.utility;
  const c = r.request.constraints;
  const catalog = [...r.shown, ...r.admissible];
  const feasible = bestSurplus(u, c, catalog) !== null;
  if (r.endReason !== "booked")
    return {
      regret: [regretOf(u, c, catalog, null)],
      p: [1],
      success: [!feasible && r.endReason === "gave-up"],
    };
  const opened = r.shown.filter((s) => s.viewed);
  const p = logitProbabilities(
    opened.map((s) =>
      shopUtility(
        CAREFUL_BETA,
        {
          price: s.price,
          reviewScore: s.reviewScore,
          stars: s.stars,
          roomType: s.roomType,
          freeCancellation: s.freeCancellation,
          breakfast: s.breakfast,
          sponsored: s.treatments.sponsored,
          endorsed: s.treatments.endorsed,
          roomsLeft: s.treatments.roomsLeft,
          wasPrice: s.treatments.wasPrice,
        },
        s.rank,
        s.page,
      ),
    ),
  );
  return {
    regret: opened.map((s) => regretOf(u, c, catalog, s)),
    p,
    success: opened.map((s) => feasible && acceptable(c, s)),
  };
}

/** The expected regret of an episode given what it opened (`expectedOutcomes`), and its variance. */
export function expectedRegret(r: ShopTrialRecord): { mean: number; variance: number } {
  const { regret, p } = expectedOutcomes(r);
  const mean = p.reduce((a, q, i) => a + q * regret[i]!, 0);
  const second = p.reduce((a, q, i) => a + q * regret[i]! ** 2, 0);
  return { mean, variance: Math.max(0, second - mean * mean) };
}
