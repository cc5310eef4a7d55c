export {
  analyzeShop,
  type ShopAgentAnalysis,
  type ShopAnalysis,
  type ShopAnalysisOptions,
} from "./analyze.ts";
export { SEARCH_FILTERS, type SearchBehaviour, type SearchFilter, searchBehaviour } from "./behaviour.ts";
export { type DominanceChecks, dominanceChecks } from "./dominance.ts";
export { type ShopFigure, shopFigures } from "./figures.ts";
export { type Funnel, type FunnelRow, shopFunnel } from "./funnel.ts";
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
export { type ShopOutcomes, shopOutcomes } from "./outcomes.ts";
export { type PassK, type PassKOptions, passHatK, passK } from "./pass-k.ts";
export { type ShopEpisode, shopEpisodesFromRecords } from "./records.ts";
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
