export {
  type AgentChoiceAnalysis,
  type AgentStatus,
  analyzeChoice,
  type ChoiceAnalysis,
  type ChoiceAnalysisOptions,
  LOCKED_FIT_LABEL,
} from "./analyze.ts";
export {
  ATTRIBUTE_NAMES,
  attributeValues,
  DECILES,
  decileMedians,
  pooledOptionPrices,
  priceDecile,
  priceDecileEdges,
  priceTermNames,
} from "./attributes.ts";
export { type BookingOutcome, bookingOutcome } from "./booking.ts";
export {
  type AgentBootstrap,
  type BootstrapAgentInput,
  type ChoiceBootstrap,
  clusterDraws,
  pairClusteredBootstrap,
  type RankStability,
  type SpreadMonteCarlo,
  type WtpSpread,
} from "./bootstrap.ts";
export {
  type BrandPremium,
  type BrandPremiums,
  fitBrandPremiums,
  type ProviderBrandTest,
  providerBrandTest,
} from "./brand.ts";
export {
  type AgentValue,
  type CrossModelAgent,
  type CrossModelSummary,
  crossModelSummary,
  type ValueRange,
} from "./cross-model.ts";
export {
  type BinaryDesign,
  binaryDesign,
  type ConditionalDesign,
  conditionalDesign,
  interceptName,
  type UtilitySpec,
  utilityNames,
  utilityRow,
} from "./design.ts";
export {
  type BinaryForms,
  type ConditionalForms,
  chooseForm,
  type FormChoice,
  fitBinaryChoice,
  fitBinaryForms,
  fitConditionalChoice,
  fitConditionalForms,
} from "./fits.ts";
export { type CoefficientTest, type MultiplicityAudit, multiplicityAudit } from "./multiplicity.ts";
export { type FormatAgreement, formatAgreement, type HitRate, outOfSampleHitRate } from "./prediction.ts";
export { choiceTrialsFromRecords } from "./records.ts";
export {
  type ChoiceTriage,
  isLocked,
  LOCK_THRESHOLD,
  type SlotShares,
  type TriageVerdict,
  triageAgent,
  unmatchedPairCounts,
} from "./triage.ts";
export {
  type BinaryForm,
  type ChoiceConvention,
  type ChoiceTrial,
  DEFAULT_CONVENTION,
  type NonResponseCoding,
  type PriceForm,
  REFERENCE_CONVENTION,
  type UnmatchedAnswers,
} from "./types.ts";
export { WeightedBinaryLogit, type WeightedFitOptions } from "./weighted-logit.ts";
export { coefficient, DEFAULT_REFERENCE_PRICE, reviewWtp, type Wtp, wtpValue } from "./wtp.ts";
