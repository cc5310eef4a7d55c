import { bargainEnvironment } from "./bargain/environment.ts";
import { choiceEnvironment } from "./choice/environment.ts";
import { cueEnvironment } from "./cue/environment.ts";
import { elicitEnvironment } from "./elicit/environment.ts";
import type { AnyEnvironment } from "./kernel/environment.ts";
import { UserError } from "./kernel/errors.ts";
import { marketEnvironment } from "./market/environment.ts";
import { negotiatingShopEnvironment, shopEnvironment, shopEnvironmentWith } from "./shop/environment.ts";

/** Every episode kind bazaar hosts, by the name runs and the CLI use. */
export const ENVIRONMENTS: Readonly<Record<string, AnyEnvironment>> = {
  choice: choiceEnvironment,
  elicit: elicitEnvironment,
  bargain: bargainEnvironment,
  cue: cueEnvironment,
  shop: shopEnvironment,
  market: marketEnvironment,
};

export function environmentNamed(name: string): AnyEnvironment {
  const env = ENVIRONMENTS[name];
  if (!env) {
    throw new UserError(
      `unknown environment "${name}"`,
      `valid environments: ${Object.keys(ENVIRONMENTS).join(", ")}`,
    );
  }
  return env;
}

/** The tool surface of a shop whose listings take offers (the `offer` tool among its tools). */
export const SHOP_WITH_OFFERS = "shop-offers";
/** The tool surface of a shop with a client (`message_client` among its tools), and with offers too. */
export const SHOP_WITH_CLIENT = "shop-client";
export const SHOP_WITH_OFFERS_AND_CLIENT = "shop-offers-client";

/** The surface name of a shop with these tools. */
export function shopSurfaceName(set: { offers: boolean; client: boolean }): string {
  if (set.client) return set.offers ? SHOP_WITH_OFFERS_AND_CLIENT : SHOP_WITH_CLIENT;
  return set.offers ? SHOP_WITH_OFFERS : "shop";
}

/**
 * The environment whose tools an agent from outside is given: the named one, or a shop variant
 * (`shop-offers`, `shop-client`, `shop-offers-client`: a shop run with `--negotiable` and/or
 * `--client`, whose records are still the shop's).
 */
export function surfaceEnvironment(name: string): AnyEnvironment {
  if (name === SHOP_WITH_OFFERS) return negotiatingShopEnvironment;
  if (name === SHOP_WITH_CLIENT) return shopEnvironmentWith({ offers: false, client: true });
  if (name === SHOP_WITH_OFFERS_AND_CLIENT) return shopEnvironmentWith({ offers: true, client: true });
  return environmentNamed(name);
}
