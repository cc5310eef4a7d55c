/**
 * A cue-susceptible simulated shopper whose price-equivalents are known. On each ask it scores the
 * two cards it is shown as
 *
 *   index(card) = Σ pull of the library sentences in its description − s · (price / lower price − 1)
 *                 + b for the first-shown card,
 *
 * where each sentence's pull is drawn from N(mean, sd²) per trial, and chooses the first card with
 * probability σ(index₁ − index₂). Because the noise is symmetric, the counterbalanced curve
 * S(g) = ½[P(cued | shown first) + P(cued | shown second)] crosses ½ exactly where
 * Σ mean(cued) − Σ mean(other) = s·g: the true price-equivalent is pull / sensitivity, whatever the
 * first-slot bias b and the sds. The sd of a sentence shapes its curve (and its equal-price rate)
 * without moving its crossing: a large sd makes a cue "narrow and deep" (a flat curve), a small one
 * "broad and shallow". `lockRate` adds a position-locked share of answers (always the first card);
 * `offFormatRate` a share of replies that name no option (non-responses the parser must catch).
 */

import { normalUpperTail } from "../../analysis/stats/index.ts";
import type { CueCondition } from "../../datasets/products/schema.ts";
import { cueTextFor, renderSentence } from "../../datasets/products/text.ts";
import type { CueAction } from "../../environments/cue/actions.ts";
import type { CueView } from "../../environments/cue/machine.ts";
import type { CueCard } from "../../environments/cue/types.ts";
import type { Acted, Agent, AgentContext, Observation } from "../../environments/kernel/types.ts";

/** A sentence's pull on the index, in utils: drawn from N(mean, sd²) on every ask. */
export interface SentencePull {
  mean: number;
  sd: number;
}

export interface CueShopperParams {
  /** s: utils lost per unit of relative premium (a 10% dearer card loses 0.1·s). 0 = price-blind. */
  priceSensitivity: number;
  /** b: utils added to the first-shown card. */
  firstSlot: number;
  /**
   * Pull per library sentence, keyed by the entry name for its `cue` text and `<name>.other` for
   * its `other` text. A text that several entries share counts under the first entry that has it
   * (the length control's cue is the strong social-proof sentence, so it pulls as that one does).
   */
  pulls: Readonly<Record<string, SentencePull>>;
  /** Share of answers that take the first card whatever it shows (a position-locked model). */
  lockRate: number;
  /** Share of replies that name no option. */
  offFormatRate: number;
}

/** Replies that name no option; each must be judged a non-response (and re-asked). */
export const CUE_OFF_FORMAT_REPLIES = [
  "Both options look the same to me, so either would do.",
  "I would need to know more about how you plan to use it before deciding.",
  "They seem identical apart from the wording of the descriptions.",
];

function logistic(x: number): number {
  const e = Math.exp(-Math.abs(x));
  return x >= 0 ? 1 / (1 + e) : e / (1 + e);
}

function simpson(f: (x: number) => number, lo: number, hi: number, steps: number): number {
  const h = (hi - lo) / steps;
  let sum = f(lo) + f(hi);
  for (let i = 1; i < steps; i++) sum += (i % 2 === 1 ? 4 : 2) * f(lo + i * h);
  return (sum * h) / 3;
}

/**
 * E[σ(μ + sd·Z)] for a standard normal Z. Integrated over whichever variable is smoother: over Z
 * when sd ≤ 1, otherwise over a logistic L, since E[σ(μ + sd·Z)] = P(L ≤ μ + sd·Z) = E[Φ((μ − L)/sd)].
 */
export function expectedLogistic(mu: number, sd: number): number {
  if (sd === 0) return logistic(mu);
  if (sd <= 1) {
    const phi = (z: number) => Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
    return simpson((z) => logistic(mu + sd * z) * phi(z), -8.5, 8.5, 850);
  }
  const density = (l: number) => logistic(l) * logistic(-l);
  return simpson((l) => normalUpperTail((l - mu) / sd) * density(l), -36, 36, 1800);
}

interface KnownSentence {
  template: string;
  key: string;
}

/**
 * Which library sentences a description holds: each category's texts (with the card's numbers
 * filled in), matched as whole sentences appended after the neutral description.
 */
export class SentenceMatcher {
  private readonly byCategory = new Map<string, KnownSentence[]>();
  /** Descriptions recur across thousands of trials: remember what each one holds (bounded). */
  private readonly seen = new Map<string, string[]>();

  constructor(private readonly library: readonly CueCondition[]) {}

