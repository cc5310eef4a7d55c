export { DamagedStoreError } from "./damage.ts";
export { AtomicFileWriter, csvCell, type ExportFormat, exportRecords, flattenRecord } from "./export.ts";
export {
  type FailedTrial,
  type RunInfo,
  type RunSummary,
  Store,
  type StoredTrial,
  type TrialRow,
} from "./store.ts";
