import type { Command } from "commander";
import { DEFAULT_MARKET_BUYER, DEFAULT_MARKET_SELLER, SELLER_NAMES } from "../../agents/sim/market/names.ts";

export const MARKET_DEFAULTS = {
  sellers: 8,
  rounds: 6,
  buyersPerRound: 100,
  adopters: "1",
  markets: 1,
  costShare: "0.5-0.8",
  priceCap: 2,
} as const;

export function sellerAgentNames(): string[] {
  return [
    ...SELLER_NAMES.map((n) => `sim:${n}`),
    "openai:<model>",
    "exec:<command>",
    "module:<file>[#export]",
    "a2a:<url>",
  ];
}

/** The options of `bazaar run market` (the run command adds the shared ones). */
export function addMarketOptions(cmd: Command): Command {
  const d = MARKET_DEFAULTS;
  return cmd
    .option("--sellers <n>", `sellers (listings) in each market (default ${d.sellers})`)
    .option("--rounds <n>", `rounds: buyer episodes, then one turn per seller (default ${d.rounds})`)
    .option("--buyers-per-round <n>", `buyer episodes per round in each market (default ${d.buyersPerRound})`)
    .option(
      "--buyer <spec>",
      `the buyers: any shop agent (default ${DEFAULT_MARKET_BUYER}; e.g. sim:careful, sim:injectable, openai:<model>)`,
    )
    .option(
      "--seller <spec>",
      `the optimizing seller the adopters run (default ${DEFAULT_MARKET_SELLER}): ${sellerAgentNames().join(", ")}; the other sellers are sim:static`,
    )
    .option(
      "--adopters <k[,k…]>",
      `adoption levels: how many of a market's sellers run --seller (default ${d.adopters}); each level runs every market`,
    )
    .option(
      "--markets <n>",
      `markets per adoption level, each its own seeded set of sellers (default ${d.markets})`,
    )
    .option(
      "--cost-share <x|low-high>",
      `a seller's cost as a share of its starting price, fixed or drawn from a range (default ${d.costShare})`,
    )
    .option(
      "--price-cap <x>",
      `the highest price a seller may set, as a multiple of its starting price (default ${d.priceCap})`,
    )
    .option("--pool <file>", "hotel pool (bazaar JSON/CSV or PriceBench hotel_pool.json)")
    .option("--page-size <n>", "result cards per search page in buyer episodes (default 8)")
    .option("--max-steps <n>", "tool calls a buyer episode may make (default 15)")
    .option(
      "--negotiable <r>",
      "share of each market's sellers whose listing takes offers in buyer episodes (the same sellers every round; default 0: none)",
    )
    .option(
      "--seller-negotiator <specs>",
      "with --negotiable: who answers the offers, comma-separated, the negotiable sellers dealt to them in turn (default rule:linear): rule:<tactic>, sim:<preset>, openai:<model>, exec:<command>, module:<file>[#export] (an outside agent answers each negotiation in a session of its own)",
    );
}
