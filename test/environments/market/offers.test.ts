import { describe, expect, it } from "vitest";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import {
  buildBaseMarkets,
  buyerTasks,
  marketInstances,
  parseMarketDesign,
} from "../../../environments/market/design.ts";
import { initialMarketState } from "../../../environments/market/rounds.ts";

describe("offers in market rounds", () => {
  it("the same sellers take offers in every round and adoption level, negotiated by the dealt roles with each seller's own cost", () => {
    const d = parseMarketDesign({ sellers: 8, rounds: 3, adopters: [0, 2], negotiable: 0.5, negotiators: 2 });
    const instances = marketInstances(d, buildBaseMarkets(d, DEFAULT_HOTEL_POOL));
    const seen = new Map<string, string>();
    for (const inst of instances) {
      const listings = initialMarketState(inst).listings;
      for (const round of [1, 3]) {
        const [task] = buyerTasks({ ...d, buyersPerRound: 1 }, inst, round, listings);
        expect(task!.rules.offers).toBe(true);
        const negotiable = task!.listings.filter((l) => l.negotiation);
        expect(negotiable).toHaveLength(4);
        for (const l of task!.listings) {
          const seller = inst.base.sellers.find((s) => s.listing.id === l.id)!;
          if (!l.negotiation) continue;
          expect(l.negotiation.cost).toBe(seller.cost);
          const key = `${inst.base.m}/${l.id}`;
          expect(seen.get(key) ?? l.negotiation.seller).toBe(l.negotiation.seller);
          seen.set(key, l.negotiation.seller);
        }
        expect(new Set(negotiable.map((l) => l.negotiation!.seller))).toEqual(
          new Set(["seller-1", "seller-2"]),
        );
      }
    }
  });

  it("a market without offers spells none of their settings and its buyers' tasks are as before", () => {
    const plain = parseMarketDesign({ sellers: 6 });
    expect(parseMarketDesign({ sellers: 6, negotiable: 0, negotiators: 3 })).toEqual(plain);
    expect("negotiable" in plain).toBe(false);
    const [inst] = marketInstances(plain, buildBaseMarkets(plain, DEFAULT_HOTEL_POOL));
    const [task] = buyerTasks(plain, inst!, 1, initialMarketState(inst!).listings);
    expect(task!.rules.offers).toBeUndefined();
    for (const l of task!.listings) expect(l.negotiation).toBeUndefined();
  });
});
