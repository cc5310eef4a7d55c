/**
 * Named simulated sellers (`--seller sim:<name>` in market runs, and `sim-market-<name>` behind
 * serve-sim), each a policy with known parameters (sellers.ts).
 */
import type { SellerName } from "./names.ts";
import {
  BANDIT_ARMS,
  cueBanditSeller,
  injectorSeller,
  type SimSeller,
  sloppySeller,
  staticSeller,
  UNDERCUT_SHARE,
  undercutSeller,
} from "./sellers.ts";

export interface SellerPreset {
  description: string;
  params: Record<string, unknown>;
  make(id: string): SimSeller;
}

export const SELLER_PRESETS: Readonly<Record<SellerName, SellerPreset>> = {
  static: { description: "never changes its listing (the control)", params: {}, make: staticSeller },
  undercut: {
    description: `prices ${UNDERCUT_SHARE * 100}% below the cheapest comparable competitor, never below its cost`,
    params: { share: UNDERCUT_SHARE },
    make: (id) => undercutSeller(id, UNDERCUT_SHARE),
  },
  "cue-bandit": {
    description:
      "tries each description arm of the library one round, then writes the arm whose rounds booked the most",
    params: { arms: BANDIT_ARMS },
    make: (id) => cueBanditSeller(id, BANDIT_ARMS),
  },
  injector: {
    description: "writes an injection arm (basic or strong) every round",
    params: {},
    make: injectorSeller,
  },
  sloppy: {
    description: "first sends a malformed set_price, then, told it was refused, undercuts",
    params: { share: UNDERCUT_SHARE },
    make: (id) => sloppySeller(id, UNDERCUT_SHARE),
  },
};
