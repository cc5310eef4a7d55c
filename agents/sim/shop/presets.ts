/**
 * Named simulated shoppers with known parameters (`--agent sim:<name>` in shop runs, and
 * `sim-shop-<name>` behind serve-sim). Each is the careful shopper's utility with one behaviour
 * switched on, so every estimator of the shop analysis has a preset whose truth it can recover —
 * the description presets (`persuadable`, `injectable`, `credulous`) included: their parameters
 * below are the truth the description estimators' recovery tests check against (README: the
 * simulated shoppers).
 */
import type { ShopCovariate } from "../../../environments/shop/attributes.ts";
import type { ShopSim } from "./haggler.ts";
import type { SchedulePolicy } from "./haggler-schedule.ts";
import { SellerPlayingHaggler, type SellerPlayingParams } from "./haggler-sellers.ts";
import { type SingleHaggleParams, SingleListingHaggler } from "./haggler-single.ts";
import { ShopShopper, type ShopShopperParams } from "./shopper.ts";
import { type AskPolicy, TalkingShopper } from "./talker.ts";

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

export const CAREFUL_PARAMS: Readonly<ShopShopperParams> = {
  beta: CAREFUL_BETA,
  strategy: "careful",
  ignoreShare: 0,
  lapseRate: 0,
  inventRate: 0,
  parallel: true,
  follow: {},
  credulity: 0,
};

/**
 * The persuadable shopper's tastes: the careful shopper's, plus known pulls of the four persuasion
 * arms (utils against a neutral description, read off the text it opened). At β ln p = −2.5 their
 * price-equivalents are premiums of exp(β/2.5) − 1: social proof +22.1%, authority +17.4%, urgency
 * +12.7%, loss aversion +15.0%. Injections and false claims move it not at all.
 */
export const PERSUADABLE_BETA: Readonly<Record<ShopCovariate, number>> = {
  ...CAREFUL_BETA,
  socialProof: 0.5,
  authority: 0.4,
  urgency: 0.3,
  lossAversion: 0.35,
};

/**
 * The injectable shopper's chance to follow the first injecting listing it was shown (the record's
 * `shown` order), per arm — whatever that listing breaks; a later injecting listing is never
 * followed. Besides its careful searches it runs one unfiltered search (page 1, recommended order),
 * so it is shown listings that break constraints. On every other listing it is the careful shopper:
 * it books no bad listing that is not injecting.
 */
export const INJECTABLE_FOLLOW = { "injection-basic": 0.3, "injection-strong": 0.6 } as const;

/**
 * The credulous shopper's tastes: the careful shopper's, plus a false claim's pull on a listing it
 * books by its logit (a claimed amenity taken as present: 0.3 utils, about breakfast's β).
 */
export const CREDULOUS_BETA: Readonly<Record<ShopCovariate, number>> = { ...CAREFUL_BETA, falseClaim: 0.3 };

/**
 * The credulous shopper's chance to book a listing that falsely claims a required amenity, when it
 * was shown one (the first such in the record's `shown` order). Its searches — the careful ones,
 * and each again without the amenity filter — filter price, stars and area, so every listing it is
 * shown meets those: its false-claim uptake (the share of episodes shown such a listing that booked
 * one) is 0.6 exactly, and it never books a neutral listing lacking a required amenity.
 */
export const CREDULOUS_CREDULITY = 0.6;

/**
 * The anchoring haggler's policy: it opens at 70% of the list price, raises by 5% of the list price
 * a round up to its walk-away price of 85% (and bids that again while its budget lasts), and accepts
 * the seller's lowest counter once it is at or below 85% of the list price; else it books at the list
 * price. 5 steps held back from the careful shopper's budget for it.
 */
export const ANCHORING_HAGGLE: SingleHaggleParams = {
  policy: { kind: "anchoring", open: 0.7, raise: 0.05, walkAway: 0.85 },
  reserve: 5,
};

/**
 * The one-seller schedule: bids of 60%, 70%, 80% and 90% of T = min(list price, cap), each made only
 * when the seller's lowest counter is above it (else that counter is accepted); after the fourth bid
 * the lowest counter is accepted when it is below the list price, else the listing is booked at the
 * list price. 5 steps (four bids and an acceptance) held back from the careful shopper's budget.
 */
export const ONE_SELLER_SCHEDULE: SchedulePolicy = { kind: "schedule", fractions: [0.6, 0.7, 0.8, 0.9] };
export const ONE_SELLER_HAGGLE: SingleHaggleParams = { policy: ONE_SELLER_SCHEDULE, reserve: 5 };

/**
 * The seller-playing haggler: the one-seller schedule with each of the (at most 3) cheapest
 * negotiable admissible listings at once — as many as fit its budget after searching at 5 steps each
 * plus the booking; its searches page only while 10 steps remain for haggling.
 */
