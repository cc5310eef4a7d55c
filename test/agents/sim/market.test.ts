/**
 * The simulated sellers' policies on seller views of a real market: static keeps; undercut prices a
 * set share below the cheapest comparable competitor and never below its cost (nor above its cap),
 * over many made-up competitor prices; the injector writes an injection arm every turn; the
 * cue-bandit tries each arm once, in an order seeded by its listing, then writes the best; sloppy
 * sends a malformed call first. Every description fits the limit and tags as the arm meant.
 */
import { describe, expect, it } from "vitest";
import {
  armDescription,
  armOf,
  BANDIT_ARMS,
  banditOrder,
  cueBanditSeller,
  injectorSeller,
  SLOPPY_CALL,
  sloppySeller,
  staticSeller,
  undercutPrice,
  undercutSeller,
} from "../../../agents/sim/market/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { sellerView } from "../../../environments/market/machine.ts";
import type { SellerView } from "../../../environments/market/types.ts";
import { sellerTaskFixtures } from "../../environments/market/fixtures.ts";

const views = sellerTaskFixtures(3).map((t) => sellerView(t));
const ctx = (seed: string) => ({ rng: createRng(seed), trialKey: seed, replicate: 0 });
const act = (agent: { act: (o: never, c: never) => { action: unknown } }, view: SellerView, seed = "s") =>
  agent.act({ messages: [], view } as never, ctx(seed) as never).action as Record<string, unknown>;

describe("simulated sellers", () => {
  it("static keeps, whatever it sees", () => {
    for (const v of views) expect(act(staticSeller("s"), v)).toEqual({ type: "keep" });
  });

  it("undercut: 5% below the cheapest comparable competitor, never below cost, never above the cap", () => {
    const rng = createRng("undercut");
    for (let i = 0; i < 500; i++) {
      const base = views[i % views.length]!;
      const v: SellerView = {
        ...base,
        competitors: base.competitors.map((c) => ({ ...c, price: 20 + rng.int(600) })),
      };
      const price = undercutPrice(v, 0.05);
      expect(price).toBeGreaterThanOrEqual(v.cost);
      expect(price).toBeLessThanOrEqual(v.cap);
      const a = act(undercutSeller("s"), v);
      if (a.type === "set_price") expect(a.amount).toBe(price);
      else expect(price).toBe(v.listing.price);
    }
    // Where the cheapest rival leaves room: exactly 5% below it, in whole dollars.
    const v = {
      ...views[0]!,
      competitors: views[0]!.competitors.map((c) => ({ ...c, price: views[0]!.cost * 3 })),
    };
    expect(undercutPrice(v, 0.05)).toBe(Math.min(v.cap, Math.floor(v.cost * 3 * 0.95)));
  });

  it("the injector writes an injection arm every turn, within the limit", () => {
    for (const [i, v] of views.entries()) {
      const a = act(injectorSeller("s"), v, `t${i}`);
      expect(a.type).toBe("set_description");
      const text = a.text as string;
      expect(text.length).toBeLessThanOrEqual(600);
      expect(["injection-basic", "injection-strong"]).toContain(armOf(v, text));
    }
  });

  it("every arm's description fits the limit and tags as its arm", () => {
    for (const v of views)
      for (const arm of BANDIT_ARMS) {
        const text = armDescription(v, arm, 3);
        expect(text.length).toBeLessThanOrEqual(600);
        expect(armOf(v, text)).toBe(arm);
      }
  });

  it("the cue-bandit tries each arm once in a seeded order, then writes the best", () => {
    const v0 = views[0]!;
    const order = banditOrder(v0, BANDIT_ARMS);
    expect(order[0]).toBe("neutral");
    expect(new Set(order)).toEqual(new Set(BANDIT_ARMS));
    // History: each arm tried once, social proof booked most; the current round is authority.
    const history = order.slice(0, -1).map((arm, i) => ({
      round: i + 1,
      price: v0.listing.price,
      description: armDescription(v0, arm, 0),
      shown: 10,
      views: 5,
      bookings: arm === "social-proof" ? 9 : 2,
      revenue: 0,
      profit: 0,
    }));
    const last = order.at(-1)!;
    const v: SellerView = {
      ...v0,
      round: order.length,
      history,
      listing: { ...v0.listing, description: armDescription(v0, last, 0) },
      report: { ...v0.report, stats: { ...v0.report.stats, bookings: 3 } },
    };
    const a = act(cueBanditSeller("s"), v);
    expect(a.type).toBe("set_description");
    expect(armOf(v, a.text as string)).toBe("social-proof");
    // Before it has tried them all: the next untried arm in its order.
    const early = { ...v0, history: [], round: 1 };
    expect(armOf(early, act(cueBanditSeller("s"), early).text as string)).toBe(order[1]);
  });

  it("sloppy: a malformed call first, then, told it was refused, a valid one", () => {
    const v = views[0]!;
    expect(act(sloppySeller("s"), v)).toEqual(SLOPPY_CALL);
    const again = act(sloppySeller("s"), { ...v, refused: [["Error: invalid arguments"]] });
    expect(["keep", "set_price"]).toContain(again.type);
  });
});
