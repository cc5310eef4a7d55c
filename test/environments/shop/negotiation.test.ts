import { describe, expect, it } from "vitest";
import { resolveBargainPlayer } from "../../../agents/bargain/registry.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { type Agent, runEpisode } from "../../../environments/kernel/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import {
  buildShopTasks,
  type ShopOutcome,
  type ShopTask,
  type ShopView,
  shopMachine,
} from "../../../environments/shop/index.ts";
import { shopTrialRecord } from "../../../environments/shop/record.ts";
import { isAdmissible } from "../../../environments/shop/search.ts";
import { type Step, scripted } from "./helpers.ts";

/** A design where every listing takes offers, dealt to two seller negotiators. */
function negotiableTask(maxSteps = 15): ShopTask {
  const tasks = buildShopTasks(
    { tasks: 8, seed: 5, negotiable: 1, negotiators: 2, maxSteps, families: { open: 1 } },
    DEFAULT_HOTEL_POOL,
  );
  return tasks[0]!;
}

/** A seller that plays a script of bargaining actions and keeps the views it was shown. */
function scriptedSeller(moves: Record<string, unknown>[]) {
  const views: unknown[] = [];
  let i = 0;
  const agent: Agent<unknown, unknown> & { views: unknown[] } = {
    id: "seller-script",
    views,
    act(obs) {
      views.push(obs.view);
      const m = moves[i++];
      if (!m) throw new Error("seller script ran out");
      return { action: m };
    },
  };
  return agent;
}

async function play(task: ShopTask, shopper: Step[], sellers: Record<string, Agent<unknown, unknown>>) {
  const agent = scripted(shopper);
  const r = await runEpisode<ShopOutcome>(
    shopMachine,
    { task },
    { shopper: agent, ...sellers },
    { rng: createRng(1), trialKey: "k", replicate: 0 },
  );
  return { ...r, seen: agent.seen };
}

const search = { type: "search", sort: "price_low" };
const firstId = (v: ShopView) => {
  const call = v.turns[0]!.calls[0]!;
  if (call.result.kind !== "results") throw new Error("no results");
  return call.result.cards[0]!.id;
};

