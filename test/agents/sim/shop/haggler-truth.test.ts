/**
 * Known truth for the simulated hagglers: against the deterministic rule sellers of the bargaining
 * environment, what each haggler pays is worked out here by hand — the rule seller's formula
 * (agents/bargain/tactics.ts: target(s) = L + (C − L)·(s/(M − 1))^(1/e), whole cents up; it accepts
 * the buyer's best bid once that reaches its target) played against each preset's published numbers
 * — and must equal the episode's price to the cent, and so must the difference between the
 * one-seller and the seller-playing haggler.
 */
import { describe, expect, it } from "vitest";
import { resolveBargainPlayer } from "../../../../agents/bargain/registry.ts";
import { HAGGLER_PRESETS, SHOP_PRESETS } from "../../../../agents/sim/shop/index.ts";
import { DEFAULT_HOTEL_POOL } from "../../../../datasets/hotels/index.ts";
import { runEpisode } from "../../../../environments/kernel/episode.ts";
import { ceilCents, floorCents, roundCents } from "../../../../environments/kernel/money.ts";
import { createRng } from "../../../../environments/kernel/rng.ts";
import type { Agent } from "../../../../environments/kernel/types.ts";
import {
  buildShopTasks,
  type ShopOutcome,
  type ShopTask,
  shopMachine,
} from "../../../../environments/shop/index.ts";

/** Every listing takes offers, one seller negotiator, and a budget that never binds the schedules. */
const MAX_STEPS = 30;
const tasks = buildShopTasks(
  { tasks: 24, seed: 41, negotiable: 1, negotiators: 1, maxSteps: MAX_STEPS, families: { open: 1 } },
  DEFAULT_HOTEL_POOL,
);

/** The rule sellers and their concession exponents e (the hardliner never concedes). */
const SELLERS: [string, number][] = [
  ["rule:linear", 1],
  ["rule:conceder", 2],
  ["rule:boulware", 0.2],
  ["rule:hardliner", 0],
];

/** The rule seller's ask at its s-th move (0-based) with turn limit M (the shop's step budget). */
function target(e: number, list: number, cost: number, s: number): number {
  const f = e === 0 ? 0 : Math.min(1, s / (MAX_STEPS - 1)) ** (1 / e);
  return ceilCents(list + (cost - list) * f);
}

/**
 * One-seller schedule, by hand: bids 60/70/80/90% of T = min(list, cap); before each it accepts the
 * lowest counter if no more than (a cent above) the bid; the seller takes a bid at or above its
 * target; after the fourth bid the lowest counter if below list, else the list price.
 */
function schedulePrice(e: number, list: number, cost: number, cap: number): number {
  const t = Math.min(list, cap);
  let ask: number | null = null;
  for (const [r, f] of [0.6, 0.7, 0.8, 0.9].entries()) {
    const bid = floorCents(f * t);
    if (ask !== null && ask <= bid + 0.01 + 1e-9) return ask;
    const seller = target(e, list, cost, r);
    if (bid >= seller) return bid;
    ask = ask === null ? seller : Math.min(ask, seller);
  }
  return ask !== null && ask < list ? ask : list;
}

/**
 * Anchoring, by hand: 70% of list, +5 points a round up to 85%, bids again at 85% while 3 steps are
 * left (a bid, an acceptance, the booking), accepts the lowest counter at or below 85% of list;
 * else the list price. `left` is the budget when it made its first offer.
 */
function anchoringPrice(e: number, list: number, cost: number, left: number): number {
  const walkAway = floorCents(0.85 * list);
  let ask: number | null = null;
  for (let r = 0; ; r++) {
    if (ask !== null && ask <= walkAway) return ask;
    if (left < 3) return list;
    const bid = floorCents(Math.min(0.7 + 0.05 * r, 0.85) * list + 1e-9);
    if (ask !== null && ask <= bid + 0.01 + 1e-9) return ask;
    left--;
    const seller = target(e, list, cost, r);
    if (bid >= seller) return bid;
    ask = ask === null ? seller : Math.min(ask, seller);
  }
}

async function play(task: ShopTask, preset: string, seller: string): Promise<ShopOutcome> {
  const shopper = (HAGGLER_PRESETS[preset] ?? SHOP_PRESETS[preset])!.make(`sim:${preset}`) as Agent<
    unknown,
    unknown
  >;
  const r = await runEpisode<ShopOutcome>(
    shopMachine,
    { task },
    { shopper, "seller-1": resolveBargainPlayer(seller, "seller").agent },
    { rng: createRng(`${task.taskId}/truth`), trialKey: task.taskId, replicate: 0 },
  );
  return r.output;
}

