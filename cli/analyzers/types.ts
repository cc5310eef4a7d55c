import type { VegaLiteSpec } from "../../analysis/report/svg.ts";
import type { RunSummary, Store } from "../../environments/store/index.ts";

/** What `bazaar analyze` hands an environment's analyzer. */
export interface AnalyzeInput {
  run: RunSummary;
  store: Store;
  /** The run's trial records (the export contract), streamed afresh on every call. */
  records: () => Iterable<Record<string, unknown>>;
  /** Options of `bazaar analyze` (commander's values), including the analyzer's own. */
  options: Record<string, unknown>;
}

/**
 * The few numbers a run ends with (`bazaar run` prints them under the summary): the environment's
 * main estimates, the same as `bazaar analyze` reports, as lines and as JSON (`run --json`).
 */
export interface Headline {
  lines: string[];
  json: unknown;
}

/** An analysis result in the forms the commands print or write. */
export interface AnalyzeOutput {
  headline: Headline;
  /** Everything, as one JSON-serialisable document (`--json`). */
  json: unknown;
  /** Tables for the terminal. */
  text: string;
  /** Writes a markdown report and SVG figures into `dir` (`--report dir`); returns the files written. */
  writeReport(dir: string): string[];
  /**
   * The report's figures, built when called: the Vega-Lite specs `--report` renders to SVG (the
   * browser viewer, `bazaar view`, draws the same specs), or an SVG where a figure has no spec.
   */
  figures?(): AnalysisFigure[];
}

/** A figure of a report: its file name in the report, title, and its Vega-Lite spec or SVG. */
export interface AnalysisFigure {
  file: string;
  title: string;
  spec?: VegaLiteSpec;
  svg?: string;
}

/**
 * One environment's analysis as `bazaar analyze` sees it. The estimators live in `analysis/`
 * (pure functions); an analyzer only gathers the run's records, calls them, and formats results.
 */
export interface EnvironmentAnalyzer {
  env: string;
  analyze(input: AnalyzeInput): AnalyzeOutput | Promise<AnalyzeOutput>;
}
