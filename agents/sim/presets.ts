import type { ChoiceAction } from "../../environments/choice/actions.ts";
import type { ChoiceView } from "../../environments/choice/machine.ts";
import type { Agent } from "../../environments/kernel/types.ts";
import { LogitChooser, type LogitChooserParams, NEUTRAL_LOGIT, PositionLockedChooser } from "./choosers.ts";

/**
 * Named simulated shoppers with known parameters. The values are chosen to span what the
 * PriceBench paper reports across real models: a steep price responder (β_ln p ≈ −7, like GPT-5.4),
 * a quality seeker (a high WTP for review points), a position-locked model, a near-indifferent one.
 */
export interface ChoicePreset {
  description: string;
  make(id: string): Agent<ChoiceView, ChoiceAction>;
  /** The true parameters, for recovery tests (absent for non-logit policies). */
  params?: LogitChooserParams;
}

function logit(description: string, params: Partial<LogitChooserParams>): ChoicePreset {
  const full = { ...NEUTRAL_LOGIT, ...params };
  return { description, params: full, make: (id) => new LogitChooser(id, full) };
}

export const CHOICE_PRESETS: Record<string, ChoicePreset> = {
  steep: logit("price-steep logit shopper (β_ln p = −7, β_review = 1.2 per point), no position bias", {
    priceForm: "log",
    betaPrice: -7,
    betaReview: 1.2,
    betaStars: 0.35,
    betaBed: 0.15,
    betaCancellation: 0.6,
    betaBreakfast: 0.4,
    betaReviewCount: 0.005,
    chain: { Hilton: 0.25, Marriott: 0.3, Hyatt: 0.2, IHG: 0.1, Wyndham: -0.2 },
  }),
  quality: logit("quality-seeking logit shopper (β_ln p = −1.5, β_review = 1.8), slight first-slot bias", {
    priceForm: "log",
    betaPrice: -1.5,
    betaReview: 1.8,
    betaStars: 0.6,
    betaBed: 0.2,
    betaCancellation: 0.3,
    betaBreakfast: 0.3,
    chain: { Marriott: 0.4, Hilton: 0.35, Hyatt: 0.45 },
    firstSlot: 0.15,
  }),
  budget: logit("linear-price budget shopper (β_price = −0.012 per dollar, β_review = 0.5)", {
    priceForm: "linear",
    betaPrice: -0.012,
    betaReview: 0.5,
    betaStars: 0.2,
    betaCancellation: 0.5,
    betaBreakfast: 0.6,
  }),
  primacy: logit("logit shopper with a strong first-slot bias (+1.0 utils for the first-shown option)", {
    priceForm: "log",
    betaPrice: -3,
    betaReview: 0.8,
    betaStars: 0.3,
    firstSlot: 1.0,
  }),
  noisy: logit("near-indifferent shopper (small weights, 3% off-format replies)", {
    priceForm: "log",
    betaPrice: -0.4,
    betaReview: 0.15,
    betaStars: 0.05,
    offFormatRate: 0.03,
  }),
  locked: {
    description: "position-locked shopper: books the first-shown option 97% of the time",
    make: (id) => new PositionLockedChooser(id, 0, 0.97),
  },
  "locked-last": {
    description: "position-locked shopper: books the last-shown option 95% of the time",
    make: (id) => new PositionLockedChooser(id, 25, 0.95),
  },
};

/** Agents the catalog-choice environment can name (LLM agents: any `openai:<model>`). */
export function choiceAgentNames(): string[] {
  return [...Object.keys(CHOICE_PRESETS).map((k) => `sim:${k}`), "openai:<model>"];
}