const listing = (task: ShopTask, id: string) => task.listings.find((l) => l.id === id)!;

describe("hagglers against rule sellers: prices worked out by hand", () => {
  it("the one-seller haggler pays more than the seller-playing one by exactly what their policies imply", async () => {
    const gaps: Record<string, number[]> = {};
    // Both ways a deal is made must occur, or the hand computation checked less than it claims.
    const deals = { sellerAccepted: 0, counterAccepted: 0, atList: 0 };
    for (const [seller, e] of SELLERS) {
      gaps[seller] = [];
      for (const task of tasks) {
        const cap = task.request.constraints.maxPrice!;
        const one = await play(task, "one-seller-haggler", seller);
        const many = await play(task, "seller-playing-haggler", seller);

        // One seller: the listing it books is the one it haggled with, and nothing else; on these
        // tasks the budget held back binds nothing, so it is exactly the careful shopper's booking.
        expect(one.endReason).toBe("booked");
        const pick = listing(task, one.bookedId!);
        expect(pick.id).toBe((await play(task, "careful", seller)).bookedId);
        expect(one.negotiations!.map((n) => n.id)).toEqual([pick.id]);
        const onePrice = schedulePrice(e, pick.price, pick.negotiation!.cost, cap);
        expect(one.paid, `${seller} ${task.taskId} one-seller`).toBe(onePrice);

        // Seller-playing: the 3 cheapest admissible listings (all shown: the budget pages through),
        // each by the same schedule; it books the lowest deal or list price.
        const admissible = task.admissible.map((id) => listing(task, id));
        const cheapest3 = admissible
          .map((l) => l.price)
          .sort((a, b) => a - b)
          .slice(0, 3);
        const haggled = many.negotiations!.map((n) => listing(task, n.id));
        expect(haggled.map((l) => l.price).sort((a, b) => a - b)).toEqual(cheapest3);
        const manyPrice = Math.min(
          ...haggled.map((l) => schedulePrice(e, l.price, l.negotiation!.cost, cap)),
          ...admissible.map((l) => l.price),
        );
        expect(many.paid, `${seller} ${task.taskId} seller-playing`).toBe(manyPrice);
        expect(task.admissible).toContain(many.bookedId);

        for (const n of [...one.negotiations!, ...many.negotiations!]) {
          if (n.offers.some((m) => m.side === "seller" && m.move === "accept")) deals.sellerAccepted++;
          else if (n.offers.some((m) => m.answer === "deal")) deals.counterAccepted++;
          else deals.atList++;
        }

        const gap = roundCents(one.paid! - many.paid!);
        expect(gap).toBe(roundCents(onePrice - manyPrice));
        gaps[seller]!.push(gap);
      }
    }
    expect(deals.sellerAccepted).toBeGreaterThan(0);
    expect(deals.counterAccepted).toBeGreaterThan(0);
    expect(deals.atList).toBeGreaterThan(0);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    // The seller-playing haggler picks among the cheapest and takes the best of three deals.
    for (const [seller] of SELLERS) expect(mean(gaps[seller]!), seller).toBeGreaterThan(0);
    console.log(
      Object.entries(gaps)
        .map(([s, g]) => `${s}: mean gap $${mean(g).toFixed(2)} over ${g.length} tasks`)
        .join("; "),
      deals,
    );
  });

  it("the anchoring haggler pays what its policy implies against each rule seller", async () => {
    for (const [seller, e] of SELLERS) {
      for (const task of tasks.slice(0, 12)) {
        const o = await play(task, "anchoring-haggler", seller);
        expect(o.endReason).toBe("booked");
        const pick = listing(task, o.bookedId!);
        const n = o.negotiations!;
        expect(n.map((x) => x.id)).toEqual([pick.id]);
        const firstStep = n[0]!.offers[0]!.step;
        const price = anchoringPrice(e, pick.price, pick.negotiation!.cost, MAX_STEPS - (firstStep - 1));
        expect(o.paid, `${seller} ${task.taskId}`).toBe(price);
        // Its bids: 70%, 75%, 80%, then 85% of the list price.
        const bids = n[0]!.offers
          .filter((m) => m.side === "buyer" && m.answer !== "deal")
          .map((m) => m.price);
        bids.forEach((b, i) => {
          expect(b).toBe(floorCents(Math.min(0.7 + 0.05 * i, 0.85) * pick.price + 1e-9));
        });
      }
    }
  });
});
