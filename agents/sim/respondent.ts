import type { ElicitAction } from "../../environments/elicit/actions.ts";
import type { ElicitView, ViewOffer } from "../../environments/elicit/machine.ts";
import type { Rng } from "../../environments/kernel/rng.ts";
import type { Acted, Agent, AgentContext, Observation } from "../../environments/kernel/types.ts";
import { itemValue, PERSON_VALUES, type ValueModel } from "./respondent-values.ts";

/**
 * A stated-preference respondent with a known true utility per item (`respondent-values.ts`) and
 * configurable distortions. Answers are the truth plus distortions plus noise, rounded to whole dollars:
 * - item query for x: itemScale · U(x) + ε, ε ~ N(0, (noise · (U(x) + scale) / 2)²);
 * - offer-pair query a = (x, p) → b = (y, q), truth Δ = [U(y) − q] − [U(x) − p], s = (p + q)/2:
 *   compression · (Δ + sign(Δ) · pathDrift · s) + queryTypeBias · s + ε, ε ~ N(0, (noise · s)²):
 *   path drift exaggerates every stated difference by a fixed share of the price, so the k steps of
 *   a path add up to about k − 1 such shares more than the direct difference.
 * With every distortion off (itemScale = compression = 1, the rest 0) one utility reproduces the mean
 * of every query: the respondent is self-consistent, and the audit must not reject it.
 */
export interface RespondentParams {
  /** Answer noise: sd as a fraction of the query's dollar scale (see above). */
  noise: number;
  /** Offer-pair answers exceed the truth by this fraction of the mean listed price (item answers do not). */
  queryTypeBias: number;
  /** Offer-pair answers are this multiple of the truth (scale compression when below 1). */
  compression: number;
  /** Each offer-pair answer overstates |Δ| by this fraction of the mean listed price (path drift). */
  pathDrift: number;
  /** Item answers are this multiple of the truth. */
  itemScale: number;
  /** Probability of an answer with no finite number (a range, "it depends", "any price"). */
  nonFiniteRate: number;
  /** `plain`: "450", "-35"; `varied`: "$1,250", "minus $35", "Answer: $450", … (the parser's job). */
  style: "plain" | "varied";
}

export const CONSISTENT_RESPONDENT: RespondentParams = {
  noise: 0.08,
  queryTypeBias: 0,
  compression: 1,
  pathDrift: 0,
  itemScale: 1,
  nonFiniteRate: 0,
  style: "plain",
};

/** Typical listed price per domain: the dollar scale of item-query noise. */
const DOMAIN_SCALE: Record<ElicitView["domain"], number> = { flights: 320, apartments: 2100, hotels: 260 };

function modelFor(view: ElicitView): ValueModel {
  const model = PERSON_VALUES[view.domain]?.[view.utterance];
  if (!model)
    throw new Error(
      `the simulated respondent has no valuation for utterance "${view.utterance}" (${view.domain})`,
    );
  return model;
}

/** The true answer a self-consistent person with the preset's valuations gives (no distortion, no noise). */
export function trueAnswer(view: ElicitView): number {
  const model = modelFor(view);
  if (view.queryType === "item") return itemValue(model, view.item ?? {});
  const a = view.source as ViewOffer;
  const b = view.target as ViewOffer;
  return itemValue(model, b.features) - b.price - (itemValue(model, a.features) - a.price);
}

/** The mean answer under the preset's distortions, and the noise sd, in dollars. */
export function expectedAnswer(view: ElicitView, p: RespondentParams): { mean: number; sd: number } {
  const truth = trueAnswer(view);
  if (view.queryType === "item") {
    const scale = DOMAIN_SCALE[view.domain];
    return { mean: p.itemScale * truth, sd: (p.noise * (Math.abs(truth) + scale)) / 2 };
  }
  const s = ((view.source as ViewOffer).price + (view.target as ViewOffer).price) / 2;
  const drifted = truth + Math.sign(truth) * p.pathDrift * s;
  return { mean: p.compression * drifted + p.queryTypeBias * s, sd: p.noise * s };
}

