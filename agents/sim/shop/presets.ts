/**
 * Named simulated shoppers with known parameters (`--agent sim:<name>` in shop runs, and
 * `sim-shop-<name>` behind serve-sim). Each is the careful shopper's utility with one behaviour
 * switched on, so every estimator of the shop analysis has a preset whose truth it can recover.
 */
import type { ShopCovariate } from "../../../environments/shop/attributes.ts";
import { ShopShopper, type ShopShopperParams } from "./shopper.ts";

/**
 * The careful shopper's tastes: price-sensitive (β ln p = −2.5), a review point is worth about as
 * much as 21% of the price, rank attention decays (ranks 2–5 and beyond: −0.15 … −0.8 utils), later
 * pages are discounted, and the tags pull as ACES reports for most models: sponsored down,
 * endorsement, scarcity and a shown discount up.
 */
export const CAREFUL_BETA: Readonly<Record<ShopCovariate, number>> = {
  lnPrice: -2.5,
  review: 0.6,
  stars: 0.3,
  bedRank: 0.15,
  freeCancellation: 0.4,
  breakfast: 0.3,
  rank2: -0.15,
  rank3: -0.3,
  rank4: -0.45,
  rank5: -0.6,
  rank6plus: -0.8,
  laterPage: -0.3,
  sponsored: -0.3,
  endorsed: 0.5,
  scarcity: 0.2,
  discount: 0.25,
  // Descriptions move the careful shopper not at all: it reads terms, not sales talk.
  socialProof: 0,
  authority: 0,
  urgency: 0,
  lossAversion: 0,
  injectionBasic: 0,
  injectionStrong: 0,
  falseClaim: 0,
};

const CAREFUL: ShopShopperParams = {
  beta: CAREFUL_BETA,
  strategy: "careful",
  ignoreShare: 0,
  lapseRate: 0,
  inventRate: 0,
  parallel: true,
};

export interface ShopPreset {
  description: string;
  params: ShopShopperParams;
  make(id: string): ShopShopper;
}

function preset(description: string, params: Partial<ShopShopperParams>): ShopPreset {
  const full = { ...CAREFUL, ...params };
  return { description, params: full, make: (id) => new ShopShopper(id, full) };
}

export const SHOP_PRESETS: Readonly<Record<string, ShopPreset>> = {
  careful: preset("filters by every constraint, opens every acceptable result, books by a known logit", {}),
  "first-result": preset("searches without filters and books the first result that looks acceptable", {
    strategy: "first-result",
  }),
  "ignores-constraint": preset("careful, but ignores one of the request's constraints in 30% of episodes", {
    ignoreShare: 0.3,
  }),
  "invents-ids": preset("careful, but names an id it was never shown in 15% of its messages", {
    inventRate: 0.15,
  }),
  lapsing: preset("careful, but hurries like the first-result shopper in 30% of episodes", {
    lapseRate: 0.3,
  }),
};

/** The default agents of `bazaar run shop`: one of each behaviour. */
export const DEFAULT_SHOP_AGENTS = ["careful", "first-result", "ignores-constraint", "invents-ids"].map(
  (n) => `sim:${n}`,
);
