export {
  type AgentCueAnalysis,
  analyzeCue,
  type CategoryCueAnalysis,
  type CeilingSummary,
  type CueAnalysis,
  type CueAnalysisOptions,
  DEFAULT_CUE_ANALYSIS,
} from "./analyze.ts";
export { type ConditionIntervals, intervalCovers, pairClusteredIntervals } from "./bootstrap.ts";
export {
  ALL_STATES,
  balancedCurve,
  buildCellTable,
  type CellTable,
  CUED_FIRST_STATES,
  CUED_SECOND_STATES,
  stateIndex,
} from "./cells.ts";
export { type ConditionEstimate, type ConditionSettings, estimateCondition } from "./condition.ts";
export {
  extendedQuantile,
  extendedValue,
  medianPriceEquivalent,
  priceEquivalent,
  rateAt,
} from "./crossing.ts";
export {
  analyzeFactorial,
  type FactorialCellFit,
  type FactorialResult,
  type FactorialTerm,
  type PriceContrast,
} from "./factorial.ts";
export { type Coefficient, fittedCrossing, type LogisticCheck, logisticCrossCheck } from "./logistic.ts";
export { cueObservations } from "./observations.ts";
export { type ParaphraseSummary, summarizeParaphrases } from "./paraphrases.ts";
export { type PrimacyDiagnostic, primacyDiagnostic } from "./primacy.ts";
export { type PriceSensitivity, priceSensitivity } from "./sensitivity.ts";
export { smallClusterFactor, studentQuantile } from "./small-sample.ts";
export type {
  BoundedValue,
  CueObservation,
  CurvePoint,
  IntervalEnd,
  PeInterval,
  PriceEquivalent,
} from "./types.ts";
