import path from "node:path";
import { z } from "zod";
import { type LlmContext, outsideEntry, resolveLlmAgent, splitSpecList } from "../../agents/registry.ts";
import { DEFAULT_MARKET_BUYER, DEFAULT_MARKET_SELLER, STATIC_SELLER } from "../../agents/sim/market/names.ts";
import { SELLER_PRESETS } from "../../agents/sim/market/presets.ts";
import { DEFAULT_HOTEL_POOL, type Hotel, loadHotelPool } from "../../datasets/hotels/index.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { stableHash } from "../../environments/kernel/hash.ts";
import type { AgentEntry } from "../../environments/kernel/types.ts";
import { SellerActionSchema } from "../../environments/market/actions.ts";
import { MARKET_ANSWER } from "../../environments/market/answer.ts";
import { buildBaseMarkets, parseMarketDesign } from "../../environments/market/design.ts";
import { type MarketRunPlan, marketTrials } from "../../environments/market/driver.ts";
import { MARKET_ADOPTER, MARKET_STATIC, type SellerRole } from "../../environments/market/types.ts";
import { parseOption, positiveInt } from "../options.ts";
import { MARKET_DEFAULTS, sellerAgentNames } from "./market.ts";
import { parseNegotiators, resolveShopAgent, withSellerNegotiators } from "./shop-plan.ts";
import { type CommonRunOptions, type Planner, seedValue } from "./types.ts";

interface MarketOptions extends CommonRunOptions {
  sellers?: string;
  rounds?: string;
  buyersPerRound?: string;
  buyer?: string;
  seller?: string;
  adopters?: string;
  markets?: string;
  costShare?: string;
  priceCap?: string;
  pool?: string;
  pageSize?: string;
  maxSteps?: string;
  negotiable?: string;
  sellerNegotiator?: string;
}

/**
 * `sim:<preset>`, `openai:<model>`, or an agent from outside (`exec:`, `module:`), as a market seller
 * in `role` (the adopters' or the static sellers').
 */
export function resolveSellerAgent(spec: string, role: SellerRole, llm?: LlmContext): AgentEntry {
  const outside = outsideEntry(spec, "market", role, llm);
  if (outside) return outside;
  const i = spec.indexOf(":");
  const kind = i < 0 ? spec : spec.slice(0, i);
  const name = i < 0 ? "" : spec.slice(i + 1);
  if (kind === "sim" && Object.hasOwn(SELLER_PRESETS, name)) {
    const preset = SELLER_PRESETS[name as keyof typeof SELLER_PRESETS];
    return {
      label: spec,
      identity: { kind: "sim-seller", preset: name, params: preset.params },
      players: { [role]: preset.make(spec) as never },
    };
  }
  if (kind === "openai" && name.length > 0)
    return resolveLlmAgent(spec, name, role, SellerActionSchema, llm ?? { settings: {} }, MARKET_ANSWER);
  throw new UserError(
    `unknown seller "${spec}" for market runs`,
    `valid sellers: ${sellerAgentNames().join(", ")}`,
  );
}

/** One agent spec (a market has one buyer and one optimizing seller). */
function oneSpec(flag: string, value: string): string {
  const specs = splitSpecList(value);
  if (specs.length !== 1)
    throw new UserError(
      `--${flag} takes one agent, got ${specs.length === 0 ? "none" : `"${value}"`}`,
      "a market has one kind of buyer and one optimizing seller; run another market for another agent",
    );
  return specs[0]!;
}

/** `1` or `0,1,3,6`: adoption levels. */
function parseAdopters(value: string): number[] {
  const parts = value.split(",").map((s) => s.trim());
  if (parts.some((p) => !/^\d+$/.test(p)))
    throw new UserError(
      `--adopters: expected whole numbers separated by commas, e.g. 0,1,3 (got "${value}")`,
    );
  return parts.map(Number);
}

const share = z.coerce
  .number({ error: "expected a number" })
  .refine(Number.isFinite, "expected a number")
  .pipe(z.number().min(0, "expected a share from 0 to 1").max(1, "expected a share from 0 to 1"));

