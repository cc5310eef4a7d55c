/**
 * A market run where the adoption estimator's truth is known: the adopters play `sim:static`, as
 * every other seller does, so adopting changes nothing; the buyers are careful shoppers (who ignore
 * descriptions, though nothing here writes one); the adopters are drawn at random per market, as
 * every market run draws them. Then, over that draw, the adopters' expected share of bookings after
 * round 1 is exactly k/N (each seller is an adopter with chance k/N, and the shares sum to one), and
 * so is their expected round-1 share: both gains the analysis estimates — over k/N and over their
 * own round-1 share — have truth 0. Markets are independent (each base market draws its hotels,
 * costs, adopters and buyers from its own stream), as the t interval over markets assumes.
 */
import { SELLER_PRESETS } from "../../../agents/sim/market/presets.ts";
import { SHOP_PRESETS } from "../../../agents/sim/shop/index.ts";
import type { BuyerRecordLike, MarketAnalysis, SellerTurnLike } from "../../../analysis/market/index.ts";
import { MarketTally } from "../../../analysis/market/index.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import type { AgentEntry } from "../../../environments/kernel/types.ts";
import { type MarketDesignInput, parseMarketDesign } from "../../../environments/market/design.ts";
import { runMarket } from "../../../environments/market/driver.ts";
import { trialRecords } from "../../../environments/runner/records.ts";
import { Store } from "../../../environments/store/index.ts";
import { getMarket } from "../../../environments/store/markets.ts";

/** Small and cheap: the intervals are over markets, so a market needs only enough buyers to book. */
export const NULL_DESIGN = {
  sellers: 4,
  rounds: 2,
  buyersPerRound: 8,
  markets: 10,
  adopters: [1, 2],
} satisfies MarketDesignInput;

function staticSeller(role: "adopter" | "static"): AgentEntry {
  return {
    label: "sim:static",
    identity: { preset: "static", role },
    players: { [role]: SELLER_PRESETS.static.make("sim:static") as never },
  };
}

const CAREFUL: AgentEntry = {
  label: "sim:careful",
  identity: { buyer: "careful" },
  players: { shopper: SHOP_PRESETS.careful!.make("sim:careful") as never },
};

export interface NullMarket {
  buyers: BuyerRecordLike[];
  turns: SellerTurnLike[];
  analysis: MarketAnalysis;
}

/** Runs one null market run (in memory) and analyses it as `bazaar analyze` does. */
export async function nullMarket(seed: string, design: MarketDesignInput = NULL_DESIGN): Promise<NullMarket> {
  const d = parseMarketDesign({ ...design, seed });
  const store = Store.open(":memory:", { create: true });
  try {
    const id = "market-null";
    await runMarket(
      {
        marketId: id,
        design: d,
        pool: DEFAULT_HOTEL_POOL,
        config: { design: d },
        buyer: CAREFUL,
        adopter: staticSeller("adopter"),
        static: staticSeller("static"),
      },
      store,
      { concurrency: 8 },
    );
    const tally = new MarketTally(d.rounds, d.sellers);
    const buyers: BuyerRecordLike[] = [];
    const turns: SellerTurnLike[] = [];
    for (const link of getMarket(store, id)!.runs) {
      for (const r of trialRecords(store, link.runId)) {
        if (link.part === "buyers") {
          buyers.push(r as unknown as BuyerRecordLike);
          tally.addBuyer(r as unknown as BuyerRecordLike);
        } else {
          turns.push(r as unknown as SellerTurnLike);
          tally.addTurn(r as unknown as SellerTurnLike);
        }
      }
    }
    return { buyers, turns, analysis: tally.result() };
  } finally {
    store.close();
  }
}
