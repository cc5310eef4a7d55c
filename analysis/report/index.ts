export {
  type GroupedInterval,
  type GuideRay,
  groupedIntervalChart,
  type IntervalRow,
  intervalChart,
  type LabelledPoint,
  type LinePoint,
  labelledScatter,
  lineChart,
  type PanelPoint,
  panelChart,
  wrapLabel,
} from "./charts.ts";
export {
  choiceAgentTable,
  choiceBrandTable,
  choiceFigures,
  choiceReport,
  choiceSummaryLines,
  type FigureOptions,
} from "./choice.ts";
export { dollars, fixed, percent, pValue, sig, stars } from "./format.ts";
export { type LabelLayout, type LabelPoint, type PlacedLabel, placeLabels, textWidth } from "./labels.ts";
export { escapeCell, markdownDocument, markdownTable } from "./markdown.ts";
export { renderSvg, type VegaLiteSpec } from "./svg.ts";
