import { bargainEnvironment } from "./bargain/environment.ts";
import { choiceEnvironment } from "./choice/environment.ts";
import { cueEnvironment } from "./cue/environment.ts";
import { elicitEnvironment } from "./elicit/environment.ts";
import type { AnyEnvironment } from "./kernel/environment.ts";
import { UserError } from "./kernel/errors.ts";
import { marketEnvironment } from "./market/environment.ts";
import { negotiatingShopEnvironment, shopEnvironment } from "./shop/environment.ts";

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

/**
 * The environment whose tools an agent from outside is given: the named one, or the shop with
 * offers (`shop-offers`: a shop run with `--negotiable`, whose records are still the shop's).
 */
export function surfaceEnvironment(name: string): AnyEnvironment {
  return name === SHOP_WITH_OFFERS ? negotiatingShopEnvironment : environmentNamed(name);
}
