export { analyzeClients, type ClientAnalysis, type ClientAnalysisOptions } from "./analyze.ts";
export { type ClientCell, clientCell } from "./cell.ts";
export {
  CLIENT_FAULT_MODES,
  type ClientFaultMode,
  type ClientFaultRates,
  clientFaultRates,
  flagged,
  selectByClientFaults,
} from "./faults.ts";
export { type RegretPoint, regretMessagesChart, regretPoints } from "./figure.ts";
export { compareShoppers, type ShopperComparison, shopperPairs } from "./paired.ts";
export { clusteredRatio, type RatioEstimate } from "./ratio.ts";
export { type ClientEpisode, clientEpisodes, clientReplies, hasClients } from "./records.ts";
export {
  burdenTable,
  clientFaultsTable,
  clientOutcomesTable,
  clientTables,
  comparisonsTable,
  dollarsCell,
  episodes,
  leftOutNote,
  pairedCell,
  ratioCell,
  uncoveredTable,
} from "./tables.ts";
