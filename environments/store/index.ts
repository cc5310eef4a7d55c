export { DamagedStoreError } from "./damage.ts";
export { AtomicFileWriter, csvCell, type ExportFormat, exportRecords, flattenRecord } from "./export.ts";
export {
  type FailedTrial,
  type RunInfo,
  type RunSummary,
  SqliteStore,
  type StoredTrial,
  type TrialRow,
} from "./sqlite-store.ts";
