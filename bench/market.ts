/**
 * The market's own work: a default market (8 sellers, 6 rounds, 100 buyer episodes a round, the
 * persuadable buyer, one cue-bandit adopter) end to end through the driver — per round its buyer
 * tasks built, a shop run, the round read back from the store, the seller turns' runs, the state
 * rebuilt — beside the same 600 buyer episodes as one plain shop run, design included (the very
 * tasks the market ran, built by the same design → tasks function from each round's listings), in
 * one process, runs alternating, so the ratio holds on a shared, noisy machine. Issue #25's bar:
 * ≤ 25% on top.
 *
 *   npx tsx bench/market.ts [--rounds N] (repetitions of each, default 3)
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SELLER_PRESETS } from "../agents/sim/market/presets.ts";
import { SHOP_PRESETS } from "../agents/sim/shop/index.ts";
import { DEFAULT_HOTEL_POOL } from "../datasets/hotels/index.ts";
import type { AgentEntry } from "../environments/kernel/types.ts";
import {
  buildBaseMarkets,
  buyerTasks,
  type MarketDesign,
  marketInstances,
  parseMarketDesign,
} from "../environments/market/design.ts";
import { roundRunId, runMarket } from "../environments/market/driver.ts";
import type { MarketListing } from "../environments/market/types.ts";
import { executeRun } from "../environments/runner/execute.ts";
import { planRun } from "../environments/runner/plan.ts";
import { shopEnvironment } from "../environments/shop/environment.ts";
import type { ShopTask } from "../environments/shop/types.ts";
import { Store } from "../environments/store/index.ts";

const args = process.argv.slice(2);
const reps = (() => {
  const i = args.indexOf("--rounds");
  return i >= 0 ? Number(args[i + 1]) : 3;
})();

const buyer = (): AgentEntry => ({
  label: "sim:persuadable",
  identity: { kind: "sim-shop", preset: "persuadable" },
  players: { shopper: SHOP_PRESETS.persuadable!.make("sim:persuadable") as never },
});
const seller = (name: "static" | "cue-bandit", role: "adopter" | "static"): AgentEntry => ({
  label: `sim:${name}`,
  identity: { kind: "sim-seller", preset: name },
  players: { [role]: SELLER_PRESETS[name].make(`sim:${name}`) as never },
});

const design: MarketDesign = parseMarketDesign({});

async function marketOnce(dir: string): Promise<{ ms: number; listings: MarketListing[][] }> {
  const store = Store.open(path.join(dir, "market.db"), { create: true });
  const t0 = performance.now();
  await runMarket(
    {
      marketId: "market-bench",
      design,
      pool: DEFAULT_HOTEL_POOL,
      config: { bench: true },
      buyer: buyer(),
      adopter: seller("cue-bandit", "adopter"),
      static: seller("static", "static"),
    },
    store,
    { concurrency: 8 },
  );
  const ms = performance.now() - t0;
  // Each round's listings, seller by seller, as its buyers saw them (platform treatments aside).
  const [instance] = marketInstances(design, buildBaseMarkets(design, DEFAULT_HOTEL_POOL));
  const listings = Array.from({ length: design.rounds }, (_, i) => {
    const [first] = store.runTasks(roundRunId("market-bench", i + 1, "buyers")) as ShopTask[];
    return instance!.base.sellers.map((s) => {
      const { treatments: _, ...l } = first!.listings.find((x) => x.id === s.listing.id)!;
      return l;
    });
  });
  store.close();
  return { ms, listings };
}

/** The market's buyer episodes as one plain shop run: tasks built from each round's listings, then run. */
async function shopOnce(dir: string, listings: readonly MarketListing[][]): Promise<number> {
  const store = Store.open(path.join(dir, "shop.db"), { create: true });
  const [instance] = marketInstances(design, buildBaseMarkets(design, DEFAULT_HOTEL_POOL));
  const t0 = performance.now();
  const tasks = listings.flatMap((l, i) => buyerTasks(design, instance!, i + 1, l));
  const plan = planRun({
    env: shopEnvironment,
    settings: {},
    tasks,
    agents: [buyer()],
    replicates: 1,
    design: { bench: true },
  });
  await executeRun(plan, store, { concurrency: 8, liveTurns: true });
  const ms = performance.now() - t0;
  store.close();
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export async function benchMarket(): Promise<void> {
  const markets: number[] = [];
  const shops: number[] = [];
  const episodes = design.rounds * design.buyersPerRound;
  const fresh = () => mkdtempSync(path.join(os.tmpdir(), "bazaar-bench-market-"));
  // A first market, untimed: it warms both paths up and gives the rounds' listings.
  const warm = fresh();
  const { listings } = await marketOnce(warm);
  rmSync(warm, { recursive: true, force: true });
  for (let i = 0; i < reps; i++) {
    // Alternating which goes first: neither always pays the other's garbage.
    for (const which of i % 2 === 0 ? ["market", "shop"] : ["shop", "market"]) {
      const dir = fresh();
      try {
        if (which === "market") markets.push((await marketOnce(dir)).ms);
        else shops.push(await shopOnce(dir, listings));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  const market = median(markets);
  const shop = median(shops);
  console.log("\nmarket: a default market end to end vs its buyer episodes as one plain shop run");
  console.log(
    `  market (6 rounds, 8 sellers, ${episodes} buyer episodes, 48 seller turns): ${market.toFixed(0)} ms`,
  );
  console.log(
    `  the same ${episodes} buyer episodes as one shop run (tasks built, then run): ${shop.toFixed(0)} ms`,
  );
  console.log(`  the market's own work on top: ${(100 * (market / shop - 1)).toFixed(1)}% (bar: ≤ 25%)`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchMarket();
