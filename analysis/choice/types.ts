import type { ChoiceOption, TaskKind } from "../../environments/choice/types.ts";

/**
 * One catalog-choice trial as the estimators need it: the fields of the trial export contract
 * (`ChoiceTrialRecord`) that carry information about the choice, nothing else.
 */
export interface ChoiceTrial {
  agent: string;
  taskId: string;
  /** The unique option set: the cluster of cluster-robust SEs and of the pair-clustered bootstrap. */
  cluster: string;
  kind: TaskKind;
  /** Which re-draw of the set this is; with `cluster` it names one set of drawn attributes. */
  appearance: number;
  /** For each display slot, the option's index in the set's canonical order (its label: 0 = A). */
  order: readonly number[];
  /** Options in displayed order. */
  options: readonly ChoiceOption[];
  /** 0-based display slot of the booked option; null for a non-response. */
  chosenSlot: number | null;
}

/**
 * How binary answers enter the logit.
 * - `first-shown` (default): y = booked the first-shown option, covariates first − second. The
 *   intercept is the first-slot tendency; attribute weights are free of position effects.
 * - `label`: the PriceBench reference form: y = booked label A, covariates A − B. With both orders
 *   pooled its intercept is a label-A tendency (≈ 0) and a position effect is left in the noise.
 */
export type BinaryForm = "first-shown" | "label";

/**
 * What a binary non-response becomes.
 * - `drop` (default): it is left out of every estimate and counted.
 * - `as-B`: the reference's convention — every answer that is not "A" is coded "B" (label form).
 */
export type NonResponseCoding = "drop" | "as-B";

export interface ChoiceConvention {
  binaryForm: BinaryForm;
  nonResponses: NonResponseCoding;
  /**
   * Position-locked agents: `skip` (default) fits nothing for them; `fit` fits their binary logits as
   * the reference's per-model table does, labelled "position-locked: not a preference" and kept out
   * of every cross-agent figure.
   */
  lockedAgents: "skip" | "fit";
  /**
   * Whether triage counts answers that match no task (a response file's set-apart rows, see
   * `UnmatchedAnswers`): the reference's first-shown rate reads every A and B of a file; bazaar
   * counts only answers to a task.
   */
  triageCountsUnmatched: boolean;
  /**
   * Decile cut points of the brand premiums: the pooled binary + ternary option prices (default, as
   * the paper describes) or the binary ones alone (the reference's brand script).
   */
  brandDeciles: "pooled" | "binary";
  /**
   * Slot constants in the ternary conditional logit: bazaar's default absorbs position effects
   * there; the reference's ternary.py fits attributes only (its personality_ternary.csv).
   */
  ternarySlotConstants: boolean;
  /** A short label a table can print, e.g. "default: first-shown form, non-responses dropped". */
  label: string;
}

export const DEFAULT_CONVENTION: ChoiceConvention = {
  binaryForm: "first-shown",
  nonResponses: "drop",
  lockedAgents: "skip",
  triageCountsUnmatched: false,
  brandDeciles: "pooled",
  ternarySlotConstants: true,
  label: "default: first-shown form (first − second), non-responses dropped",
};

export const REFERENCE_CONVENTION: ChoiceConvention = {
  binaryForm: "label",
  nonResponses: "as-B",
  lockedAgents: "fit",
  triageCountsUnmatched: true,
  brandDeciles: "binary",
  ternarySlotConstants: false,
  label: 'PriceBench reference: label form (A − B), every non-"A" binary answer coded "B"',
};

/**
 * Answers a run holds that match no task — the rows a response file has beyond its tasks (the
 * release's Mistral 7B swap file: 3,600 ids without the swap offset). Never an observation; only a
 * convention with `triageCountsUnmatched` reads them, and only their letters: "A" and "B" enter the
 * first-shown rate, B as first-shown in a swapped-order file.
 */
export interface UnmatchedAnswers {
  swap: boolean;
  letters: Readonly<Record<string, number>>;
}

/** How the price enters utility: dollars, log dollars, or decile dummies (D1 the reference). */
export type PriceForm = "linear" | "log" | "deciles";
