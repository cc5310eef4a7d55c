export {
  analyzeShop,
  type ShopAgentAnalysis,
  type ShopAnalysis,
  type ShopAnalysisOptions,
} from "./analyze.ts";
export {
  type ArmPriceEquivalent,
  type DescriptionAnalysis,
  descriptionAnalysis,
  descriptionsUntestable,
  PRICED_ARMS,
  type PricedArm,
} from "./arms.ts";
export { type ArmFigureRow, armFigureRows, armPriceEquivalentChart } from "./arms-figure.ts";
export {
  armPeCell,
  armPriceEquivalentTable,
  descriptionTables,
  falseClaimTable,
  followCell,
  injectionFollowedTable,
} from "./arms-tables.ts";
export { SEARCH_FILTERS, type SearchBehaviour, type SearchFilter, searchBehaviour } from "./behaviour.ts";
export { type DominanceChecks, dominanceChecks, dominates } from "./dominance.ts";
export { type FalseClaimUptake, falseClaimUptake } from "./false-claim.ts";
export { type ShopFigure, shopFigures } from "./figures.ts";
export { type Funnel, type FunnelRow, shopFunnel } from "./funnel.ts";
export {
  type BadReason,
  badExposures,
  type Exposure,
  type FollowContrast,
  followContrast,
  INJECTING_ARMS,
  type InjectionOptions,
  injectionFollowed,
} from "./injection.ts";
export { biasCorrectedInterval } from "./interval.ts";
export {
  attributeUtility,
  MIN_VARYING_SITUATIONS,
  type PriceEquivalent,
  type ShopChoiceData,
  type ShopLogit,
  type ShopLogitOptions,
  shopChoiceData,
  shopLogit,
} from "./logit.ts";
export { type MoneyOnTable, moneyOnTable } from "./money.ts";
export { analyzeNegotiation, type NegotiationAnalysis, type NegotiationOptions } from "./negotiation.ts";
export {
  type BuyerNegotiation,
  buyerNegotiations,
  type DealStats,
  dealDiscount,
  dealStats,
  type LadderExample,
  type NegotiationUnit,
  type NormalizedProfits,
  negotiationUnits,
  normalizedProfits,
  type PairNegotiation,
  pairNegotiations,
  sessionOf,
} from "./negotiation-deals.ts";
export { discountChart, priceLadderChart } from "./negotiation-figures.ts";
export { buyerNarration, episodeNarration, mostlyTemplateOffers } from "./negotiation-narrator.ts";
export {
  bookingBuyerNormalized,
  buyerPairs,
  compareNegotiatingBuyers,
  type NegotiationComparison,
  type PairedDifference,
} from "./negotiation-paired.ts";
export {
  type BuyerQuotes,
  buyerQuotes,
  dollarAmounts,
  type QuotedOffer,
  quotedOffers,
} from "./negotiation-quotes.ts";
export {
  hasOffers,
  type NegotiationEpisode,
  negotiationEpisodes,
  sellerNamer,
} from "./negotiation-records.ts";
export { type BuyerRisks, breaksConstraint, buyerRisks } from "./negotiation-risks.ts";
export { clusteredMean, type MeanEstimate } from "./negotiation-stats.ts";
export {
  hasNarratedOffers,
  meanCell,
  meanPercentCell,
  narratorFallbackCell,
  negotiationTables,
} from "./negotiation-tables.ts";
export { type ShopOutcomes, shopOutcomes } from "./outcomes.ts";
export { type PassK, type PassKOptions, passHatK, passK } from "./pass-k.ts";
export { armOf, type ShopEpisode, type ShownDescription, shopEpisodesFromRecords } from "./records.ts";
export { clusteredShare, type Share } from "./share.ts";
export {
  behaviourTable,
  funnelTable,
  logitTable,
  moneyTable,
  outcomesTable,
  passKTable,
  peCell,
  priceEquivalentTable,
  type ShopTable,
  shareCell,
  shopTables,
  violationsTable,
} from "./tables.ts";