export const SELLER_PLAYING_HAGGLE: SellerPlayingParams = {
  policy: ONE_SELLER_SCHEDULE,
  maxSellers: 3,
  reserve: 10,
};

/** A preset's parameters: the careful shopper's, and a haggler's policy under `haggle`. */
export type ShopPresetParams = ShopShopperParams & {
  haggle?: SingleHaggleParams | SellerPlayingParams;
  /** A shopper that asks its client: its policy (talker.ts). */
  asks?: AskPolicy;
};

export interface ShopPreset {
  description: string;
  params: ShopPresetParams;
  make(id: string): ShopSim;
}

function preset(description: string, params: Partial<ShopShopperParams>): ShopPreset {
  const full = { ...CAREFUL_PARAMS, ...params };
  return { description, params: full, make: (id) => new ShopShopper(id, full) };
}

function haggler(
  description: string,
  haggle: SingleHaggleParams | SellerPlayingParams,
  make: (id: string) => ShopSim,
): ShopPreset {
  return { description, params: { ...CAREFUL_PARAMS, haggle }, make };
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
  persuadable: preset(
    "careful, but social proof, authority, urgency and loss-aversion descriptions pull it (β 0.5, 0.4, 0.3, 0.35)",
    { beta: PERSUADABLE_BETA },
  ),
  injectable: preset(
    "careful, but also browses unfiltered and books the first injecting listing it saw, whatever it breaks, with probability 0.3 (injection-basic) or 0.6 (injection-strong)",
    { follow: INJECTABLE_FOLLOW },
  ),
  credulous: preset(
    "careful, but also searches without the amenity filter and books the first listing that falsely claims a required amenity (and meets the other constraints) with probability 0.6; a false claim adds 0.3 utils",
    { beta: CREDULOUS_BETA, credulity: CREDULOUS_CREDULITY },
  ),
};

/**
 * Simulated market buyers that haggle (specs/market.md Part 3), with known policies: `--agent
 * sim:<name>` in a shop run with offers (`sim-shop-<name>` behind serve-sim). Kept apart from
 * SHOP_PRESETS, so that what the plain shop's tests iterate over stays the shoppers without offers.
 * Without negotiable listings each is the careful shopper with part of its step budget held back.
 */
export const HAGGLER_PRESETS: Readonly<Record<string, ShopPreset>> = {
  "anchoring-haggler": haggler(
    "careful, then haggles over the listing it would book: opens at 70% of the list price, raises 5 points a round to 85%, accepts a counter at or below 85%, else pays the list price",
    ANCHORING_HAGGLE,
    (id) => new SingleListingHaggler(id, CAREFUL_PARAMS, ANCHORING_HAGGLE),
  ),
  "one-seller-haggler": haggler(
    "careful, then haggles over the listing it would book: bids 60/70/80/90% of min(list, cap), accepts a lower counter, then the best counter below list; else pays the list price",
    ONE_SELLER_HAGGLE,
    (id) => new SingleListingHaggler(id, CAREFUL_PARAMS, ONE_SELLER_HAGGLE),
  ),
  "seller-playing-haggler": haggler(
    "searches carefully, haggles with up to 3 of the cheapest negotiable listings at once by the one-seller schedule, telling each the lowest counter another seller made, and books the cheapest deal or list price",
    SELLER_PLAYING_HAGGLE,
    (id) => new SellerPlayingHaggler(id, CAREFUL_PARAMS, SELLER_PLAYING_HAGGLE),
  ),
};

function talker(description: string, policy: AskPolicy): ShopPreset {
  return {
    description,
    params: { ...CAREFUL_PARAMS, asks: policy },
    make: (id) => new TalkingShopper(id, CAREFUL_PARAMS, policy),
  };
}

/**
 * Simulated shoppers that ask their client (specs/client.md), with exact policies: `--agent
 * sim:<name>` in a shop run with `--client` (`sim-shop-<name>` behind serve-sim). Kept apart from
 * SHOP_PRESETS like the hagglers; without a client each is the careful shopper.
 */
export const TALKER_PRESETS: Readonly<Record<string, ShopPreset>> = {
  "asks-first": talker(
    "asks one open question, then each requirement topic the client has not spoken to (one a message), then shops carefully on the answers",
    "first",
  ),
  "asks-price": talker("asks only the budget, then shops carefully on what the client said", "price"),
};

/** The default agents of `bazaar run shop`: one of each behaviour. */
export const DEFAULT_SHOP_AGENTS = ["careful", "first-result", "ignores-constraint", "invents-ids"].map(
  (n) => `sim:${n}`,
);
