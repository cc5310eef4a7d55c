/**
 * Small market runs for the market view's tests, run in process by the real driver (simulated
 * buyers and sellers, a fresh store), and read as `bazaar watch <market>` reads them.
 */

import { SELLER_PRESETS } from "../../../agents/sim/market/presets.ts";
import { SHOP_PRESETS } from "../../../agents/sim/shop/index.ts";
import { turnsOf } from "../../../cli/actions/watch-market.ts";
import { analyzeMarketRuns } from "../../../cli/analyzers/market.ts";
import type { MarketViewData } from "../../../cli/tui/market/screen.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import type { Hotel } from "../../../datasets/hotels/schema.ts";
import type { AgentEntry } from "../../../environments/kernel/types.ts";
import {
  type MarketDesignInput,
  marketSegment,
  parseMarketDesign,
} from "../../../environments/market/design.ts";
import { runMarket } from "../../../environments/market/driver.ts";
import { Store } from "../../../environments/store/index.ts";
import { getMarket } from "../../../environments/store/markets.ts";
import { tempDir } from "../../helpers/cli.ts";

export function simSeller(name: keyof typeof SELLER_PRESETS, role: "adopter" | "static"): AgentEntry {
  return {
    label: `sim:${name}`,
    identity: { preset: name },
    players: { [role]: SELLER_PRESETS[name].make(`sim:${name}`) as never },
  };
}

export const CAREFUL_BUYER: AgentEntry = {
  label: "sim:careful",
  identity: { buyer: "careful" },
  players: { shopper: SHOP_PRESETS.careful!.make("sim:careful") as never },
};

/** The `n` hotels of the default market segment with the longest names: the widest table there is. */
export function longNamedPool(n: number): Hotel[] {
  return marketSegment(DEFAULT_HOTEL_POOL, n)
    .hotels.slice()
    .sort((a, b) => b.name.length - a.name.length || a.id - b.id)
    .slice(0, n);
}

/** Runs a market to its end and returns what the terminal view is given. */
export async function marketViewData(
  id: string,
  design: MarketDesignInput,
  adopter: keyof typeof SELLER_PRESETS,
  pool: readonly Hotel[] = DEFAULT_HOTEL_POOL,
): Promise<MarketViewData> {
  const store = Store.open(`${tempDir("bazaar-market-view-")}/m.db`, { create: true });
  try {
    const d = parseMarketDesign(design);
    await runMarket(
      {
        marketId: id,
        design: d,
        pool,
        config: { design: d },
        buyer: CAREFUL_BUYER,
        adopter: simSeller(adopter, "adopter"),
        static: simSeller("static", "static"),
      },
      store,
      { concurrency: 4 },
    );
    const market = getMarket(store, id)!;
    const a = analyzeMarketRuns(store, market);
    return {
      id,
      rounds: a.rounds,
      sellersPerMarket: a.sellersPerMarket,
      markets: a.markets,
      turns: turnsOf(store, market),
      storeFlag: " --store m.db",
    };
  } finally {
    store.close();
  }
}
