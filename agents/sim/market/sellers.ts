/**
 * Simulated sellers with known policies (specs/market.md Part 2), acting on the seller's view:
 * - `static`: never changes its listing (the control);
 * - `undercut`: prices a set share below the cheapest comparable competitor, never below its cost
 *   (nor above its cap);
 * - `cue-bandit`: tries description arms from the library one round each, then writes the arm whose
 *   rounds booked the most on average (greedy over what it has seen, so it leaves an arm whose
 *   bookings fall); it reads the arm of each of its past descriptions with the tagger;
 * - `injector`: writes an injection arm (basic or strong) every round;
 * - `sloppy`: first sends a malformed call, then, told it was refused, undercuts (the LLM path's
 *   malformed-call check).
 * A description a simulated seller writes is a library wording filled from its listing, then its
 * starting (neutral) text, as the battery composes them: the hook first, so a result card shows it.
 */

import { wordingsFor } from "../../../datasets/descriptions/compose.ts";
import { defaultArmLibrary, tagArm } from "../../../datasets/descriptions/library.ts";
import type { LibraryArm } from "../../../datasets/descriptions/schema.ts";
import { joinWithin } from "../../../datasets/descriptions/templates.ts";
import { fillSlots } from "../../../datasets/descriptions/text.ts";
import { createRng, type Rng } from "../../../environments/kernel/rng.ts";
import type { Acted, Agent, AgentContext, Observation } from "../../../environments/kernel/types.ts";
import type { SellerView } from "../../../environments/market/types.ts";
import type { DescriptionArm } from "../../../environments/shop/types.ts";

type SellerAction = Record<string, unknown> & { type: string };

/** The arms a cue-bandit tries, neutral (its starting text) among them. */
export const BANDIT_ARMS: readonly DescriptionArm[] = [
  "neutral",
  "social-proof",
  "authority",
  "urgency",
  "loss-aversion",
  "injection-basic",
  "injection-strong",
];

/** The default share below the cheapest comparable competitor an undercutter prices at. */
export const UNDERCUT_SHARE = 0.05;

/** The seller's starting description: the oldest one its history shows (or today's in round 1). */
export function startingText(view: SellerView): string {
  return view.history[0]?.description ?? view.listing.description;
}

function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+/).filter((s) => s !== "");
}

/**
 * A description in `arm` for the seller's listing: a library wording of the arm (the `pick`-th that
 * fits) before its starting text; the starting text itself for neutral.
 */
export function armDescription(view: SellerView, arm: DescriptionArm, pick: number): string {
  const base = startingText(view);
  if (arm === "neutral") return base;
  const fits = wordingsFor(defaultArmLibrary(), arm as LibraryArm, view.listing);
  if (fits.length === 0) return base;
  const wording = fits[pick % fits.length]!;
  return joinWithin([fillSlots(wording.text, view.listing), ...sentences(base)], view.rules.maxChars);
}

/** The arm of a text on this seller's listing, as the tagger reads it against its terms. */
export function armOf(view: SellerView, text: string): DescriptionArm {
  return tagArm(text, view.listing);
}

/** Competitors like this seller: same area and within a star, else within a star, else all. */
export function comparable(view: SellerView): SellerView["competitors"] {
  const own = view.listing;
  const near = view.competitors.filter((c) => Math.abs(c.stars - own.stars) <= 1);
  const sameArea = near.filter((c) => c.area === own.area);
  return sameArea.length > 0 ? sameArea : near.length > 0 ? near : view.competitors;
}

/** The undercutter's price: `share` below the cheapest comparable competitor, within [cost, cap]. */
export function undercutPrice(view: SellerView, share: number): number {
  const rivals = comparable(view);
  if (rivals.length === 0) return view.listing.price;
  const cheapest = Math.min(...rivals.map((c) => c.price));
  return Math.min(view.cap, Math.max(view.cost, Math.floor(cheapest * (1 - share))));
}

function keep(): SellerAction {
  return { type: "keep" };
}

