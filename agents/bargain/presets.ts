import type { BargainView } from "../../environments/bargain/types.ts";
import type { Agent } from "../../environments/kernel/types.ts";
import { LlmLikeNegotiator, type LlmLikeParams } from "./llm-like.ts";
import { TimeDependentNegotiator, TitForTatNegotiator } from "./tactics.ts";

/** A named negotiator that plays either role. */
export interface NegotiatorPreset {
  description: string;
  make(id: string): Agent<BargainView, unknown>;
  /** Known parameters (by role for simulated LLM-like negotiators). */
  params: Record<string, unknown>;
}

function tactic(description: string, e: number): NegotiatorPreset {
  return {
    description,
    params: { e, k: 0, buyerOpen: 0.5 },
    make: (id) => new TimeDependentNegotiator(id, e),
  };
}

/** Rule negotiators: `rule:<name>` on the command line, `sim-bargain-<name>` on serve-sim. */
export const RULE_PRESETS: Record<string, NegotiatorPreset> = {
  boulware: tactic("time-dependent, concedes late (e = 0.2)", 0.2),
  linear: tactic("time-dependent, concedes linearly (e = 1)", 1),
  conceder: tactic("time-dependent, concedes early (e = 2)", 2),
  hardliner: tactic("never concedes (e = 0): the listed price, or half the budget", 0),
  "tit-for-tat": {
    description: "mirrors the other side's last concession",
    params: { buyerOpen: 0.5 },
    make: (id) => new TitForTatNegotiator(id),
  },
};

/** The plain LLM-like negotiator: a buyer that anchors on the list price and walks away early. */
export const PLAIN_LLM_BUYER: LlmLikeParams = {
  open: 0.6,
  anchoring: 0.5,
  discipline: 0.7,
  concession: 0.45,
  noise: 0.3,
  acceptWithin: 0.05,
  quitRate: 0.3,
  formatErrors: 0.01,
  fakeDeals: 0.04,
};
export const PLAIN_LLM_SELLER: LlmLikeParams = {
  open: 1,
  anchoring: 0.35,
  discipline: 0.97,
  concession: 0.3,
  noise: 0.2,
  acceptWithin: 0.02,
  quitRate: 0.02,
  formatErrors: 0.005,
  fakeDeals: 0.01,
};

/** Role-dependent parameters of one simulated negotiator. */
export interface RoleParams {
  buyer: LlmLikeParams;
  seller: LlmLikeParams;
}

/** Plays each role with that role's parameters. */
export class RoleSwitchingNegotiator implements Agent<BargainView, unknown> {
  /** A simulated policy: what it throws is bazaar's bug, never its answer. */
  readonly errorsAreBugs = true;
  private readonly buyer: LlmLikeNegotiator;
  private readonly seller: LlmLikeNegotiator;

  constructor(
    readonly id: string,
    readonly params: RoleParams,
  ) {
    this.buyer = new LlmLikeNegotiator(id, params.buyer);
    this.seller = new LlmLikeNegotiator(id, params.seller);
  }

  act(...args: Parameters<LlmLikeNegotiator["act"]>) {
    return (args[0].view.role === "buyer" ? this.buyer : this.seller).act(...args);
  }
}

function simulated(description: string, params: RoleParams): NegotiatorPreset {
  return {
    description,
    params: params as unknown as Record<string, unknown>,
    make: (id) => new RoleSwitchingNegotiator(id, params),
  };
}

/** Simulated LLM-like negotiators: `sim:<name>`, or `sim-bargain-<name>` on serve-sim. */
export const SIM_PRESETS: Record<string, NegotiatorPreset> = {
  llm: simulated(
    "plain LLM-like: anchors on the list price, noisy, walks away early, 1% unreadable replies",
    {
      buyer: PLAIN_LLM_BUYER,
      seller: PLAIN_LLM_SELLER,
    },
  ),
  anchored: simulated("strongly list-anchored and undisciplined: often pays past its budget", {
    buyer: { ...PLAIN_LLM_BUYER, open: 0.75, anchoring: 0.85, discipline: 0.3, quitRate: 0.1 },
    seller: { ...PLAIN_LLM_SELLER, anchoring: 0.6, discipline: 0.9 },
  }),
  savvy: simulated("disciplined and patient: anchors on its own limit, rarely walks away", {
    buyer: {
      ...PLAIN_LLM_BUYER,
      open: 0.45,
      anchoring: 0.05,
      discipline: 1,
      concession: 0.3,
      quitRate: 0.05,
      fakeDeals: 0,
    },
    seller: { ...PLAIN_LLM_SELLER, anchoring: 0.2, discipline: 1, fakeDeals: 0 },
  }),
  erratic: simulated("erratic: large concession noise, 8% unreadable replies, 10% fake deals", {
    buyer: { ...PLAIN_LLM_BUYER, noise: 0.8, formatErrors: 0.08, fakeDeals: 0.1 },
    seller: { ...PLAIN_LLM_SELLER, noise: 0.8, formatErrors: 0.08, fakeDeals: 0.1 },
  }),
};

export const LLM_LIKE_PARAM_NAMES = Object.keys(PLAIN_LLM_BUYER) as (keyof LlmLikeParams)[];
