export { AtomicFileWriter, csvCell, type ExportFormat, exportRecords, flattenRecord } from "./export.ts";
export {
  type RunInfo,
  type RunSummary,
  SqliteStore,
  type StoredTrial,
  type TrialRow,
} from "./sqlite-store.ts";
