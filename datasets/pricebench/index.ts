export { type CsvTable, readCsvTable } from "./csv-table.ts";
export { PRICEBENCH_MODELS, type PriceBenchModel, priceBenchModel } from "./models.ts";
export {
  type PriceBenchRelease,
  type ReleaseTasks,
  type ResponseBlock,
  type ResponseFile,
  readPriceBenchRelease,
  readReleaseTasks,
} from "./release.ts";
export {
  describeOddRows,
  type OddRows,
  oddRowLetters,
  type ParsedResponses,
  parseResponseFile,
  type ResponseRow,
  SWAP_OFFSET,
} from "./responses.ts";
export { type ReleaseRunTasks, releaseRunTasks } from "./run-tasks.ts";
export {
  displayedTask,
  type ImportedRun,
  importedRuns,
  isPriceBenchRun,
  type OddRowSummary,
  outcomeOf,
  PRICEBENCH_SOURCE,
  priceBenchAgent,
  priceBenchRunId,
  priceBenchRunInfo,
} from "./runs.ts";
export { OPTION_FIELDS, type PriceBenchTask, parseTaskFile } from "./tasks.ts";
export { type ImportResult, importPriceBench } from "./write.ts";
