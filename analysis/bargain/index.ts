export {
  type AnalyzeOptions,
  analyzeBargain,
  type BargainAnalysis,
  defaultComparisons,
  type PairingSummary,
} from "./analyze.ts";
export { bargainFigures, type Figure, groupedBars } from "./figures.ts";
export {
  fallbackText,
  hasLlmNarrator,
  MOSTLY_TEMPLATE,
  mostlyTemplateSentence,
  type NarratedUnit,
  type NarratorInput,
  type NarratorUse,
  narratorUse,
  sumNarratorUse,
} from "./narrator.ts";
export {
  comparePairedBuyers,
  PAIRED_METRICS,
  type PairedComparison,
  type PairedMetric,
  type PairedOptions,
  type PairedValue,
} from "./paired.ts";
export {
  adjustBudget,
  INVALID_CAUSES,
  type InvalidCause,
  interestOf,
  type ScoredSession,
  type SessionInput,
  scoreSession,
} from "./session.ts";
export {
  type ByInterest,
  GROUPS,
  type Group,
  type GroupSummary,
  type SideProfit,
  summarizeByInterest,
  summarizeGroup,
} from "./summary.ts";
export { bargainTables, type Table } from "./tables.ts";
