import type { BargainAction } from "../../environments/bargain/actions.ts";
import type { BargainView } from "../../environments/bargain/types.ts";
import { ceilCents, floorCents, formatUsd } from "../../environments/kernel/money.ts";
import type { Rng } from "../../environments/kernel/rng.ts";
import type { Acted, Agent, AgentContext, Observation } from "../../environments/kernel/types.ts";
import { talkLine, talkLineCount } from "./talk.ts";
import { type Reading, read } from "./view.ts";

/**
 * A simulated "LLM-like" negotiator for either role, with known, tunable habits, so that offline
 * runs show the failure modes the paper reports for LLM buyers: anchoring on the listed price
 * instead of the own limit, noisy concessions, walking away early, paying past the budget, and now
 * and then an unreadable reply or a DEAL at a price the other side never offered.
 */
export interface LlmLikeParams {
  /** First offer as a fraction of the listed price (a buyer's bid, a seller's ask). */
  open: number;
  /**
   * How far the walk-away price is pulled from the own limit toward the listed price: 0 walks away
   * at the limit itself, 1 at the listed price (a buyer then pays up to list; a seller holds out for it).
   */
  anchoring: number;
  /** Probability, at each move, of respecting the own limit (a buyer's budget, a seller's cost). */
  discipline: number;
  /** Share of the gap to the other side's last offer given up per move. */
  concession: number;
  /** Standard deviation of the multiplicative noise on each concession. */
  noise: number;
  /** Accept an offer within this fraction of the own next offer. */
  acceptWithin: number;
  /** Probability per move of walking away while the other side's offer is beyond the walk-away price. */
  quitRate: number;
  /** Probability per move of a reply that cannot be parsed (an action error). */
  formatErrors: number;
  /** Probability, when accepting, of a DEAL at its own last price instead of the other side's (a fake deal). */
  fakeDeals: number;
}

/** Replies a sloppy model gives instead of a well-formed action; each is an action error. */
const UNREADABLE: readonly ((p: string, code: string) => string)[] = [
  (p) => `Thought: I should make a fair offer.\nTalk: Would ${p} work for you?`,
  (p, code) => `Talk: Let me propose something.\nAction: [OFFER] ${p} (1x ${code})`,
  (p) => `Talk: I think we are close.\nAction: I'd go with around ${p}.`,
];

export class LlmLikeNegotiator implements Agent<BargainView, BargainAction> {
  /** A simulated policy: what it throws is bazaar's bug, never its answer. */
  readonly errorsAreBugs = true;
  constructor(
    readonly id: string,
    readonly params: LlmLikeParams,
  ) {}

  /** The price beyond which this move walks away (a buyer's highest, a seller's lowest). */
  walkAway(view: BargainView, rng: Rng): number {
    const p = this.params;
    const anchored = view.limit + p.anchoring * (view.listedPrice - view.limit);
    const disciplined = rng.bernoulli(p.discipline);
    if (view.role === "buyer")
      return disciplined ? Math.min(anchored, view.limit) : anchored * rng.uniform(1, 1.15);
    return disciplined ? Math.max(anchored, view.limit) : anchored * rng.uniform(0.85, 1);
  }

  /** An offer or deal at `price` rounded to whole cents in the side's favour, with a line to say. */
  private say(
    view: BargainView,
    r: Reading,
    type: "offer" | "deal",
    price: number,
    rng: Rng,
  ): Acted<BargainAction> {
    const rounded = view.role === "seller" ? ceilCents(price) : floorCents(price);
    const pick = rng.int(talkLineCount(view.role, type));
    return { action: { type, price: rounded, talk: talkLine(view.role, type, rounded, pick, r.step === 0) } };
  }

  act({ view }: Observation<BargainView>, { rng }: AgentContext): Acted<BargainAction> {
    const p = this.params;
    const r: Reading = read(view);
    const seller = view.role === "seller";
    const w = this.walkAway(view, rng);
    const opening = p.open * view.listedPrice;
    const prev = r.ownOffers.at(-1) ?? (seller ? Math.max(w, opening) : Math.min(w, opening));
    if (rng.bernoulli(p.formatErrors)) {
      const text = rng.pick(UNREADABLE)(formatUsd(prev), view.codename);
      return { action: { type: "reply", text } };
    }
    const x = r.lastCounter;
    if (x === null) return this.say(view, r, "offer", prev, rng);

    let next = prev;
    if (r.ownOffers.length > 0) {
      const step = p.concession * Math.max(0, 1 + p.noise * rng.normal()) * (x - prev);
      // Concessions go one way, and never past the walk-away price.
      next = seller ? Math.max(w, Math.min(prev, prev + step)) : Math.min(w, Math.max(prev, prev + step));
    }
    if (seller ? next < x : next > x) next = x;
    const acceptable = seller ? x >= w : x <= w;
    const close = seller ? x >= next * (1 - p.acceptWithin) : x <= next * (1 + p.acceptWithin);
    if (acceptable && (close || r.lastStep)) {
      if (rng.bernoulli(p.fakeDeals) && prev !== x) return this.say(view, r, "deal", prev, rng);
      return {
        action: {
          type: "deal",
          price: x,
          talk: talkLine(view.role, "deal", x, rng.int(talkLineCount(view.role, "deal"))),
        },
      };
    }
    if (!acceptable && (rng.bernoulli(p.quitRate) || (r.lastStep && rng.bernoulli(0.5)))) {
      return {
        action: {
          type: "quit",
          talk: talkLine(view.role, "quit", null, rng.int(talkLineCount(view.role, "quit"))),
        },
      };
    }
    return this.say(view, r, "offer", next, rng);
  }
}
