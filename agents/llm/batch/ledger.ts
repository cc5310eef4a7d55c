/**
 * What the batch host needs from the store: where each request went, and what each batch came to.
 * The store implements it (`environments/store/batches.ts`) and the CLI hands it over: agents never
 * import the store, so the shape is stated here and the store's class matches it.
 */

/** The provider's batch statuses, and ours around them (see the store's ledger). */
export type BatchState =
  | "uploading"
  | "uploaded"
  | "unsent"
  | "lost"
  | "validating"
  | "failed"
  | "in_progress"
  | "finalizing"
  | "completed"
  | "expired"
  | "cancelling"
  | "cancelled";

/** A provider batch that may still answer: its requests are waited on, never sent again. */
export const LIVE: ReadonlySet<BatchState> = new Set([
  "validating",
  "in_progress",
  "finalizing",
  "cancelling",
]);

/** Ended with files to read: answered lines in the output file, failed and unrun ones in the error file. */
export const WITH_FILES: ReadonlySet<BatchState> = new Set(["completed", "expired", "cancelled"]);

export interface BatchRecord {
  localId: number;
  runId: string;
  baseURL: string;
  model: string;
  batchId: string | null;
  fileId: string | null;
  state: BatchState;
  requests: number;
  createdAt: string;
  outputFileId: string | null;
  errorFileId: string | null;
}

export type RequestState = "pending" | "answered" | "failed";

/** What one line of an ended batch came to, for the ledger (tokens: what was paid at batch rates). */
export interface LineRecord {
  customId: string;
  state: "answered" | "failed";
  status: number | null;
  error: string | null;
  inputTokens: number;
  /** Of the input tokens, those the provider's prompt cache served (`prompt_tokens_details.cached_tokens`). */
  cachedInputTokens?: number;
  outputTokens: number;
  reasoningTokens: number;
}

export interface BatchChange {
  state?: BatchState;
  batchId?: string;
  fileId?: string;
  completed?: number;
  failed?: number;
  outputFileId?: string | null;
  errorFileId?: string | null;
  error?: string;
}

export interface BatchLedger {
  /** Records a batch about to be uploaded and its requests; returns its local id. */
  open(chunk: {
    runId: string;
    baseURL: string;
    model: string;
    bytes: number;
    requests: readonly { customId: string; agent: string }[];
  }): number;
  update(localId: number, change: BatchChange): void;
  ingest(localId: number, lines: readonly LineRecord[]): void;
  failAll(localId: number, error: string): void;
  /** The newest batch holding each custom id, with the request's state in it. */
  latest(customIds: readonly string[]): Map<string, { batch: BatchRecord; state: RequestState }>;
}
