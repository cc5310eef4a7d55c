/**
 * The simulated sellers' names and the market's default agents, apart from the policies: the
 * options of `bazaar run market` name them without loading any agent.
 */
export const SELLER_NAMES = ["static", "undercut", "cue-bandit", "injector", "sloppy"] as const;
export type SellerName = (typeof SELLER_NAMES)[number];

/** The seller every non-adopter plays. */
export const STATIC_SELLER = "sim:static";
/** The defaults of `bazaar run market`. */
export const DEFAULT_MARKET_SELLER = "sim:cue-bandit";
export const DEFAULT_MARKET_BUYER = "sim:persuadable";
