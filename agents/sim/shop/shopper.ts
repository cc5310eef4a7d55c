/**
 * Simulated shop shoppers with known parameters (specs/shop.md, "Simulated shoppers"): sequential
 * search policies whose every choice is a known function of what they were shown, so each shop
 * estimator has a truth to recover.
 *
 * The careful shopper searches with a filter for every hard constraint (one search per acceptable
 * area, all in one message), reads further pages while its budget allows, opens every result that
 * meets the constraints its cards show, and books by a logit over what it opened: utility β·x on the
 * covariates of `environments/shop/attributes.ts` — log price, review score, stars, bed, amenities,
 * rank fixed effects (attention decaying by rank is a utility shift ln a_r), a later-page shift and
 * the four tags — plus Gumbel noise. Because it opens every admissible result it was shown, its
 * booking is exactly a conditional logit over the admissible listings shown, which is what the
 * analysis fits. Its stopping rule is on what it has seen, not on its noise: no admissible result
 * means it gives up.
 *
 * Variants: the first-result shopper searches without filters and books the first card that looks
 * acceptable (it cannot see amenities on a card); a careful shopper may ignore one of the request's
 * constraints in a set share of episodes, may hurry (book like the first-result shopper) in a set
 * share, and may name an id it was never shown in a set share of its messages.
 *
 * Descriptions: a shopper reads a listing's arm off its text with the description tagger
 * (`datasets/descriptions`), as a model would read it — the card's first sentence, or the whole
 * description once opened — so it plays the same behind serve-sim as in process. The arm enters the
 * logit through the arm covariates (β on social proof, authority, …). Two behaviours act before the
 * logit, when the shopper is about to book or give up: it *follows an injection* — books the first
 * listing it was shown whose card reads as an injection, with probability `follow[arm]`, whatever
 * that listing breaks — and it *believes a false claim* — books the first listing it was shown whose
 * card falsely claims an amenity the request requires and that meets the price, star and area
 * constraints, with probability `credulity`. To be shown such listings at all, a shopper that
 * follows injections adds one unfiltered search (page 1, recommended order) to its first message,
 * and a credulous one adds each of its searches without the amenity filter (page 1); listings seen
 * only there never enter its logit.
 */

import { tagArm, tagText } from "../../../datasets/descriptions/library.ts";
import type { Rng } from "../../../environments/kernel/rng.ts";
import type { Acted, Agent, AgentContext, Observation } from "../../../environments/kernel/types.ts";
import { toolCalls } from "../../../environments/shop/actions.ts";
import {
  ARM_COVARIATES,
  type CodedListing,
  SHOP_COVARIATES,
  type ShopCovariate,
  shopCovariates,
} from "../../../environments/shop/attributes.ts";
import { inPlace, searchQuery } from "../../../environments/shop/search.ts";
import {
  type Card,
  CONSTRAINT_TYPES,
  type ConstraintType,
  type ListingDetail,
  type ShopRequest,
  type ShopView,
} from "../../../environments/shop/types.ts";
import { memoryOf, queryKey, type SeenListing, type ShopperMemory } from "./memory.ts";

export interface ShopShopperParams {
  /** Utility weights on the shop covariates (a covariate left out weighs 0). */
  beta: Partial<Record<ShopCovariate, number>>;
  strategy: "careful" | "first-result";
  /** Share of episodes in which a careful shopper ignores one of the request's constraints. */
  ignoreShare: number;
  /** Share of episodes in which a careful shopper hurries and books like the first-result shopper. */
  lapseRate: number;
  /** Per message, the chance it views or books an id it invented instead of what it planned. */
  inventRate: number;
  /** Several tool calls in one message (its searches together, its views together). */
  parallel: boolean;
  /**
   * Per injection arm, the chance it books the first listing it was shown whose card reads as an
   * injection (of that arm), whatever the listing breaks. Only the first injecting listing counts.
   */
  follow: Partial<Record<InjectionArm, number>>;
  /**
   * The chance it books the first listing it was shown whose card falsely claims an amenity the
   * request requires and that meets the request's price, star and area constraints.
   */
  credulity: number;
}

