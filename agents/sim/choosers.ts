import type { Chain } from "../../datasets/hotels/schema.ts";
import type { ChoiceAction } from "../../environments/choice/actions.ts";
import { bedRank } from "../../environments/choice/attributes.ts";
import type { ChoiceView } from "../../environments/choice/machine.ts";
import type { ChoiceOption } from "../../environments/choice/types.ts";
import type { Acted, Agent, AgentContext, Observation } from "../../environments/kernel/types.ts";

/**
 * A random-utility (logit) shopper with known parameters: U_j = x_j·β + slot_j + ε_j, ε Gumbel,
 * choose the largest. The estimators of the choice-analysis audit must recover these β.
 */
export interface LogitChooserParams {
  /** `log`: the price term is β_price · ln(price); `linear`: β_price · price in dollars. */
  priceForm: "linear" | "log";
  betaPrice: number;
  /** Per review-score point (0–10 scale). */
  betaReview: number;
  betaStars: number;
  betaBed: number;
  betaCancellation: number;
  betaBreakfast: number;
  /** Per 100 reviews. */
  betaReviewCount: number;
  /** Brand premiums in utils relative to independent hotels. */
  chain: Partial<Record<Chain, number>>;
  /** Extra utility of the first-shown option: a primacy (first-slot) bias. */
  firstSlot: number;
  /** Probability of an off-format reply (a non-response the environment must catch). */
  offFormatRate: number;
}

export const NEUTRAL_LOGIT: LogitChooserParams = {
  priceForm: "log",
  betaPrice: 0,
  betaReview: 0,
  betaStars: 0,
  betaBed: 0,
  betaCancellation: 0,
  betaBreakfast: 0,
  betaReviewCount: 0,
  chain: {},
  firstSlot: 0,
  offFormatRate: 0,
};

/** Replies that a sloppy model gives instead of a letter; each must be judged a non-response. */
const OFF_FORMAT_REPLIES = [
  "Both options look reasonable; it depends on your priorities.",
  "I would need more information about your travel plans to decide.",
  "Based on the information provided, either hotel could work.",
];

export function optionUtility(o: ChoiceOption, p: LogitChooserParams): number {
  const price = p.priceForm === "log" ? Math.log(o.price) : o.price;
  return (
    p.betaPrice * price +
    p.betaReview * o.reviewScore +
    p.betaStars * o.stars +
    p.betaBed * bedRank(o.roomType) +
    p.betaCancellation * (o.freeCancellation ? 1 : 0) +
    p.betaBreakfast * (o.breakfast ? 1 : 0) +
    (p.betaReviewCount * o.reviewCount) / 100 +
    (p.chain[o.chain] ?? 0)
  );
}

/** Choice probabilities per display slot under the chooser's true parameters. */
export function logitChoiceProbabilities(options: readonly ChoiceOption[], p: LogitChooserParams): number[] {
  const u = options.map((o, slot) => optionUtility(o, p) + (slot === 0 ? p.firstSlot : 0));
  const max = Math.max(...u);
  const e = u.map((x) => Math.exp(x - max));
  const total = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / total);
}

function letterReply(view: ChoiceView, slot: number): Acted<ChoiceAction> {
  return { action: { type: "reply", text: view.letters[slot]! } };
}

export class LogitChooser implements Agent<ChoiceView, ChoiceAction> {
  /** A simulated policy: what it throws is bazaar's bug, never its answer. */
  readonly errorsAreBugs = true;
  constructor(
    readonly id: string,
    readonly params: LogitChooserParams,
  ) {}

  act({ view }: Observation<ChoiceView>, { rng }: AgentContext): Acted<ChoiceAction> {
    if (this.params.offFormatRate > 0 && rng.bernoulli(this.params.offFormatRate)) {
      return { action: { type: "reply", text: rng.pick(OFF_FORMAT_REPLIES) } };
    }
    let best = 0;
    let bestU = Number.NEGATIVE_INFINITY;
    view.options.forEach((o, slot) => {
      const u = optionUtility(o, this.params) + (slot === 0 ? this.params.firstSlot : 0) + rng.gumbel();
      if (u > bestU) {
        bestU = u;
        best = slot;
      }
    });
    return letterReply(view, best);
  }
}

/**
 * A position-locked shopper: books the option in `slot` with probability `lockRate`, otherwise a
 * uniformly random option — what the paper calls a position-locked model.
 */
export class PositionLockedChooser implements Agent<ChoiceView, ChoiceAction> {
  /** A simulated policy: what it throws is bazaar's bug, never its answer. */
  readonly errorsAreBugs = true;
  constructor(
    readonly id: string,
    readonly slot: number,
    readonly lockRate: number,
  ) {}

  act({ view }: Observation<ChoiceView>, { rng }: AgentContext): Acted<ChoiceAction> {
    const slot = Math.min(this.slot, view.options.length - 1);
    return letterReply(view, rng.bernoulli(this.lockRate) ? slot : rng.int(view.options.length));
  }
}
