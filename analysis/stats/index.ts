export { type Interval, percentileInterval, resampleIndices } from "./bootstrap.ts";
export { averageRanks, pearson, spearman } from "./correlation.ts";
export { mean, quantile, sortedQuantile, standardDeviation, variance } from "./descriptive.ts";
export {
  chiSquareUpperTail,
  normalQuantile,
  normalUpperTail,
  tQuantile,
  twoSidedNormalP,
} from "./distributions.ts";
export { adjustPValues, type PAdjustMethod } from "./multiple-testing.ts";
