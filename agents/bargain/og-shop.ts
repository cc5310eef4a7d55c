/**
 * The OG-Narrator as a market buyer (specs/market.md Part 3): it searches like the careful shopper,
 * then its Offer Generator bids to the seller of each negotiable admissible listing at once, one
 * offer to each per message, and the Narrator words every offer; it books the cheapest admissible
 * listing it can — its cheapest deal, or a list price where no deal is lower.
 *
 * The generator is the bargaining one (`ogDecision`), unchanged, on each pair's bargaining view:
 * - its budget for a pair is the most worth paying that seller: the request's price cap, or the
 *   listing's list price where that is lower (it can be booked at list without bargaining; with the
 *   cap alone, half the cap is often past the list price already and the generator never bargains);
 * - its offer at step s is factor[s] × B to the cent, never above B (the paper's linear schedule:
 *   0.5 → 1.0 over its steps, or `--og-schedule`);
 * - the list price is an ask the seller stands by from the start (the listing can be booked at it),
 *   so the generator's own rule — accept the lowest ask once the next offer would pass it — stops
 *   its offers below the list price: an admissible listing's list price is within the cap, so every
 *   offer lies between half the budget and the list price, and never above the cap. When the
 *   lowest ask it would accept is the list price itself, it says nothing more to that seller (the
 *   listing stays bookable at that price);
 * - its steps: the paper's 6 where the step budget allows, else as many as the budget leaves each
 *   seller (a step is one offer, the last one the acceptance, and one step is left to book) — at
 *   least 2 (an offer, then the acceptance); with too many sellers for 2 steps each it bids to the
 *   cheapest by list price that fit (`ogShopPlan`).
 * Each offer carries its narration's note beside the call (`meta`, as the bargaining OG-Narrator's
 * action does), so a template fallback is kept on the offer's move and counted by the analysis.
 * Nothing is kept between messages: every pair's history is read off the view, so one instance
 * plays any number of episodes at once.
 */
import type { BargainMove, BargainView } from "../../environments/bargain/types.ts";
import { floorCents } from "../../environments/kernel/money.ts";
import {
  type Acted,
  type Agent,
  type AgentContext,
  type AgentEntry,
  addUsage,
  emptyUsage,
  type Observation,
  type Usage,
} from "../../environments/kernel/types.ts";
import { toolCalls } from "../../environments/shop/actions.ts";
import { type Card, SHOP_SHOPPER, type ShopView } from "../../environments/shop/types.ts";
import type { ModelEndpoint } from "../llm/preflight.ts";
import type { LlmContext } from "../registry.ts";
import {
  book,
  type Call,
  canBid,
  candidatesOf,
  carefulCalls,
  cheapest,
  firstOfferStep,
  giveUp,
  isCounter,
  lowestAsk,
  negotiableByPrice,
  offer,
  type Pair,
  pairsOf,
  stepsLeft,
} from "../sim/shop/haggler.ts";
import { CAREFUL_PARAMS } from "../sim/shop/presets.ts";
import { ShopShopper } from "../sim/shop/shopper.ts";
import type { Narration, Narrator } from "./narrator.ts";
import { type OfferSchedule, type OgDecision, ogDecision, scheduleFactors } from "./offer-generator.ts";
import { OgNarratorBuyer } from "./og-narrator.ts";
import { type BargainAgentOptions, resolveBargainPlayer } from "./registry.ts";

/** The paper's session length: the generator's steps when the step budget allows them. */
export const OG_SHOP_STEPS = 6;
/** The fewest steps a seller is given: one offer and the acceptance. */
export const OG_SHOP_MIN_STEPS = 2;
/** Steps held back from the careful searches: they page only while these remain for haggling. */
export const OG_SHOP_SEARCH_RESERVE = 10;
/** The offer tool's longest message. */
const MESSAGE_MAX = 600;

/**
 * The calls a seller may take over `steps` steps: one per step — the last step's offer at the full
 * budget is always past the list price, so it is the acceptance — and one more to accept after a
 * schedule that ends below the full budget.
 */
function callsPerSeller(schedule: OfferSchedule, steps: number): number {
  const factors = scheduleFactors(schedule, steps);
  return factors.length + ((factors.at(-1) ?? 0) < 1 ? 1 : 0);
}

