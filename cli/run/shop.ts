import type { Command } from "commander";
import { CLIENT_PRESETS } from "../../agents/sim/client/index.ts";
import {
  DEFAULT_SHOP_AGENTS,
  HAGGLER_PRESETS,
  SHOP_PRESETS,
  TALKER_PRESETS,
} from "../../agents/sim/shop/index.ts";
import { DEFAULT_ARM_RATE, DEFAULT_FAMILY_SHARES } from "../../environments/shop/design.ts";
import { DESCRIPTION_ARMS } from "../../environments/shop/types.ts";
import { addUntilOption } from "./until.ts";

export const DEFAULT_SHOP_REPLICATES = 4;
/**
 * The seller negotiator of negotiable listings when none is named: linear concession, because
 * without `--offer-rounds` a seller's turn limit is the shopper's whole step budget, and a Boulware
 * seller barely moves from its list price in the rounds a buyer can afford (in a market with
 * hagglers, deals came 0.0% off list). `--offer-rounds n` gives time-dependent sellers their time
 * scale: they reach their floor at their n-th answer.
 */
export const DEFAULT_SELLER_NEGOTIATOR = "rule:linear";

export function shopAgentNames(): string[] {
  return [
    ...Object.keys(SHOP_PRESETS).map((k) => `sim:${k}`),
    "openai:<model>",
    ...Object.keys(TALKER_PRESETS).map((k) => `sim:${k} (asks its client: with --client)`),
    ...Object.keys(HAGGLER_PRESETS).map((k) => `sim:${k} (with --negotiable)`),
    "og-narrator (with --negotiable)",
    "og-narrator:openai:<model> (with --negotiable)",
  ];
}

/** The options of `bazaar run shop` (the run command adds the shared ones). */
export function addShopOptions(cmd: Command): Command {
  return addUntilOption(cmd, "shop")
    .option(
      "--agent <specs>",
      `comma-separated agents (default ${DEFAULT_SHOP_AGENTS.join(",")}): ${shopAgentNames().join(", ")}`,
    )
    .option(
      "--replicates <n>",
      "repetitions of every task per agent (pass^k needs k of them)",
      String(DEFAULT_SHOP_REPLICATES),
    )
    .option("--pool <file>", "hotel pool (bazaar JSON/CSV or PriceBench hotel_pool.json)")
    .option("--tasks <n>", "tasks in the design (default 100)")
    .option(
      "--families <list>",
      `task families and shares, e.g. open,needle or open:3,needle:1 (default ${Object.entries(
        DEFAULT_FAMILY_SHARES,
      )
        .map(([f, s]) => `${f}:${s}`)
        .join(",")})`,
    )
    .option("--listings <n>", "listings in each task's catalog (default 24)")
    .option("--page-size <n>", "result cards per search page (default 8)")
    .option("--max-steps <n>", "tool calls an episode may make (default 15)")
    .option("--max-invalid <n>", "invalid calls in a row that end an episode (default 3)")
    .option("--sponsored-rate <r>", "share of listings tagged sponsored (default 0.2)")
    .option("--endorsement-rate <r>", "share with the Guest favourite badge (default 0.2)")
    .option("--scarcity-rate <r>", "share with an 'Only N rooms left' tag (default 0.2)")
    .option("--discount-rate <r>", "share showing a was-price (default 0.2)")
    .option("--admissible <min-max>", "admissible listings of an open task (default 3-8)")
    .option(
      "--descriptions <mode>",
      "listing descriptions: neutral (every listing's from project templates over its attributes) or battery (description arms randomized per listing, independently of rank and tags) (default neutral)",
    )
    .option(
      "--arms <list>",
      `with --descriptions battery: the arms in play, comma-separated (default all: ${DESCRIPTION_ARMS.join(",")}); neutral is the control and always in play; false-claim goes only on listings lacking an amenity (on others another of the arms is drawn)`,
    )
    .option(
      "--negotiable <r>",
      "share of each catalog's listings that take offers: the shopper gets the offer tool and each such listing's seller negotiator answers (default 0: none)",
    )
    .option(
      "--seller-negotiator <specs>",
      `with --negotiable: comma-separated seller negotiators, the negotiable listings dealt to them in turn (seller-1, seller-2, … in this order; default ${DEFAULT_SELLER_NEGOTIATOR}): rule:<tactic>, sim:<preset>, openai:<model>, exec:<command>, module:<file>[#export] — every bargaining seller (an outside agent answers each negotiation in a session of its own)`,
    )
    .option(
      "--offer-rounds <n>",
      "with --negotiable: offers a shopper may send to one listing's seller, the seller's turn limit (time-dependent sellers concede over it); after the n-th answer without a deal the shopper can still take one of the seller's counters or book at the list price, and any other offer to that listing is refused (default: the step budget, --max-steps)",
    )
    .option(
      "--client <specs>",
      `comma-separated clients the shopper works for, each crossed with every agent: the client says what it wants only when asked (specs/client.md): ${Object.keys(
        CLIENT_PRESETS,
      )
        .map((k) => `sim:${k}`)
        .join(
          ", ",
        )}, openai:<model> (an LLM plays the persona of --client-persona). Without it the request is handed over whole`,
    )
    .option(
      "--client-persona <name>",
      "the persona an openai: client plays: complete, partial or terse (default terse)",
    )
    .option(
      "--client-base-url <url>",
      "where openai: clients are served (default: the run's --base-url, with its key and settings)",
    )
    .option(
      "--og-schedule <s>",
      "with an og-narrator agent: its offers, linear, exp, linear:0.5:1, or factors 0.5,0.6,… of the request's price cap (default linear)",
    )
    .option(
      "--arm-rate <r>",
      `with --descriptions battery: share of each catalog's listings given a non-neutral arm, the arms equally likely (default ${DEFAULT_ARM_RATE})`,
    );
}
