/**
 * The simulated hagglers in the shop's default design with offers (15 steps, half the listings
 * negotiable, two seller negotiators of different kinds): within the step budget, only admissible
 * bookings, deterministic given the seed, the seller-playing quote, and the same decisions from the
 * conversation alone as from the view (the serve-sim path).
 */
import { describe, expect, it } from "vitest";
import {
  anchoringMove,
  HAGGLER_PRESETS,
  type Pair,
  scheduleMove,
  sellersThatFit,
} from "../../../../agents/sim/shop/index.ts";
import { DEFAULT_HOTEL_POOL } from "../../../../datasets/hotels/index.ts";
import { createRng } from "../../../../environments/kernel/rng.ts";
import type { Agent, Observation } from "../../../../environments/kernel/types.ts";
import {
  buildShopTasks,
  observeShop,
  type ShopOutcome,
  type ShopTask,
  type ShopView,
} from "../../../../environments/shop/index.ts";
import { playWithSellers } from "../../../environments/shop/helpers.ts";

const HAGGLERS = ["anchoring-haggler", "one-seller-haggler", "seller-playing-haggler"];
const tasks = buildShopTasks({ tasks: 40, seed: 7, negotiable: 0.5, negotiators: 2 }, DEFAULT_HOTEL_POOL);

function play(
  task: ShopTask,
  shopper: Agent<unknown, unknown>,
  sellers: readonly string[] = ["rule:conceder", "sim:llm"],
  seed = "s",
): Promise<ShopOutcome> {
  return playWithSellers(task, shopper, sellers, seed);
}

const pair = (counters: number[], bids = counters.length): Pair => ({
  id: "x",
  bids: Array.from({ length: bids }, () => ({
    price: 1,
    message: "",
    answer: "counter" as const,
    reply: null,
    said: "",
    step: 1,
  })),
  counters: counters.map((price) => ({ price, message: "" })),
  deal: null,
  closed: false,
});

describe("haggling policies", () => {
  it("anchoring: 70%, 75%, 80%, 85%, 85% … of list; a counter at or below 85% is accepted, above it not", () => {
    const p = HAGGLER_PRESETS["anchoring-haggler"]!.params.haggle!.policy as Parameters<
      typeof anchoringMove
    >[0];
    expect([0, 1, 2, 3, 4, 5].map((r) => anchoringMove(p, 200, pair([199], r), true))).toEqual(
      [140, 150, 160, 170, 170, 170].map((price) => ({ kind: "bid", price })),
    );
    expect(anchoringMove(p, 200, pair([170]), true)).toEqual({ kind: "accept", price: 170 });
    expect(anchoringMove(p, 200, pair([171]), false)).toEqual({ kind: "done" });
  });

  it("one-seller: 60/70/80/90% of min(list, cap); a counter no more than the bid is taken; after the schedule the best counter below list", () => {
    const p = HAGGLER_PRESETS["one-seller-haggler"]!.params.haggle!.policy as Parameters<
      typeof scheduleMove
    >[0];
    expect([0, 1, 2, 3].map((r) => scheduleMove(p, 200, 150, pair([199], r), true))).toEqual(
      [90, 105, 120, 135].map((price) => ({ kind: "bid", price })),
    );
    expect(scheduleMove(p, 200, null, pair([160, 140], 2), true)).toEqual({ kind: "accept", price: 140 });
    // A bid a cent under a counter would be that counter under the shop's rules: it accepts instead.
    expect(scheduleMove(p, 200, null, pair([140.01], 2), true)).toEqual({ kind: "accept", price: 140.01 });
    expect(scheduleMove(p, 200, null, pair([190, 185], 4), true)).toEqual({ kind: "accept", price: 185 });
    expect(scheduleMove(p, 200, null, pair([200], 4), true)).toEqual({ kind: "done" });
    expect(scheduleMove(p, 200, null, pair([195], 1), false)).toEqual({ kind: "accept", price: 195 });
  });

  it("seller-playing: as many of 3 sellers as fit 5 steps each and the booking", () => {
    const p = HAGGLER_PRESETS["seller-playing-haggler"]!.params.haggle as Parameters<
      typeof sellersThatFit
    >[0];
    expect([5, 6, 11, 14, 16, 40].map((left) => sellersThatFit(p, left))).toEqual([0, 1, 2, 2, 3, 3]);
  });
});

