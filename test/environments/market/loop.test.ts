/**
 * The market's loop (issue #25's correctness bar), in process: a cue-bandit seller facing buyers
 * that reward one description arm converges to it — its share of bookings rises over the rounds
 * against static sellers — while the static sellers never change; undercutters move their prices and
 * never below cost; and every round's trials are stored once, the state rebuilt from them.
 */
import { describe, expect, it } from "vitest";
import { SELLER_PRESETS } from "../../../agents/sim/market/presets.ts";
import { CAREFUL_BETA, SHOP_PRESETS, ShopShopper } from "../../../agents/sim/shop/index.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import type { AgentEntry } from "../../../environments/kernel/types.ts";
import { type MarketDesignInput, parseMarketDesign } from "../../../environments/market/design.ts";
import { roundRunId, runMarket } from "../../../environments/market/driver.ts";
import type { SellerOutcome, SellerTask } from "../../../environments/market/types.ts";
import type { ShopOutcome } from "../../../environments/shop/types.ts";
import { Store } from "../../../environments/store/index.ts";
import { tempDir } from "../../helpers/cli.ts";

function seller(name: keyof typeof SELLER_PRESETS, role: "adopter" | "static" = "adopter"): AgentEntry {
  return {
    label: `sim:${name}`,
    identity: { preset: name },
    players: { [role]: SELLER_PRESETS[name].make(`sim:${name}`) as never },
  };
}

/** The careful shopper, pulled by social proof alone (β 2: the only arm that pays). */
const socialProofBuyer: AgentEntry = {
  label: "sim:social-proof-lover",
  identity: { buyer: "social-proof-lover" },
  players: {
    shopper: new ShopShopper("sim:social-proof-lover", {
      beta: { ...CAREFUL_BETA, socialProof: 2 },
      strategy: "careful",
      ignoreShare: 0,
      lapseRate: 0,
      inventRate: 0,
      parallel: true,
      follow: {},
      credulity: 0,
    }) as never,
  },
};

async function market(id: string, design: MarketDesignInput, buyer: AgentEntry, adopter: AgentEntry) {
  const store = Store.open(`${tempDir()}/m.db`, { create: true });
  const d = parseMarketDesign(design);
  const result = await runMarket(
    {
      marketId: id,
      design: d,
      pool: DEFAULT_HOTEL_POOL,
      config: { id },
      buyer,
      adopter,
      static: seller("static", "static"),
    },
    store,
    { concurrency: 8 },
  );
  const turns = (round: number) =>
    [...store.trialRows(roundRunId(id, round, "sellers"))].map((r) => ({
      task: r.task as SellerTask,
      outcome: (r.result as { outcome: SellerOutcome }).outcome,
    }));
  const buyers = (round: number) =>
    [...store.trialRows(roundRunId(id, round, "buyers"))].map(
      (r) => (r.result as { outcome: ShopOutcome }).outcome,
    );
  return { store, result, turns, buyers, d };
}

describe("the market loop", () => {
  it("a cue-bandit facing buyers that reward one arm converges to it; static sellers never change", async () => {
    const rounds = 10;
    const m = await market(
      "market-bandit",
      { rounds, sellers: 6, buyersPerRound: 80, adopters: [1], seed: 7 },
      socialProofBuyer,
      seller("cue-bandit"),
    );
    expect(m.result).toMatchObject({ roundsDone: rounds, stored: m.result.total, interrupted: false });
    const shareOf = (round: number, id: string) => {
      const outcomes = m.buyers(round);
      const booked = outcomes.filter((o) => o.bookedId !== null);
      return booked.filter((o) => o.bookedId === id).length / booked.length;
    };
    const first = m.turns(1);
    const adopter = first.find((t) => t.task.adopter)!;
    const id = adopter.task.listing.id;
    // It tried the arms (one a round), then wrote social proof and kept it.
    const arms = Array.from(
      { length: rounds },
      (_, i) => m.turns(i + 1).find((t) => t.task.adopter)!.task.listing.description.arm,
    );
    expect(arms[0]).toBe("neutral");
    expect(new Set(arms.slice(1, 7)).size).toBe(6);
    expect(arms.slice(7)).toEqual(["social-proof", "social-proof", "social-proof"]);
    const late = (shareOf(8, id) + shareOf(9, id) + shareOf(10, id)) / 3;
    expect(late).toBeGreaterThan(shareOf(1, id) + 0.1);
    // The static sellers: every turn a keep, their listings as the design drew them, every round.
    for (let r = 1; r <= rounds; r++) {
      for (const t of m.turns(r).filter((x) => !x.task.adopter)) {
        const start = first.find((f) => f.task.seller === t.task.seller)!.task.listing;
        expect(t.outcome.endReason).toBe("kept");
        expect(t.task.listing).toEqual(start);
        expect(t.outcome.calls.map((c) => c.tool)).toEqual(["keep"]);
      }
    }
    m.store.close();
  });

  it("undercutters move their prices and never price below cost", async () => {
    const m = await market(
      "market-undercut",
      { rounds: 5, sellers: 8, buyersPerRound: 40, adopters: [4], seed: 11 },
      {
        label: "sim:careful",
        identity: { b: "careful" },
        players: { shopper: SHOP_PRESETS.careful!.make("sim:careful") as never },
      },
      seller("undercut"),
    );
    let moved = 0;
    for (let r = 1; r <= 5; r++) {
      for (const t of m.turns(r)) {
        expect(t.outcome.price, t.task.taskId).toBeGreaterThanOrEqual(t.task.cost);
        expect(t.outcome.price).toBeLessThanOrEqual(t.task.cap);
        expect(t.outcome.invalidCalls).toBe(0);
        if (t.task.adopter && t.outcome.priceChanged) moved++;
        if (!t.task.adopter) expect(t.outcome.endReason).toBe("kept");
      }
    }
    expect(moved).toBeGreaterThan(3);
    // What a seller set is what the next round's buyers saw.
    const after1 = m.turns(1).filter((t) => t.task.adopter);
    const seen2 = m.turns(2).filter((t) => t.task.adopter);
    for (const t of after1)
      expect(seen2.find((s) => s.task.seller === t.task.seller)!.task.listing.price).toBe(t.outcome.price);
    m.store.close();
  });
});