/**
 * How many sellers the generator bids to and over how many steps, for a budget of `left` steps:
 * every negotiable seller if each can have at least 2 steps and one step is left to book (the
 * paper's 6 steps where they fit), else the cheapest that can. A custom list of factors keeps its
 * length; a budget too small for even one seller's whole schedule gives it to one seller anyway
 * (the budget rule then accepts early).
 */
export function ogShopPlan(
  schedule: OfferSchedule,
  negotiable: number,
  left: number,
): { sellers: number; steps: number } {
  for (let n = negotiable; n >= 1; n--) {
    if (schedule.kind === "custom") {
      const steps = schedule.factors.length;
      if (n * callsPerSeller(schedule, steps) + 1 <= left) return { sellers: n, steps };
      continue;
    }
    for (let steps = OG_SHOP_STEPS; steps >= OG_SHOP_MIN_STEPS; steps--)
      if (n * callsPerSeller(schedule, steps) + 1 <= left) return { sellers: n, steps };
  }
  if (schedule.kind === "custom" && negotiable > 0 && left >= 3)
    return { sellers: 1, steps: schedule.factors.length };
  return { sellers: 0, steps: 0 };
}

/**
 * The generator's budget for a pair: the most worth paying this seller — the request's cap, or the
 * list price where that is lower (the listing can be booked at its list price without a word, so a
 * schedule that rose past it would stop at its first step above it and never bargain). The schedule
 * then runs from half the list price up to it. The normalized profits still take B = the cap.
 */
export function ogShopBudget(view: ShopView, card: Card): number {
  const cap = view.request.constraints.maxPrice;
  return cap === null ? card.price : Math.min(cap, card.price);
}

/**
 * The bargaining buyer's view of one pair: the listing as its item (what its card shows), B as its
 * limit, this pair's moves as its history.
 */
export function pairView(view: ShopView, card: Card, pair: Pair | undefined, steps: number): BargainView {
  const history: BargainMove[] = [];
  for (const b of pair?.bids ?? []) {
    history.push({
      role: "buyer",
      type: b.answer === "deal" ? "deal" : "offer",
      price: b.price,
      talk: b.message,
    });
    if (b.answer === "counter") history.push({ role: "seller", type: "offer", price: b.reply, talk: b.said });
    else if (b.answer === "accept")
      history.push({ role: "seller", type: "deal", price: b.reply, talk: b.said });
    else if (b.answer === "reject" || b.answer === "quit")
      history.push({ role: "seller", type: b.answer, price: null, talk: b.said });
  }
  return {
    role: "buyer",
    codename: card.id,
    title: `${card.name}, ${card.neighborhood}, one night`,
    description: card.snippet,
    listedPrice: card.price,
    limit: floorCents(ogShopBudget(view, card)),
    maxTurns: steps,
    history,
  };
}

/**
 * The generator's move on one pair, or null when it has nothing to send: the list price stands as
 * the seller's first ask; a deal at a price the seller never countered (the list price) is no
 * call — the listing is booked at it, if it is the cheapest.
 */
export function ogShopMove(
  pv: BargainView,
  pair: Pair | undefined,
  schedule: OfferSchedule,
  bidAllowed: boolean,
): OgDecision | null {
  const listPrice = pv.listedPrice;
  let d: OgDecision;
  if (bidAllowed) {
    const standing: BargainMove = { role: "seller", type: "offer", price: listPrice, talk: "" };
    d = ogDecision({ ...pv, history: [standing, ...pv.history] }, schedule);
  } else {
    // Out of budget for another offer: the generator's rule after its last step.
    const ask = pair ? lowestAsk(pair) : null;
    d = ask !== null && ask <= pv.limit ? { type: "deal", price: ask } : { type: "quit", price: null };
  }
  if (d.type === "quit") return null;
  if (d.type === "deal") return pair && d.price < listPrice && isCounter(pair, d.price) ? d : null;
  return d.price < listPrice ? d : null;
}

export class OgShopBuyer implements Agent<ShopView, unknown> {
  private readonly careful: ShopShopper;

  constructor(
    readonly id: string,
    readonly schedule: OfferSchedule,
    readonly narrator: Narrator,
  ) {
    this.careful = new ShopShopper(id, CAREFUL_PARAMS);
  }

  /** The models its narrator calls (none for the template narrator), for the run's preflight. */
  modelEndpoints(): ModelEndpoint[] {
    const n = this.narrator as Partial<{ modelEndpoints(): ModelEndpoint[] }>;
    return n.modelEndpoints ? n.modelEndpoints() : [];
  }