export const INJECTION_ARMS = ["injection-basic", "injection-strong"] as const;
export type InjectionArm = (typeof INJECTION_ARMS)[number];

type Call = { name: string; args: Record<string, unknown> };

const ID_CHARS = "abcdefghijkmnpqrstuvwxyz23456789";

/** The utility of a listing shown at (rank, page) under β (its `arm`, when given, against neutral). */
export function shopUtility(
  beta: ShopShopperParams["beta"],
  l: CodedListing,
  rank: number,
  page: number,
): number {
  const x = shopCovariates(l, rank, page);
  let u = 0;
  SHOP_COVARIATES.forEach((name, i) => {
    u += (beta[name] ?? 0) * (x[i] as number);
  });
  return u;
}

/** Logit probabilities of utilities (max-shifted). */
export function logitProbabilities(utilities: readonly number[]): number[] {
  const max = Math.max(...utilities);
  const e = utilities.map((u) => Math.exp(u - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

/** The constraint types the request has, in CONSTRAINT_TYPES order. */
export function constraintsOf(r: ShopRequest): ConstraintType[] {
  const c = r.constraints;
  return CONSTRAINT_TYPES.filter((t) =>
    t === "price"
      ? c.maxPrice !== null
      : t === "stars"
        ? c.minStars !== null
        : t === "area"
          ? c.areas !== null
          : c.amenities.length > 0,
  );
}

/** A card that passes the constraints a card shows (price, stars, area), but the ignored one. */
export function looksAcceptable(card: Card, r: ShopRequest, ignored: ConstraintType | null): boolean {
  const c = r.constraints;
  if (ignored !== "price" && c.maxPrice !== null && card.price > c.maxPrice) return false;
  if (ignored !== "stars" && c.minStars !== null && card.stars < c.minStars) return false;
  if (ignored !== "area" && c.areas !== null && !c.areas.some((a) => inPlace(card, a))) return false;
  return true;
}

/** Whether β weighs any description arm (a shopper that does reads the arm of what it opened). */
export function readsArms(beta: ShopShopperParams["beta"]): boolean {
  return ARM_COVARIATES.some((a) => (beta[a] ?? 0) !== 0);
}

/** A listing's arm as a shopper reads it: off its whole description when opened, else off its card. */
export function armAsRead(detail: ListingDetail): CodedListing {
  const text = detail.description !== "" ? detail.description : detail.snippet;
  return { ...detail, arm: tagArm(text, detail.description !== "" ? detail : undefined) };
}

/**
 * The searches besides the careful ones that let a shopper meet what it is susceptible to: one
 * unfiltered search when it follows injections, each careful search without its amenity filter
 * when it believes false claims (and the request requires an amenity).
 */
export function browseSearches(
  r: ShopRequest,
  ignored: ConstraintType | null,
  p: Pick<ShopShopperParams, "follow" | "credulity">,
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (INJECTION_ARMS.some((a) => (p.follow[a] ?? 0) > 0)) out.push({ sort: "recommended" });
  if (p.credulity > 0 && r.constraints.amenities.length > 0) {
    for (const a of carefulSearches(r, ignored)) {
      const { amenities: _, ...rest } = a;
      out.push(rest);
    }
  }
  return out;
}

/** The careful shopper's first-page searches: every filter but the ignored one, one per area. */
export function carefulSearches(r: ShopRequest, ignored: ConstraintType | null): Record<string, unknown>[] {
  const c = r.constraints;
  const base: Record<string, unknown> = {};
  if (ignored !== "price" && c.maxPrice !== null) base.maxPrice = c.maxPrice;
  if (ignored !== "stars" && c.minStars !== null) base.minStars = c.minStars;
  if (ignored !== "amenities" && c.amenities.length > 0) base.amenities = [...c.amenities];
  // A careful search names its order; a hasty one does not (that is how a stateless shopper
  // recognizes, from its own earlier calls, which kind of episode it is in).
  base.sort = "recommended";
  const areas = ignored === "area" || c.areas === null ? [null] : c.areas;
  return areas.map((a) => (a === null ? { ...base } : { area: a, ...base }));
}

type Mode = { kind: "careful"; ignored: ConstraintType | null } | { kind: "hasty" };

/** Which kind of episode this is, from the shopper's own first search (null before it searched). */
function modeOf(view: ShopView): Mode | null {
  for (const turn of view.turns) {
    for (const { call } of turn.calls) {
      if (call.tool !== "search") continue;
      const a = (call.args ?? {}) as Record<string, unknown>;
      if (a.sort === undefined) return { kind: "hasty" };
      const c = view.request.constraints;
      const ignored =
        c.maxPrice !== null && a.maxPrice === undefined
          ? "price"
          : c.minStars !== null && a.minStars === undefined
            ? "stars"
            : c.amenities.length > 0 && a.amenities === undefined
              ? "amenities"
              : c.areas !== null && a.area === undefined
                ? "area"
                : null;
      return { kind: "careful", ignored };
    }
  }
  return null;
}

function inventedId(rng: Rng, memory: ShopperMemory): string {
  for (;;) {
    let id = ID_CHARS[rng.int(24)]!;
    for (let i = 0; i < 5; i++) id += ID_CHARS[rng.int(ID_CHARS.length)]!;
    if (!memory.seenById.has(id)) return id;
  }
}

export class ShopShopper implements Agent<ShopView, unknown> {
  /** A simulated policy: what it throws is bazaar's bug, never its answer. */
  readonly errorsAreBugs = true;
  constructor(
    readonly id: string,
    readonly params: ShopShopperParams,
  ) {}

  act(observation: Observation<ShopView>, ctx: AgentContext): Acted<unknown> {
    return { action: this.decide(observation.view, ctx.rng) };
  }

  /** The next message: one call, or several in one message when the shopper plays in parallel. */
  decide(view: ShopView, rng: Rng): unknown {
    const p = this.params;
    const memory = memoryOf(view);
    if (p.inventRate > 0 && rng.bernoulli(p.inventRate)) {
      return toolCalls([
        { name: rng.bernoulli(0.5) ? "view" : "book", args: { id: inventedId(rng, memory) } },
      ]);
    }
    let mode = modeOf(view);
    if (mode === null) {
      if (p.strategy === "first-result" || (p.lapseRate > 0 && rng.bernoulli(p.lapseRate)))
        mode = { kind: "hasty" };
      else {
        const present = constraintsOf(view.request);
        const ignore = p.ignoreShare > 0 && present.length > 0 && rng.bernoulli(p.ignoreShare);
        mode = { kind: "careful", ignored: ignore ? rng.pick(present) : null };
      }
    }
    const calls =
      mode.kind === "hasty" ? this.hasty(view, memory) : this.careful(view, memory, mode.ignored, rng);
    return toolCalls(p.parallel ? calls : calls.slice(0, 1));
  }

  private hasty(view: ShopView, memory: ShopperMemory): Call[] {
    if (memory.searches.length === 0) return [{ name: "search", args: {} }];
    for (const s of memory.seen) {
      if (looksAcceptable(s.card, view.request, null)) return [{ name: "book", args: { id: s.card.id } }];
    }
    const last = memory.searches.at(-1)!;
    const budget = view.rules.maxSteps - memory.steps;
    if (last.query.page < last.pages && budget >= 2)
      return [{ name: "search", args: { page: last.query.page + 1 } }];
    return [{ name: "give_up", args: { reason: giveUpReason(view.request) } }];
  }

  private careful(view: ShopView, memory: ShopperMemory, ignored: ConstraintType | null, rng: Rng): Call[] {
    const planned = carefulSearches(view.request, ignored);
    const browse = browseSearches(view.request, ignored, this.params);
    const done = new Map(memory.searches.map((s) => [queryKey(s.query), s]));
    const plannedKeys = new Set(planned.map((a) => queryKey(searchQuery(a))));
    const extra = browse.filter((a) => !plannedKeys.has(queryKey(searchQuery(a))));
    const missing = [...planned, ...extra].filter((a) => !done.has(queryKey(searchQuery(a))));
    if (missing.length > 0) return missing.map((args) => ({ name: "search", args }));
    const budget = view.rules.maxSteps - memory.steps;
    const pages: Call[] = [];
    for (const a of planned) {
      const first = done.get(queryKey(searchQuery(a)))!;
      for (let page = 2; page <= first.pages; page++) {
        const args = { ...a, page };
        if (!done.has(queryKey(searchQuery(args)))) pages.push({ name: "search", args });
      }
    }
    // Another page only while a view and a booking still fit after it.
    const affordable = pages.slice(0, Math.max(0, budget - 2));
    if (affordable.length > 0) return affordable;
    // What the careful searches showed: listings seen only by a browsing search stay out of the logit.
    const carefulIds =
      extra.length === 0
        ? null
        : new Set(memory.searches.filter((s) => plannedKeys.has(queryKey(s.query))).flatMap((s) => s.ids));
    const considered = memory.seen.filter(
      (s) =>
        (carefulIds === null || carefulIds.has(s.card.id)) && looksAcceptable(s.card, view.request, ignored),
    );
    const unopened = considered.filter((s) => !memory.details.has(s.card.id));
    const views = unopened.slice(0, Math.max(0, budget - 1));
    if (views.length > 0) return views.map((s) => ({ name: "view", args: { id: s.card.id } }));
    const lured = this.lured(view, memory, rng);
    if (lured !== null) return [{ name: "book", args: { id: lured } }];
    if (considered.length === 0) return [{ name: "give_up", args: { reason: giveUpReason(view.request) } }];
    return [{ name: "book", args: { id: this.choose(considered, memory, rng) } }];
  }

  /**
   * The listing it books instead of deciding by its logit: the first injecting listing it was shown,
   * followed with probability `follow[arm]`; else the first listing shown that falsely claims a
   * required amenity and meets the other constraints, believed with probability `credulity`.
   */
  private lured(view: ShopView, memory: ShopperMemory, rng: Rng): string | null {
    const p = this.params;
    if (INJECTION_ARMS.some((a) => (p.follow[a] ?? 0) > 0)) {
      const first = memory.seen.find((s) => {
        const arm = tagArm(s.card.snippet);
        return arm === "injection-basic" || arm === "injection-strong";
      });
      if (first) {
        const chance = p.follow[tagArm(first.card.snippet) as InjectionArm] ?? 0;
        if (chance > 0 && rng.bernoulli(chance)) return first.card.id;
      }
    }
    const required = view.request.constraints.amenities;
    if (p.credulity > 0 && required.length > 0) {
      const first = memory.seen.find((s) => {
        const tag = tagText(s.card.snippet);
        return (
          tag.arm === "false-claim" &&
          tag.claims !== null &&
          required.includes(tag.claims) &&
          looksAcceptable(s.card, view.request, null)
        );
      });
      if (first && rng.bernoulli(p.credulity)) return first.card.id;
    }
    return null;
  }

  /** Gumbel-max over the opened listings: a draw from the logit over them. */
  private choose(considered: readonly SeenListing[], memory: ShopperMemory, rng: Rng): string {
    const opened = considered.filter((s) => memory.details.has(s.card.id));
    const pool = opened.length > 0 ? opened : considered;
    const arms = readsArms(this.params.beta);
    let best = pool[0]!;
    let bestU = Number.NEGATIVE_INFINITY;
    for (const s of pool) {
      const detail = memory.details.get(s.card.id) ?? asDetail(s.card);
      const coded = arms ? armAsRead(detail) : detail;
      const u = shopUtility(this.params.beta, coded, s.rank, s.page) + rng.gumbel();
      if (u > bestU) {
        bestU = u;
        best = s;
      }
    }
    return best.card.id;
  }
}

/** A card standing in for a listing it could not open (no room type, no terms known). */
function asDetail(card: Card): ListingDetail {
  return {
    ...card,
    chain: "Independent",
    roomType: "",
    freeCancellation: false,
    breakfast: false,
    description: "",
  };
}

function giveUpReason(r: ShopRequest): string {
  return `No listing meets every requirement (${constraintsOf(r).join(", ") || "none"}).`;
}
