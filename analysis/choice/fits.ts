/** The per-agent logits: binary in three price forms, and conditional logits for 3+ options. */
import { fitBinaryLogit, fitConditionalLogit, type LogitFit, type LogitOptions } from "../logit/index.ts";
import { binaryDesign, conditionalDesign, type UtilitySpec } from "./design.ts";
import type { ChoiceConvention, ChoiceTrial, PriceForm } from "./types.ts";
import { coefficient } from "./wtp.ts";

/**
 * The reference's functional-form verdict: `insignificant` when both price p-values exceed 0.05,
 * else `linear` if AIC_lin − AIC_log < −2, `log` if it exceeds 2, `tie` otherwise. Null when either
 * fit is not identified.
 */
export type FormChoice = "linear" | "log" | "tie" | "insignificant";

export function chooseForm(linear: LogitFit, log: LogitFit): FormChoice | null {
  if (linear.status !== "ok" || log.status !== "ok") return null;
  const pLin = coefficient(linear, "price")?.p ?? Number.NaN;
  const pLog = coefficient(log, "lnPrice")?.p ?? Number.NaN;
  if (pLog > 0.05 && pLin > 0.05) return "insignificant";
  const d = linear.aic - log.aic;
  if (d < -2) return "linear";
  if (d > 2) return "log";
  return "tie";
}

export interface BinaryForms {
  linear: LogitFit;
  log: LogitFit;
  deciles: LogitFit;
  formChoice: FormChoice | null;
  /** Observations in each fit, and binary non-responses (dropped or coded, per the convention). */
  n: number;
  nonResponses: number;
}

function spec(priceForm: PriceForm, edges: readonly number[], extra: Partial<UtilitySpec> = {}): UtilitySpec {
  return { priceForm, edges, ...extra };
}

/** One binary logit (intercept + differences) with cluster-robust SEs by option set. */
export function fitBinaryChoice(
  trials: readonly ChoiceTrial[],
  utility: UtilitySpec,
  convention: ChoiceConvention,
  options?: LogitOptions,
): LogitFit {
  const design = binaryDesign(trials, utility, convention);
  if (design.X.length === 0) throw new RangeError("fitBinaryChoice: no binary answers");
  return fitBinaryLogit(design, options);
}

export function fitBinaryForms(
  trials: readonly ChoiceTrial[],
  convention: ChoiceConvention,
  edges: readonly number[],
  options?: LogitOptions,
): BinaryForms {
  const design = binaryDesign(trials, spec("log", edges), convention);
  const linear = fitBinaryChoice(trials, spec("linear", edges), convention, options);
  const log = fitBinaryLogit(design, options);
  const deciles = fitBinaryChoice(trials, spec("deciles", edges), convention, options);
  return {
    linear,
    log,
    deciles,
    formChoice: chooseForm(linear, log),
    n: design.X.length,
    nonResponses: design.nonResponses,
  };
}

export interface ConditionalForms {
  linear: LogitFit;
  log: LogitFit;
  /** Choice situations (answered trials) and non-responses left out. */
  n: number;
  nonResponses: number;
}

/** Conditional logit (with slot constants unless told otherwise) in the linear and log forms. */
export function fitConditionalForms(
  trials: readonly ChoiceTrial[],
  slotConstants = true,
  options?: LogitOptions,
): ConditionalForms | null {
  const logDesign = conditionalDesign(trials, spec("log", []), slotConstants);
  if (logDesign.alternatives.length === 0) return null;
  return {
    linear: fitConditionalLogit(conditionalDesign(trials, spec("linear", []), slotConstants), options),
    log: fitConditionalLogit(logDesign, options),
    n: logDesign.alternatives.length,
    nonResponses: logDesign.nonResponses,
  };
}

/** Conditional logit in any form over any mix of option counts (e.g. binary + ternary pooled). */
export function fitConditionalChoice(
  trials: readonly ChoiceTrial[],
  utility: UtilitySpec,
  slotConstants: boolean,
  options?: LogitOptions,
): LogitFit | null {
  const design = conditionalDesign(trials, utility, slotConstants);
  return design.alternatives.length === 0 ? null : fitConditionalLogit(design, options);
}
