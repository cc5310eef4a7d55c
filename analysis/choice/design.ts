/** Design matrices of the choice logits: binary differences and conditional-logit alternatives. */
import type { ChoiceOption } from "../../environments/choice/types.ts";
import type { BinaryLogitData, ConditionalLogitData } from "../logit/index.ts";
import {
  ATTRIBUTE_NAMES,
  attributeValues,
  CHAIN_NAMES,
  chainDummies,
  neighborhoodDummies,
  priceTermNames,
  priceTerms,
} from "./attributes.ts";
import type { ChoiceConvention, ChoiceTrial, PriceForm } from "./types.ts";

/** Which covariates describe an option. */
export interface UtilitySpec {
  priceForm: PriceForm;
  /** Decile cut points (required for the decile form). */
  edges?: readonly number[];
  /** Chain-family dummies (independent hotels the reference): the brand specification. */
  chains?: boolean;
  /** Neighborhood dummies for these neighborhoods (leave one out as the reference). */
  neighborhoods?: readonly string[];
}

export function utilityNames(spec: UtilitySpec): string[] {
  return [
    ...ATTRIBUTE_NAMES,
    ...(spec.chains ? CHAIN_NAMES : []),
    ...(spec.neighborhoods ?? []).map((n) => `neighborhood:${n}`),
    ...priceTermNames(spec.priceForm),
  ];
}

/** The option's covariate row in `utilityNames(spec)` order. */
export function utilityRow(o: ChoiceOption, spec: UtilitySpec): number[] {
  return [
    ...attributeValues(o),
    ...(spec.chains ? chainDummies(o) : []),
    ...(spec.neighborhoods ? neighborhoodDummies(o, spec.neighborhoods) : []),
    ...priceTerms(o, spec.priceForm, spec.edges),
  ];
}

/** Name of the binary logit's intercept under each form. */
export function interceptName(convention: ChoiceConvention): string {
  return convention.binaryForm === "first-shown" ? "firstSlot" : "labelA";
}

export interface BinaryDesign extends BinaryLogitData {
  clusters: string[];
  /** Non-responses left out (default) or coded as "B" (reference convention). */
  nonResponses: number;
}

/**
 * The binary logit's data: one row per binary trial with an intercept and first − second (or
 * A − B) covariate differences, both display orders pooled.
 */
export function binaryDesign(
  trials: readonly ChoiceTrial[],
  spec: UtilitySpec,
  convention: ChoiceConvention,
): BinaryDesign {
  if (convention.binaryForm === "first-shown" && convention.nonResponses === "as-B") {
    throw new RangeError('coding non-responses as "B" needs the label form');
  }
  const X: number[][] = [];
  const y: (0 | 1)[] = [];
  const clusters: string[] = [];
  let nonResponses = 0;
  for (const t of trials) {
    if (t.kind !== "binary") continue;
    let first = 0;
    let second = 1;
    if (convention.binaryForm === "label") {
      first = t.order.indexOf(0);
      second = t.order.indexOf(1);
    }
    if (t.chosenSlot === null) {
      nonResponses++;
      if (convention.nonResponses === "drop") continue;
    }
    const a = utilityRow(t.options[first] as ChoiceOption, spec);
    const b = utilityRow(t.options[second] as ChoiceOption, spec);
    X.push([1, ...a.map((v, j) => v - (b[j] as number))]);
    y.push(t.chosenSlot === first ? 1 : 0);
    clusters.push(t.cluster);
  }
  return { X, y, clusters, names: [interceptName(convention), ...utilityNames(spec)], nonResponses };
}

export interface ConditionalDesign extends ConditionalLogitData {
  clusters: string[];
  nonResponses: number;
}

/**
 * The conditional logit's data over the given trials (any mix of option counts): one situation
 * per answered trial, alternatives in display order. With `slotConstants`, slot s ≥ 1 gets its own
 * constant `slot<s>` (slot 0 the reference), shared by every option count.
 */
export function conditionalDesign(
  trials: readonly ChoiceTrial[],
  spec: UtilitySpec,
  slotConstants: boolean,
): ConditionalDesign {
  const maxK = trials.reduce((m, t) => Math.max(m, t.options.length), 0);
  const slotNames = slotConstants
    ? Array.from({ length: Math.max(0, maxK - 1) }, (_, s) => `slot${s + 1}`)
    : [];
  const alternatives: number[][][] = [];
  const chosen: number[] = [];
  const clusters: string[] = [];
  let nonResponses = 0;
  for (const t of trials) {
    if (t.chosenSlot === null) {
      nonResponses++;
      continue;
    }
    alternatives.push(
      t.options.map((o, s) => [...slotNames.map((_, q) => (q === s - 1 ? 1 : 0)), ...utilityRow(o, spec)]),
    );
    chosen.push(t.chosenSlot);
    clusters.push(t.cluster);
  }
  return { alternatives, chosen, clusters, names: [...slotNames, ...utilityNames(spec)], nonResponses };
}