  private sentencesFor(category: string): KnownSentence[] {
    let known = this.byCategory.get(category);
    if (known) return known;
    known = [];
    const seen = new Set<string>();
    for (const c of this.library) {
      for (const [text, key] of [
        [c.cue, c.name],
        [c.other, `${c.name}.other`],
      ] as const) {
        const template = text === null ? null : cueTextFor(text, category);
        if (template === null || seen.has(template)) continue;
        seen.add(template);
        known.push({ template, key });
      }
    }
    this.byCategory.set(category, known);
    return known;
  }

  /** Keys of the library sentences appended to this card's description. */
  keysIn(card: CueCard, category: string): string[] {
    const memo = `${category}\u0000${card.rating}\u0000${card.ratingCount}\u0000${card.description}`;
    const known = this.seen.get(memo);
    if (known) return known;
    const keys = this.match(card, category);
    if (this.seen.size >= 50_000) this.seen.clear();
    this.seen.set(memo, keys);
    return keys;
  }

  private match(card: CueCard, category: string): string[] {
    const keys: string[] = [];
    const d = card.description;
    for (const s of this.sentencesFor(category)) {
      const text = renderSentence(s.template, card);
      const at = d.indexOf(" " + text);
      if (at < 0) continue;
      const end = at + 1 + text.length;
      if (end === d.length || d[end] === " ") keys.push(s.key);
    }
    return keys;
  }
}

/** The mean and variance of a card's total pull. */
function cardPull(keys: readonly string[], params: CueShopperParams): { mean: number; variance: number } {
  let mean = 0;
  let variance = 0;
  for (const k of keys) {
    const p = params.pulls[k];
    if (!p) continue;
    mean += p.mean;
    variance += p.sd * p.sd;
  }
  return { mean, variance };
}

/** The mean and sd of index(first) − index(second) for the cards shown. */
export function indexDifference(
  cards: readonly [CueCard, CueCard],
  category: string,
  params: CueShopperParams,
  matcher: SentenceMatcher,
): { mean: number; sd: number } {
  const low = Math.min(cards[0].price, cards[1].price);
  const [a, b] = cards.map((c) => cardPull(matcher.keysIn(c, category), params)) as [
    { mean: number; variance: number },
    { mean: number; variance: number },
  ];
  const price = params.priceSensitivity * ((cards[0].price - cards[1].price) / low);
  return { mean: a.mean - b.mean - price + params.firstSlot, sd: Math.sqrt(a.variance + b.variance) };
}

/** P(the first card is chosen | an answer is given), exactly. */
export function firstCardProbability(
  cards: readonly [CueCard, CueCard],
  category: string,
  params: CueShopperParams,
  matcher: SentenceMatcher,
): number {
  const d = indexDifference(cards, category, params, matcher);
  return params.lockRate + (1 - params.lockRate) * expectedLogistic(d.mean, d.sd);
}

/**
 * The shopper's true price-equivalent for a pair of descriptions: the premium (a fraction) at which
 * the counterbalanced curve crosses ½, i.e. (pull of the cued card − pull of the other) / s. ±∞ when
 * the shopper is price-blind and a cue pulls; NaN when nothing pulls and price does not matter.
 */
export function truePriceEquivalent(
  cued: CueCard,
  other: CueCard,
  category: string,
  params: CueShopperParams,
  matcher: SentenceMatcher,
): number {
  const net =
    cardPull(matcher.keysIn(cued, category), params).mean -
    cardPull(matcher.keysIn(other, category), params).mean;
  return net / params.priceSensitivity;
}

export class CueShopper implements Agent<CueView, CueAction> {
  /** A simulated policy: what it throws is bazaar's bug, never its answer. */
  readonly errorsAreBugs = true;
  readonly matcher: SentenceMatcher;

  constructor(
    readonly id: string,
    readonly params: CueShopperParams,
    library: readonly CueCondition[],
  ) {
    this.matcher = new SentenceMatcher(library);
  }

  act({ view }: Observation<CueView>, { rng }: AgentContext): Acted<CueAction> {
    const p = this.params;
    if (p.offFormatRate > 0 && rng.bernoulli(p.offFormatRate)) {
      return { action: { type: "reply", text: rng.pick(CUE_OFF_FORMAT_REPLIES) } };
    }
    let first: boolean;
    if (p.lockRate > 0 && rng.bernoulli(p.lockRate)) first = true;
    else {
      const d = indexDifference(view.cards, view.category, p, this.matcher);
      first = rng.bernoulli(logistic(d.mean + d.sd * rng.normal()));
    }
    return { action: { type: "reply", text: view.letters[first ? 0 : 1] as string } };
  }
}
