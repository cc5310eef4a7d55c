import type { SimPlugin } from "../plugin.ts";
import { bargainSimPlugin } from "./bargain.ts";
import { choiceSimPlugin } from "./choice.ts";
import { clientSimPlugin } from "./client.ts";
import { cueSimPlugin } from "./cue.ts";
import { elicitSimPlugin } from "./elicit.ts";
import { marketSimPlugin } from "./market.ts";
import { shopSimPlugin } from "./shop.ts";

/**
 * Every environment's plugin, catalog choice first (its models lead `/v1/models`). An environment
 * adds its plugin here: one import, one entry.
 */
export const SIM_PLUGINS: readonly SimPlugin[] = [
  choiceSimPlugin,
  bargainSimPlugin,
  elicitSimPlugin,
  cueSimPlugin,
  shopSimPlugin,
  clientSimPlugin,
  marketSimPlugin,
];

export { BARGAIN_MODEL_PREFIX, bargainSimPlugin } from "./bargain.ts";
export { choiceSimPlugin, MODEL_PREFIX, NO_CARDS_REPLY } from "./choice.ts";
export { CLIENT_MODEL_PREFIX, clientSimPlugin, NO_CLIENT_REPLY } from "./client.ts";
export { CUE_MODEL_PREFIX, cueSimPlugin } from "./cue.ts";
export { ELICIT_MODEL_PREFIX, elicitSimPlugin } from "./elicit.ts";
export { MARKET_MODEL_PREFIX, marketSimPlugin, NO_MARKET_REPLY } from "./market.ts";
export { NO_SHOP_REPLY, SHOP_MODEL_PREFIX, shopSimPlugin } from "./shop.ts";