function withThousands(n: number): string {
  return String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** How a number is written; every form is one the strict parser reads back exactly. */
export function writeAmount(value: number, style: RespondentParams["style"], rng: Rng): string {
  if (style === "plain") return String(value);
  const abs = withThousands(value);
  const forms =
    value < 0
      ? [`-$${abs}`, `$-${abs}`, `minus $${abs}`, `−${abs}`, `Answer: -$${abs}`, `${value}`]
      : [
          `$${abs}`,
          `${value}`,
          `${abs} dollars`,
          `USD ${value}`,
          `Answer: $${abs}`,
          `I'd say about $${abs}.`,
        ];
  return rng.pick(forms);
}

const NON_FINITE_TEXTS = [
  "It depends on their budget and priorities.",
  "Any price would be too much for them.",
  "I can't give an exact figure without more information.",
];

function nonFiniteText(mean: number, rng: Rng): string {
  if (rng.bernoulli(0.5)) return rng.pick(NON_FINITE_TEXTS);
  const lo = Math.round(mean - Math.abs(mean) * 0.1 - 5);
  const hi = Math.round(mean + Math.abs(mean) * 0.1 + 5);
  return `Somewhere between $${lo} and $${hi}.`;
}

export class SimRespondent implements Agent<ElicitView, ElicitAction> {
  /** A simulated policy: what it throws is bazaar's bug, never its answer. */
  readonly errorsAreBugs = true;
  constructor(
    readonly id: string,
    readonly params: RespondentParams,
  ) {}

  act({ view }: Observation<ElicitView>, { rng }: AgentContext): Acted<ElicitAction> {
    const { mean, sd } = expectedAnswer(view, this.params);
    // One draw decides the format and one the noise whatever happens, so the answers of two presets
    // that differ only in their non-finite rate stay paired.
    const offFormat = rng.next() < this.params.nonFiniteRate;
    const value = Math.round(mean + sd * rng.normal());
    if (offFormat) return { action: { type: "reply", text: nonFiniteText(mean, rng) } };
    return { action: { type: "reply", text: writeAmount(value === 0 ? 0 : value, this.params.style, rng) } };
  }
}

/** Named respondents with known truth; `consistent` is the default agent of `bazaar run elicit`. */
export interface RespondentPreset {
  description: string;
  params: RespondentParams;
  make(id: string): SimRespondent;
}

function preset(description: string, params: Partial<RespondentParams>): RespondentPreset {
  const full = { ...CONSISTENT_RESPONDENT, ...params };
  return { description, params: full, make: (id) => new SimRespondent(id, full) };
}

export const RESPONDENT_PRESETS: Record<string, RespondentPreset> = {
  consistent: preset("self-consistent respondent: true utilities plus noise (sd 8% of the price scale)", {}),
  "consistent-varied": preset(
    "self-consistent respondent writing numbers in varied forms ($1,250, minus $35, Answer: …), 2% non-finite",
    { style: "varied", nonFiniteRate: 0.02 },
  ),
  biased: preset("query-type bias: offer-pair answers 10% of the mean listed price too high", {
    queryTypeBias: 0.1,
  }),
  compressed: preset("scale compression: offer-pair answers 60% of the true difference", {
    compression: 0.6,
  }),
  drifting: preset("path drift: each offer-pair answer overstates |Δ| by 2% of the mean listed price", {
    pathDrift: 0.02,
  }),
  inconsistent: preset(
    "LLM-like mix: bias 6%, compression 0.75, drift 0.5%, item answers ×1.1, noise 10%, 1% non-finite, varied forms",
    {
      noise: 0.1,
      queryTypeBias: 0.06,
      compression: 0.75,
      pathDrift: 0.005,
      itemScale: 1.1,
      nonFiniteRate: 0.01,
      style: "varied",
    },
  ),
};