/** Per arm of the seller's rounds so far (its history and this round): rounds and mean bookings. */
export function armResults(view: SellerView): Map<DescriptionArm, { rounds: number; mean: number }> {
  const rounds = [
    ...view.history.map((h) => ({ text: h.description, bookings: h.bookings })),
    { text: view.listing.description, bookings: view.report.stats.bookings },
  ];
  const sums = new Map<DescriptionArm, { rounds: number; total: number }>();
  for (const r of rounds) {
    const arm = armOf(view, r.text);
    const s = sums.get(arm) ?? { rounds: 0, total: 0 };
    sums.set(arm, { rounds: s.rounds + 1, total: s.total + r.bookings });
  }
  return new Map([...sums].map(([arm, s]) => [arm, { rounds: s.rounds, mean: s.total / s.rounds }]));
}

export class SimSeller implements Agent<SellerView, SellerAction> {
  /** A simulated policy: what it throws is bazaar's bug, never its answer. */
  readonly errorsAreBugs = true;
  constructor(
    readonly id: string,
    private readonly decide: (view: SellerView, rng: Rng) => SellerAction | SellerAction[],
  ) {}

  act(observation: Observation<SellerView>, ctx: AgentContext): Acted<SellerAction> {
    const action = this.decide(observation.view, ctx.rng);
    if (!Array.isArray(action)) return { action };
    if (action.length === 1) return { action: action[0]! };
    return {
      action: {
        type: "several tool calls",
        calls: action.map(({ type, ...args }) => ({ name: type, args })),
      },
    };
  }
}

export function staticSeller(id: string): SimSeller {
  return new SimSeller(id, () => keep());
}

export function undercutSeller(id: string, share = UNDERCUT_SHARE): SimSeller {
  return new SimSeller(id, (view) => {
    const price = undercutPrice(view, share);
    return price === view.listing.price ? keep() : { type: "set_price", amount: price };
  });
}

/** The order a bandit tries arms in: neutral first (its start), the rest in an order seeded by its listing. */
export function banditOrder(view: SellerView, arms: readonly DescriptionArm[]): DescriptionArm[] {
  const rest = arms.filter((a) => a !== "neutral");
  const order = createRng(`cue-bandit/${view.listing.id}`).shuffle(rest);
  return arms.includes("neutral") ? ["neutral", ...order] : order;
}

export function cueBanditSeller(id: string, arms: readonly DescriptionArm[] = BANDIT_ARMS): SimSeller {
  return new SimSeller(id, (view) => {
    const results = armResults(view);
    const current = armOf(view, view.listing.description);
    const order = banditOrder(view, arms);
    const untried = order.find((a) => !results.has(a));
    let target: DescriptionArm;
    if (untried !== undefined) target = untried;
    else {
      // The best mean so far; the current arm wins ties (it needs no change), then the earlier tried.
      target = current;
      let best = results.get(current)?.mean ?? Number.NEGATIVE_INFINITY;
      for (const a of order) {
        const r = results.get(a);
        if (r && r.mean > best) {
          best = r.mean;
          target = a;
        }
      }
    }
    if (target === current) return keep();
    const text = armDescription(view, target, view.round);
    return text === view.listing.description ? keep() : { type: "set_description", text };
  });
}

export const INJECTION_ARMS = ["injection-basic", "injection-strong"] as const;

export function injectorSeller(id: string): SimSeller {
  return new SimSeller(id, (view, rng) => {
    const arm = rng.pick(INJECTION_ARMS);
    const text = armDescription(view, arm, rng.int(1000));
    return text === view.listing.description ? keep() : { type: "set_description", text };
  });
}

/** The malformed first call of `sloppy`: an amount that is not a number. */
export const SLOPPY_CALL: SellerAction = { type: "set_price", amount: "a bit less than the others" };

export function sloppySeller(id: string, share = UNDERCUT_SHARE): SimSeller {
  const undercut = undercutSeller(id, share);
  return new SimSeller(id, (view, rng) => {
    if (view.refused.length === 0) return SLOPPY_CALL;
    return undercut.act({ messages: [], view }, { rng, trialKey: "", replicate: 0 }).action;
  });
}
