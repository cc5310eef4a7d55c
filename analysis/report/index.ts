export {
  type IntervalRow,
  intervalChart,
  type LabelledPoint,
  type LinePoint,
  labelledScatter,
  lineChart,
} from "./charts.ts";
export {
  choiceAgentTable,
  choiceBrandTable,
  choiceFigures,
  choiceReport,
  choiceSummaryLines,
} from "./choice.ts";
export { dollars, fixed, percent, pValue, sig, stars } from "./format.ts";
export { escapeCell, markdownDocument, markdownTable } from "./markdown.ts";
export { renderSvg, type VegaLiteSpec } from "./svg.ts";
