export {
  type AdoptionRow,
  type BuyerRecordLike,
  buyerTaskPlace,
  type Interval,
  type MarketAnalysis,
  type MarketResult,
  MarketTally,
  type RoundRow,
  type SellerInfo,
  type SellerRound,
  type SellerTurnLike,
  t975,
  tInterval,
  type WrittenDescription,
} from "./analyze.ts";
export { figureMarkets, type MarketFigure, marketFigures, sellerLabel } from "./figures.ts";
export {
  adoptionTable,
  descriptionsTable,
  intervalCell,
  type MarketTable,
  marketTables,
  roundsTable,
  sellersTable,
  sellerTurnsTable,
} from "./tables.ts";
