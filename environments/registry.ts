import { BargainActionSchema } from "./bargain/actions.ts";
import { bargainEnvironment } from "./bargain/environment.ts";
import type { BargainView } from "./bargain/types.ts";
import { choiceEnvironment } from "./choice/environment.ts";
import { cueEnvironment } from "./cue/environment.ts";
import { elicitEnvironment } from "./elicit/environment.ts";
import type { AnyEnvironment } from "./kernel/environment.ts";
import { UserError } from "./kernel/errors.ts";
import type { SurfaceSource } from "./kernel/surface.ts";
import { marketEnvironment } from "./market/environment.ts";
import { negotiatingShopEnvironment, shopEnvironment, shopEnvironmentWith } from "./shop/environment.ts";
import type { ShopOutcome } from "./shop/types.ts";

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
 * The tool surface of a shop's seller negotiator: a bargaining seller's tools, and one conversation
 * per listing's negotiation (each a bargaining session of its own: environments/shop/negotiation.ts),
 * so an agent that sells in `bazaar run bargain` answers shop offers unchanged.
 */
export const SHOP_SELLER = "shop-seller";

/** How a shop seller's negotiation ended, from the shop episode's outcome: that pair's alone. */
export function shopNegotiationText(outcome: ShopOutcome, view?: BargainView): string {
  const id = view?.codename;
  const n = outcome.negotiations?.find((x) => x.id === id);
  const deal =
    n?.deal != null ? `a deal at ${n.deal} US dollars` : n?.closed ? "no deal, you quit" : "no deal";
  const booked =
    outcome.bookedId === null
      ? "the shopper booked nothing"
      : outcome.bookedId === id
        ? `the shopper booked your listing${outcome.paid != null ? ` at ${outcome.paid} US dollars` : ""}`
        : "the shopper booked another listing";
  // One line that opens as every negotiation's last result does (serve-sim's sims read it so).
  return `The negotiation is over: ${deal}; ${booked}.`;
}

const shopSellerSource: SurfaceSource = {
  name: "bargain",
  actionSchema: BargainActionSchema,
  surface: {
    outcomeText: (o: ShopOutcome, _role: string, view?: BargainView) => shopNegotiationText(o, view),
  },
};

/**
 * What gives an agent from outside its tools: the named environment, a shop variant (`shop-offers`,
 * `shop-client`, `shop-offers-client`: a shop run with `--negotiable` and/or `--client`, whose
 * records are still the shop's), or a shop's seller negotiators (`shop-seller`).
 */
export function surfaceEnvironment(name: string): SurfaceSource {
  if (name === SHOP_SELLER) return shopSellerSource;
  if (name === SHOP_WITH_OFFERS) return negotiatingShopEnvironment;
  if (name === SHOP_WITH_CLIENT) return shopEnvironmentWith({ offers: false, client: true });
  if (name === SHOP_WITH_OFFERS_AND_CLIENT) return shopEnvironmentWith({ offers: true, client: true });
  return environmentNamed(name);
}