/** `0.6` or `0.5-0.8`. */
function parseCostShare(value: string): [number, number] {
  const m = /^\s*([^-\s]+)\s*(?:-\s*([^-\s]+)\s*)?$/.exec(value);
  if (!m) throw new UserError(`--cost-share: expected a share or a range such as 0.5-0.8 (got "${value}")`);
  const lo = parseOption("cost-share", share, m[1]);
  const hi = m[2] === undefined ? lo : parseOption("cost-share", share, m[2]);
  return [lo, hi];
}

/** `bazaar run market`: its options checked and turned into the market run's plan (nothing written). */
export function planMarket(options: CommonRunOptions, llm: LlmContext): MarketRunPlan {
  const o = options as MarketOptions;
  const int = (name: string, v: string | undefined) =>
    v === undefined ? undefined : parseOption(name, positiveInt, v);
  const negotiators = parseNegotiators(o);
  const design = parseMarketDesign({
    seed: seedValue(o.seed ?? "2026"),
    sellers: int("sellers", o.sellers),
    rounds: int("rounds", o.rounds),
    buyersPerRound: int("buyers-per-round", o.buyersPerRound),
    markets: int("markets", o.markets),
    adopters: parseAdopters(o.adopters ?? MARKET_DEFAULTS.adopters),
    costShare: parseCostShare(o.costShare ?? MARKET_DEFAULTS.costShare),
    priceCap:
      o.priceCap === undefined
        ? undefined
        : parseOption(
            "price-cap",
            z.coerce.number({ error: "expected a number" }).min(1, "expected a multiple of at least 1"),
            o.priceCap,
          ),
    pageSize: int("page-size", o.pageSize),
    maxSteps: int("max-steps", o.maxSteps),
    ...(negotiators.length > 0 ? { negotiable: Number(o.negotiable), negotiators: negotiators.length } : {}),
  });
  const pool: Hotel[] = o.pool ? loadHotelPool(o.pool) : DEFAULT_HOTEL_POOL;
  // Impossible markets (a pool too small) are refused here, before anything is written.
  buildBaseMarkets(design, pool);
  const shopper = resolveShopAgent(
    oneSpec("buyer", o.buyer ?? DEFAULT_MARKET_BUYER),
    llm,
    negotiators.length > 0,
  );
  // With offers, the buyer entry fields the seller negotiators beside the shopper (roles seller-k).
  const buyer = negotiators.length > 0 ? withSellerNegotiators([shopper], negotiators, llm)[0]! : shopper;
  const adopter = resolveSellerAgent(
    oneSpec("seller", o.seller ?? DEFAULT_MARKET_SELLER),
    MARKET_ADOPTER,
    llm,
  );
  const staticSeller = resolveSellerAgent(STATIC_SELLER, MARKET_STATIC, llm);
  const identity = {
    env: "market",
    design: { ...design, pool: o.pool ? { file: path.basename(o.pool), hash: stableHash(pool) } : "default" },
    buyer: { label: buyer.label, identity: buyer.identity },
    ...(negotiators.length > 0 ? { sellerNegotiators: negotiators } : {}),
    seller: { label: adopter.label, identity: adopter.identity },
    static: { label: staticSeller.label, identity: staticSeller.identity },
  };
  return {
    marketId: `market-${stableHash(identity, 10)}`,
    design,
    pool,
    config: {
      ...identity,
      agents: [buyer.label, adopter.label, staticSeller.label],
      expectedTrials: marketTrials(design),
    },
    buyer,
    adopter,
    static: staticSeller,
  };
}

/**
 * What a caller that takes one run plan gets for a market: a market is rounds of runs, each built on
 * the last, so it has none (`run market` and `serve market` run its driver instead).
 */
export const marketPlanner: Planner = () => {
  throw new UserError(
    "a market is rounds of runs, not one run: it runs with bazaar run market",
    "an outside seller plays in it as --seller exec:<command> or module:<file>, or over MCP with bazaar serve market",
  );
};