describe("offers in the shop", () => {
  it("a design with offers marks every negotiable listing with a seller and a cost below its price; a plain design adds nothing", () => {
    const t = negotiableTask();
    expect(t.rules.offers).toBe(true);
    for (const l of t.listings) {
      expect(l.negotiation?.seller).toMatch(/^seller-[12]$/);
      expect(l.negotiation!.cost).toBeLessThan(l.price);
      expect(l.negotiation!.cost).toBeGreaterThanOrEqual(0.6 * l.price - 0.01);
    }
    expect(new Set(t.listings.map((l) => l.negotiation!.seller)).size).toBe(2);
    const plain = buildShopTasks({ tasks: 4, seed: 5 }, DEFAULT_HOTEL_POOL);
    const plainAgain = buildShopTasks({ tasks: 4, seed: 5, negotiable: 0 }, DEFAULT_HOTEL_POOL);
    expect(plainAgain).toEqual(plain);
    for (const l of plain[0]!.listings) expect(l.negotiation).toBeUndefined();
    expect(plain[0]!.rules.offers).toBeUndefined();
  });

  it("a counter, then an offer at the seller's own counter is a deal without asking, and book pays the agreed price", async () => {
    const task = negotiableTask();
    const seller = scriptedSeller([{ type: "offer", price: 1000, talk: "I can do 1000." }]);
    let id = "";
    const r = await play(
      task,
      [
        search,
        (v) => {
          id = firstId(v);
          return { type: "offer", id, price: 50, message: "Would you take $50?" };
        },
        () => ({ type: "offer", id, price: 1000 }),
        () => ({ type: "book", id }),
      ],
      { "seller-1": seller, "seller-2": seller },
    );
    expect(r.output.endReason).toBe("booked");
    expect(r.output.paid).toBe(1000);
    const n = r.output.negotiations!;
    expect(n).toHaveLength(1);
    expect(n[0]!.deal).toBe(1000);
    expect(n[0]!.offers.map((m) => [m.side, m.move, m.price, m.answer])).toEqual([
      ["buyer", "offer", 50, "counter"],
      ["seller", "counter", 1000, undefined],
      ["buyer", "offer", 1000, "deal"],
    ]);
    // The seller saw exactly the bargaining seller's view of this pair: its cost, the list price, the offer.
    expect(seller.views).toHaveLength(1);
    const l = task.listings.find((x) => x.id === id)!;
    expect(seller.views[0]).toMatchObject({
      role: "seller",
      codename: id,
      listedPrice: l.price,
      history: [{ role: "buyer", type: "offer", price: 50, talk: "Would you take $50?" }],
    });
    // The shopper read the counter in its result.
    const text = r.seen[2]!.messages.at(-1)!.content;
    expect(text).toContain("The seller counters at $1000 a night.");
  });

  it("a seller accepting makes a deal at the offered price; a later offer on that listing is refused", async () => {
    const task = negotiableTask();
    const seller = scriptedSeller([{ type: "deal", price: 80, talk: "Deal." }]);
    let id = "";
    const r = await play(
      task,
      [
        search,
        (v) => {
          id = firstId(v);
          return { type: "offer", id, price: 80 };
        },
        () => ({ type: "offer", id, price: 70 }),
        () => ({ type: "book", id }),
      ],
      { "seller-1": seller, "seller-2": seller },
    );
    expect(r.output.paid).toBe(80);
    expect(r.output.invalidCalls).toBe(1);
    expect(r.output.trajectory[2]!.summary).toContain("already have a deal");
  });

  it("a seller's deal at a price never offered is its invalid answer, read as a rejection; the buyer's call stays valid", async () => {
    const task = negotiableTask();
    const seller = scriptedSeller([{ type: "deal", price: 999, talk: "Deal at 999." }]);
    let id = "";
    const r = await play(
      task,
      [
        search,
        (v) => {
          id = firstId(v);
          return { type: "offer", id, price: 80 };
        },
        () => ({ type: "give_up", reason: "done" }),
      ],
      { "seller-1": seller, "seller-2": seller },
    );
    const n = r.output.negotiations![0]!;
    expect(n.sellerInvalid).toBe(1);
    expect(n.deal).toBeNull();
    expect(r.output.invalidCalls).toBe(0);
    expect(r.seen[2]!.messages.at(-1)!.content).toContain("no usable answer");
  });

  it("an offer to a listing that takes no offers is an error the shopper reads", async () => {
    const task = buildShopTasks(
      { tasks: 4, seed: 5, negotiable: 0.25, families: { open: 1 } },
      DEFAULT_HOTEL_POOL,
    )[0]!;
    const plainOne = task.listings.find((l) => !l.negotiation)!;
    const r = await play(
      task,
      [
        { type: "search", page: 1 },
        { type: "search", page: 2 },
        { type: "search", page: 3 },
        { type: "offer", id: plainOne.id, price: 10 },
        { type: "give_up", reason: "x" },
      ],
      {},
    );
    expect(r.output.trajectory[3]!.ok).toBe(false);
    expect(r.output.trajectory[3]!.summary).toContain("does not take offers");
  });

  it("a counter on the last step ends the episode out of steps with the deadlock flag", async () => {
    const task = negotiableTask(2);
    const seller = resolveBargainPlayer("rule:boulware", "seller").agent;
    const r = await play(task, [search, (v) => ({ type: "offer", id: firstId(v), price: 20 })], {
      "seller-1": seller,
      "seller-2": seller,
    });
    expect(r.output.endReason).toBe("out-of-steps");
    expect(r.output.deadlock).toBe(true);
    expect(r.output.negotiations![0]!.offers[1]!.move).toBe("counter");
  });

  it("several negotiations in one message, each with its own seller, answered in order", async () => {
    const task = negotiableTask();
    const boulware = resolveBargainPlayer("rule:boulware", "seller").agent;
    const conceder = resolveBargainPlayer("rule:conceder", "seller").agent;
    const r = await play(
      task,
      [
        search,
        (v) => {
          const call = v.turns[0]!.calls[0]!;
          if (call.result.kind !== "results") throw new Error("no results");
          const ids = call.result.cards.slice(0, 3).map((c) => c.id);
          return {
            type: "several tool calls",
            calls: ids.map((id) => ({ name: "offer", args: { id, price: 30 } })),
          };
        },
        { type: "give_up", reason: "none" },
      ],
      { "seller-1": boulware, "seller-2": conceder },
    );
    const n = r.output.negotiations!;
    expect(n).toHaveLength(3);
    expect(r.output.steps).toBe(5);
    for (const x of n) {
      expect(x.offers[1]!.move).toBe("counter");
      // A rule seller never counters below its cost.
      expect(x.offers[1]!.price!).toBeGreaterThanOrEqual(x.cost);
    }
    // Each pair's seller saw only its own pair's history.
    expect(r.seen[2]!.view.turns[1]!.calls.map((c) => c.result.kind)).toEqual(["offer", "offer", "offer"]);
  });

  it("a listing listed above the cap but bought under it at an agreed price meets the price constraint: the record judges at the price paid", async () => {
    const tasks = buildShopTasks(
      { tasks: 30, seed: 8, negotiable: 1, negotiators: 1, families: { open: 1 } },
      DEFAULT_HOTEL_POOL,
    );
    let found: { task: ShopTask; id: string; cap: number } | null = null;
    for (const task of tasks) {
      const cap = task.request.constraints.maxPrice;
      if (cap === null) continue;
      const over = task.listings.find(
        (l) => l.price > cap && isAdmissible({ ...l, price: cap }, task.request.constraints),
      );
      if (over) {
        found = { task, id: over.id, cap };
        break;
      }
    }
    expect(found).not.toBeNull();
    const { task, id, cap } = found!;
    const seller = scriptedSeller([{ type: "deal", price: cap, talk: "Fine." }]);
    const pages = Math.ceil(task.listings.length / task.rules.pageSize);
    const r = await play(
      task,
      [
        ...Array.from({ length: pages }, (_, i) => ({ type: "search", page: i + 1 })),
        { type: "offer", id, price: cap },
        { type: "book", id },
      ],
      { "seller-1": seller },
    );
    expect(r.output.paid).toBe(cap);
    const record = shopTrialRecord({
      run: "r",
      trialKey: "k",
      seq: 1,
      agent: "scripted",
      replicate: 0,
      task,
      outcome: r.output,
      usage: r.usage,
    });
    expect(task.admissible).not.toContain(id);
    expect(record.constraints?.price).toBe(true);
    expect(record.booked?.admissible).toBe(true);
    expect(record.success).toBe(true);
    expect(record.booked?.price).toBeGreaterThan(cap);
  });
});

