import { BARGAIN_ANSWER } from "../../environments/bargain/answer.ts";
import { CHOICE_ANSWER } from "../../environments/choice/answer.ts";
import { CUE_ANSWER } from "../../environments/cue/answer.ts";
import { ELICIT_ANSWER } from "../../environments/elicit/answer.ts";
import { MARKET_ANSWER } from "../../environments/market/answer.ts";
import { SHOP_ANSWER } from "../../environments/shop/answer.ts";
import type { EnvironmentCli } from "./types.ts";

/**
 * Every environment `bazaar run` knows; an environment adds its CLI here (one entry). Its options
 * module is loaded when its subcommand is about to parse (run/<env>.ts), its planner when it runs
 * (run/<env>-plan.ts): `bazaar --help` and `bazaar run --help` load neither.
 */
export const ENVIRONMENT_CLIS: readonly EnvironmentCli[] = [
  {
    name: "choice",
    summary: "catalog choice: book one of 2, 3 or 5 hotel options (PriceBench)",
    answer: CHOICE_ANSWER,
    options: async () => (await import("./choice.ts")).addChoiceOptions,
    planner: async () => (await import("./choice-plan.ts")).planChoice,
  },
  {
    name: "elicit",
    summary: "stated preferences: are an agent's dollar judgments consistent with one utility?",
    answer: ELICIT_ANSWER,
    options: async () => (await import("./elicit.ts")).addElicitOptions,
    planner: async () => (await import("./elicit-plan.ts")).planElicit,
  },
  {
    name: "bargain",
    summary: "buyer/seller bargaining: deal rates and normalized profits, the OG-Narrator buyer",
    answer: BARGAIN_ANSWER,
    options: async () => (await import("./bargain.ts")).addBargainOptions,
    planner: async () => (await import("./bargain-plan.ts")).planBargain,
  },
  {
    name: "cue",
    summary: "cue injection: two identical products, a persuasive sentence on one, priced by a price sweep",
    answer: CUE_ANSWER,
    options: async () => (await import("./cue.ts")).addCueOptions,
    planner: async () => (await import("./cue-plan.ts")).planCue,
  },
  {
    name: "shop",
    summary:
      "tool-using shopping: search, view and book hotels over many calls (success, pass^k, rank and tag price-equivalents)",
    answer: SHOP_ANSWER,
    options: async () => (await import("./shop.ts")).addShopOptions,
    planner: async () => (await import("./shop-plan.ts")).planShop,
  },
  {
    name: "market",
    summary:
      "sellers over rounds: buyer episodes on the current listings, then each seller rewrites its description or price (shares, HHI, adoption)",
    answer: MARKET_ANSWER,
    options: async () => (await import("./market.ts")).addMarketOptions,
    // Not one plan: the driver runs a plan per round and part (environments/market/driver.ts).
    planner: async () => (await import("./market-plan.ts")).marketPlanner,
    driver: async () => (await import("../actions/run-market.ts")).runMarketCommand,
  },
];

export type { CommonRunOptions, Driver, EnvironmentCli } from "./types.ts";