describe("simulated hagglers in the shop with offers", () => {
  it("stay within the step budget, book only admissible listings, give up only when none is, and pay a deal or the list price", async () => {
    let haggled = 0;
    for (const name of HAGGLERS) {
      const shopper = HAGGLER_PRESETS[name]!.make(`sim:${name}`) as Agent<unknown, unknown>;
      for (const task of tasks) {
        const o = await play(task, shopper);
        const where = `${name} ${task.taskId}`;
        expect(o.steps, where).toBeLessThanOrEqual(task.rules.maxSteps);
        expect(o.invalidCalls, where).toBe(0);
        if (task.admissible.length === 0) {
          expect(o.endReason, where).toBe("gave-up");
          continue;
        }
        expect(o.endReason, where).toBe("booked");
        expect(task.admissible, where).toContain(o.bookedId);
        const booked = task.listings.find((l) => l.id === o.bookedId)!;
        const deal = o.negotiations!.find((n) => n.id === o.bookedId)?.deal ?? null;
        expect(o.paid, where).toBe(deal ?? booked.price);
        expect(o.paid!, where).toBeLessThanOrEqual(booked.price);
        expect(o.deadlock, where).toBe(false);
        for (const n of o.negotiations!) {
          expect(task.admissible, where).toContain(n.id);
          for (const m of n.offers) if (m.side === "buyer") expect(m.price!, where).toBeLessThan(n.listPrice);
        }
        if (o.negotiations!.length > 0) haggled++;
      }
    }
    expect(haggled).toBeGreaterThan(30);
  });

  it("the one-seller and anchoring hagglers bargain only over the listing they book; the seller-playing one quotes other sellers' counters", async () => {
    let quotes = 0;
    const sp = HAGGLER_PRESETS["seller-playing-haggler"]!.make("sp") as Agent<unknown, unknown>;
    for (const name of ["anchoring-haggler", "one-seller-haggler"]) {
      const shopper = HAGGLER_PRESETS[name]!.make(name) as Agent<unknown, unknown>;
      for (const task of tasks) {
        const o = await play(task, shopper);
        expect(o.negotiations!.length).toBeLessThanOrEqual(1);
        if (o.negotiations!.length === 1) expect(o.negotiations![0]!.id).toBe(o.bookedId);
      }
    }
    for (const task of tasks) {
      const o = await play(task, sp, ["rule:linear", "rule:conceder"]);
      const counters = new Map(
        o.negotiations!.map((n) => [
          n.id,
          n.offers.filter((m) => m.side === "seller" && m.move === "counter"),
        ]),
      );
      for (const n of o.negotiations!) {
        for (const m of n.offers) {
          const quoted = /^Another seller offers \$([\d.]+) a night\./.exec(m.message);
          if (m.side !== "buyer" || !quoted) continue;
          quotes++;
          const x = Number(quoted[1]);
          // A counter another seller made before this offer, and lower than this seller's own.
          const elsewhere = [...counters]
            .filter(([id]) => id !== n.id)
            .flatMap(([, c]) => c.filter((y) => y.step < m.step).map((y) => y.price!));
          expect(elsewhere).toContain(x);
          const own = n.offers.filter((y) => y.side === "seller" && y.move === "counter" && y.step < m.step);
          for (const y of own) expect(x).toBeLessThan(y.price!);
        }
      }
    }
    expect(quotes).toBeGreaterThan(5);
  });

  it("are deterministic given the seed", async () => {
    for (const name of HAGGLERS) {
      const a = HAGGLER_PRESETS[name]!.make(name) as Agent<unknown, unknown>;
      const b = HAGGLER_PRESETS[name]!.make(name) as Agent<unknown, unknown>;
      for (const task of tasks.slice(0, 10)) expect(await play(task, a)).toEqual(await play(task, b));
    }
  });

  it("decide from the conversation alone as they do from the view, and keep to their listings with a fresh seed each message (the serve-sim path)", async () => {
    for (const name of HAGGLERS) {
      const shopper = HAGGLER_PRESETS[name]!.make(name);
      const recorder: Agent<unknown, unknown> = {
        id: name,
        act(obs, ctx) {
          const o = obs as Observation<ShopView>;
          const fromView = shopper.decide(o.view, createRng(`${ctx.trialKey}/${o.view.steps}`));
          const read = observeShop(o.messages);
          expect(read?.view).toEqual(o.view);
          const fromText = shopper.decide(read!.view, createRng(`${ctx.trialKey}/${o.view.steps}`));
          expect(fromText).toEqual(fromView);
          return { action: fromView };
        },
      };
      for (const t of tasks.slice(0, 10)) {
        const o = await play(t, recorder);
        if (name !== "seller-playing-haggler" && o.negotiations!.length > 0)
          expect(o.negotiations!.map((n) => n.id)).toEqual([o.bookedId]);
      }
    }
  });
});