describe("offer rounds: a per-pair turn limit", () => {
  function roundsTask(offerRounds: number | undefined, maxSteps = 15): ShopTask {
    return buildShopTasks(
      {
        tasks: 8,
        seed: 5,
        negotiable: 1,
        negotiators: 2,
        maxSteps,
        families: { open: 1 },
        ...(offerRounds === undefined ? {} : { offerRounds }),
      },
      DEFAULT_HOTEL_POOL,
    )[0]!;
  }
  const low = (id: () => string) => () => ({ type: "offer", id: id(), price: 20 });

  it("is in the task's rules only when set, and only with offers; a design without it builds the tasks it built before", () => {
    expect(roundsTask(3).rules.offerRounds).toBe(3);
    expect(roundsTask(undefined).rules.offerRounds).toBeUndefined();
    expect({ ...roundsTask(3), rules: { ...roundsTask(3).rules, offerRounds: undefined } }).toEqual({
      ...roundsTask(undefined),
      rules: { ...roundsTask(undefined).rules, offerRounds: undefined },
    });
    const plain = buildShopTasks({ tasks: 2, seed: 5, offerRounds: 3 }, DEFAULT_HOTEL_POOL);
    expect(plain).toEqual(buildShopTasks({ tasks: 2, seed: 5 }, DEFAULT_HOTEL_POOL));
  });

  it("is the seller's turn limit: its view and its opening say n turns, not the step budget", async () => {
    const task = roundsTask(3);
    const opening: string[] = [];
    const seller: Agent<unknown, unknown> = {
      id: "seller-reads",
      act(obs) {
        expect(obs.view).toMatchObject({ maxTurns: 3 });
        opening.push(obs.messages.map((m) => m.content).join("\n"));
        return { action: { type: "offer", price: 900, talk: "900." } };
      },
    };
    const r = await play(task, [search, (v) => ({ type: "offer", id: firstId(v), price: 50 })], {
      "seller-1": seller,
      "seller-2": seller,
    });
    expect(r.output.negotiations).toHaveLength(1);
    expect(opening[0]).toContain("at most 3 turns");
    expect(opening[0]).not.toContain(`at most ${task.rules.maxSteps} turns`);
  });

  it("gives a time-dependent seller its time scale: a Boulware seller reaches its cost at its n-th answer", async () => {
    const counters = async (offerRounds: number | undefined) => {
      const task = roundsTask(offerRounds);
      const boulware = resolveBargainPlayer("rule:boulware", "seller").agent;
      let id = "";
      const r = await play(
        task,
        [
          search,
          (v) => {
            id = firstId(v);
            return { type: "offer", id, price: 20 };
          },
          low(() => id),
          low(() => id),
          { type: "give_up", reason: "too dear" },
        ],
        { "seller-1": boulware, "seller-2": boulware },
      );
      const n = r.output.negotiations![0]!;
      return { n, prices: n.offers.filter((m) => m.side === "seller").map((m) => m.price!) };
    };
    const three = await counters(3);
    expect(three.prices).toHaveLength(3);
    // The cost as the seller is shown it (whole cents up): its floor, reached at t = 1.
    expect(three.prices[2]).toBe(Math.ceil(three.n.cost * 100) / 100);
    // Over the whole step budget (15 turns) the same seller has barely moved by its third answer.
    const budget = await counters(undefined);
    expect(budget.prices[2]!).toBeGreaterThan(three.n.listPrice - 0.2 * (three.n.listPrice - three.n.cost));
    expect(budget.n.atTurnLimit).toBeUndefined();
  });

  it("when the rounds run out: another offer is refused (an invalid call that says why), the seller's counters can still be taken, and book pays the deal", async () => {
    const task = roundsTask(2);
    const seller = scriptedSeller([
      { type: "offer", price: 1000, talk: "1000." },
      { type: "offer", price: 900, talk: "900, final." },
    ]);
    let id = "";
    const r = await play(
      task,
      [
        search,
        (v) => {
          id = firstId(v);
          return { type: "offer", id, price: 50 };
        },
        () => ({ type: "offer", id, price: 60 }),
        () => ({ type: "offer", id, price: 70 }),
        () => ({ type: "offer", id, price: 900 }),
        () => ({ type: "book", id }),
      ],
      { "seller-1": seller, "seller-2": seller },
    );
    // The seller answered twice: the third offer never reached it.
    expect(seller.views).toHaveLength(2);
    expect(r.output.invalidCalls).toBe(1);
    const refused = r.output.trajectory[3]!;
    expect(refused.ok).toBe(false);
    expect(refused.summary).toContain("takes at most 2 offers");
    expect(refused.summary).toContain("($1000, $900)");
    expect(r.output.endReason).toBe("booked");
    expect(r.output.paid).toBe(900);
    const n = r.output.negotiations![0]!;
    expect(n.deal).toBe(900);
    // At its limit once the second answer came; a deal taken from a counter after it stands.
    expect(n.atTurnLimit).toBe(true);
    expect(n.offers.map((m) => [m.side, m.price, m.answer ?? m.move])).toEqual([
      ["buyer", 50, "counter"],
      ["seller", 1000, "counter"],
      ["buyer", 60, "counter"],
      ["seller", 900, "counter"],
      ["buyer", 900, "deal"],
    ]);
  });

  it("a pair at its turn limit is over, not open: running out of steps then is no deadlock", async () => {
    const task = roundsTask(1, 3);
    const boulware = resolveBargainPlayer("rule:boulware", "seller").agent;
    let id = "";
    const r = await play(
      task,
      [
        search,
        (v) => {
          id = firstId(v);
          return { type: "offer", id, price: 20 };
        },
        { type: "search", page: 2 },
      ],
      { "seller-1": boulware, "seller-2": boulware },
    );
    expect(r.output.endReason).toBe("out-of-steps");
    expect(r.output.negotiations![0]!.atTurnLimit).toBe(true);
    expect(r.output.deadlock).toBe(false);
  });
});