  act(observation: Observation<ShopView>, ctx: AgentContext): Acted<unknown> | Promise<Acted<unknown>> {
    const view = observation.view;
    const planned = this.plan(view, ctx);
    if (!("offers" in planned)) return { action: toolCalls(planned.calls) };
    const narrations = planned.offers.map((o) =>
      this.narrator.narrate({ view: o.view, decision: o.decision }, ctx),
    );
    const done = (said: Narration[]): Acted<unknown> => {
      let usage: Usage = emptyUsage();
      const calls = planned.offers.map((o, i) => {
        const n = said[i]!;
        if (n.usage) usage = addUsage(usage, n.usage);
        const call = offer(o.id, o.decision.price!, n.talk.slice(0, MESSAGE_MAX));
        // Beside the call, not in its arguments: the offer tool's arguments are strict.
        return n.note ? { ...call, meta: { note: n.note } } : call;
      });
      return { action: toolCalls(calls), usage };
    };
    return narrations.some((n) => n instanceof Promise)
      ? Promise.all(narrations).then(done)
      : done(narrations as Narration[]);
  }

  /** The next message: calls as they are, or the generator's offers still to be worded. */
  plan(
    view: ShopView,
    ctx: Pick<AgentContext, "rng">,
  ): { calls: Call[] } | { offers: { id: string; view: BargainView; decision: OgDecision }[] } {
    const pairs = pairsOf(view);
    const first = firstOfferStep(pairs);
    if (first === null) {
      const planned = carefulCalls(
        (v, r) => this.careful.decide(v, r),
        view,
        ctx.rng.fork("careful"),
        OG_SHOP_SEARCH_RESERVE,
      );
      if (planned.every((c) => c.name === "search")) return { calls: planned };
    }
    const candidates = candidatesOf(view);
    const fallback = cheapest(candidates, pairs);
    if (!fallback) return { calls: [giveUp(view)] };
    // The sellers and steps were fixed at the first offer, by the budget left then.
    const left = first === null ? stepsLeft(view) : view.rules.maxSteps - (first - 1);
    const negotiable = negotiableByPrice(candidates);
    const plan = ogShopPlan(this.schedule, negotiable.length, left);
    const sellers = plan.sellers;
    // The run's offer rounds cap a pair's bids: its schedule then concedes over that many.
    const steps = Math.min(plan.steps, view.rules.offerRounds ?? plan.steps);
    const open = negotiable.slice(0, sellers).filter((s) => {
      const p = pairs.get(s.card.id);
      return !p || (p.deal === null && !p.closed);
    });
    const bidding = open.filter((s) => (pairs.get(s.card.id)?.bids.length ?? 0) < steps).length;
    const bidAllowed = canBid(view, bidding);
    const offers: { id: string; view: BargainView; decision: OgDecision }[] = [];
    for (const s of open) {
      const pair = pairs.get(s.card.id);
      const pv = pairView(view, s.card, pair, steps);
      const decision = ogShopMove(pv, pair, this.schedule, bidAllowed);
      if (decision) offers.push({ id: s.card.id, view: pv, decision });
    }
    const room = stepsLeft(view) - 1;
    if (offers.length === 0 || room <= 0) return { calls: [book(fallback.card.id)] };
    return { offers: offers.slice(0, room) };
  }
}

/**
 * `og-narrator` (the template narrator) or `og-narrator:openai:<model>` (the LLM narrator) as a shop
 * buyer: the bargaining registry builds its generator's schedule and its narrator, so both read
 * their options exactly as in `run bargain`.
 */
export function ogShopEntry(spec: string, llm: LlmContext, options: BargainAgentOptions = {}): AgentEntry {
  const player = resolveBargainPlayer(spec, "buyer", llm, options);
  if (!(player.agent instanceof OgNarratorBuyer)) throw new Error(`${spec} is not the OG-Narrator`);
  const og = player.agent;
  return {
    label: spec,
    identity: {
      ...(player.identity as Record<string, unknown>),
      market: "shop",
      steps: OG_SHOP_STEPS,
      minSteps: OG_SHOP_MIN_STEPS,
      searchReserve: OG_SHOP_SEARCH_RESERVE,
    },
    players: { [SHOP_SHOPPER]: new OgShopBuyer(spec, og.schedule, og.narrator) as Agent<unknown, unknown> },
  };
}
