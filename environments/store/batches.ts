/**
 * The batch ledger: every batch a run sent to a provider's batch API and every request in it, in
 * two tables of their own on the store's connection (`Store.extension`). It is what makes a
 * batch run resumable across processes and days — a restarted run finds the batch each request
 * went into, waits on the live ones, downloads the ended ones, and sends again only what was never
 * answered — and what prices batch calls at batch rates (`runs --prices`, `batches`).
 *
 * The LLM agents' batch host (`agents/llm/batch`) uses it through its `BatchLedger` interface; the
 * two never import each other, the CLI hands this one to that one.
 *
 * A request is keyed by its custom id (its response-cache key: identical requests are one request)
 * and the batch it went into, so a request sent again after its batch expired has a row per batch,
 * and the newest row says where it stands.
 */
import type { SqlDb } from "./sql/db.ts";
import type { Store } from "./store.ts";

/**
 * Where a batch stands: the provider's statuses, and ours around them — `uploading` (recorded, its
 * file not yet uploaded), `uploaded` (the file is there, the batch not yet created), `unsent` (never
 * created: its requests go again) and `lost` (the provider no longer knows it: they go again too).
 */
export type LedgerBatchState =
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

/** The states in which a batch may still answer: its requests are waited on, never sent again. */
export const LIVE_BATCH_STATES: ReadonlySet<LedgerBatchState> = new Set([
  "validating",
  "in_progress",
  "finalizing",
  "cancelling",
]);

export interface LedgerBatch {
  /** Our id for the batch (the provider's comes once it is created). */
  localId: number;
  runId: string;
  baseURL: string;
  model: string;
  batchId: string | null;
  fileId: string | null;
  state: LedgerBatchState;
  requests: number;
  bytes: number;
  /** Requests answered and failed, as the provider counts them. */
  completed: number;
  failed: number;
  outputFileId: string | null;
  errorFileId: string | null;
  /** Why a batch failed or was never sent. */
  error: string | null;
  createdAt: string;
  updatedAt: string;
  /** When it reached an end (completed, failed, expired, cancelled, unsent, lost). */
  endedAt: string | null;
  /** When its output and error files were read into the ledger. */
  ingestedAt: string | null;
}

export type LedgerRequestState = "pending" | "answered" | "failed";

/** What one line of an ended batch came to. */
export interface LedgerLine {
  customId: string;
  state: "answered" | "failed";
  /** The HTTP status of the line, or null for a request the batch never ran. */
  status: number | null;
  error: string | null;
  inputTokens: number;
  /** Of the input tokens, the provider's prompt-cache hits (billed at the batch cached-input rate; absent: 0). */
  cachedInputTokens?: number;
  outputTokens: number;
  reasoningTokens: number;
}

export type LedgerChange = Partial<
  Pick<
    LedgerBatch,
    "state" | "batchId" | "fileId" | "completed" | "failed" | "outputFileId" | "errorFileId" | "error"
  >
>;

/** Batch calls of one agent of a run: answered requests and their tokens (what was paid at batch rates). */
export interface BatchUsage {
  runId: string;
  agent: string;
  model: string;
  requests: number;
  inputTokens: number;
  /** Of the input tokens, the provider's prompt-cache hits (0 in a ledger written before they were kept). */
  cachedInputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
}

const ENDED = new Set<LedgerBatchState>(["completed", "failed", "expired", "cancelled", "unsent", "lost"]);

const DDL = `
CREATE TABLE IF NOT EXISTS llm_batches (
  local_id INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL,
  base_url TEXT NOT NULL,
  model TEXT NOT NULL,
  batch_id TEXT,
  file_id TEXT,
  state TEXT NOT NULL,
  requests INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  completed INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  output_file_id TEXT,
  error_file_id TEXT,
  error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  ended_at TEXT,
  ingested_at TEXT
);
CREATE INDEX IF NOT EXISTS llm_batches_by_run ON llm_batches (run_id);
CREATE TABLE IF NOT EXISTS llm_batch_requests (
  custom_id TEXT NOT NULL,
  local_id INTEGER NOT NULL,
  agent TEXT NOT NULL,
  state TEXT NOT NULL,
  status INTEGER,
  error TEXT,
  input_tokens INTEGER NOT NULL DEFAULT 0,
  cached_input_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  reasoning_tokens INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (custom_id, local_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS batch_requests_by_batch ON llm_batch_requests (local_id);
`;

interface BatchRowSql {
  local_id: number;
  run_id: string;
  base_url: string;
  model: string;
  batch_id: string | null;
  file_id: string | null;
  state: string;
  requests: number;
  bytes: number;
  completed: number;
  failed: number;
  output_file_id: string | null;
  error_file_id: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
  ingested_at: string | null;
}

function batchOf(r: BatchRowSql): LedgerBatch {
  return {
    localId: r.local_id,
    runId: r.run_id,
    baseURL: r.base_url,
    model: r.model,
    batchId: r.batch_id,
    fileId: r.file_id,
    state: r.state as LedgerBatchState,
    requests: r.requests,
    bytes: r.bytes,
    completed: r.completed,
    failed: r.failed,
    outputFileId: r.output_file_id,
    errorFileId: r.error_file_id,
    error: r.error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    endedAt: r.ended_at,
    ingestedAt: r.ingested_at,
  };
}

const COLUMNS: Record<keyof LedgerChange, string> = {
  state: "state",
  batchId: "batch_id",
  fileId: "file_id",
  completed: "completed",
  failed: "failed",
  outputFileId: "output_file_id",
  errorFileId: "error_file_id",
  error: "error",
};

/** The ledger on one store. Opened read-only (`bazaar batches`, `runs`) it reads and never writes. */
export class BatchLedger {
  private constructor(
    private readonly db: SqlDb,
    /** False on a read-only store written before batches existed: there is nothing to read. */
    private readonly present: boolean,
    /** False on a read-only store written before batch prompt-cache hits were kept (they read as 0). */
    private readonly withCached: boolean,
  ) {}

  static init(db: SqlDb, readonly: boolean): BatchLedger {
    if (readonly) {
      const present = db.hasTable("llm_batch_requests");
      return new BatchLedger(db, present, present && hasCachedColumn(db));
    }
    db.exec(DDL);
    // A ledger written before batch prompt-cache hits were kept gains their column (0 for its lines).
    if (!hasCachedColumn(db)) {
      try {
        db.exec("ALTER TABLE llm_batch_requests ADD COLUMN cached_input_tokens INTEGER NOT NULL DEFAULT 0");
      } catch (err) {
        // Another runner on the same store added it first.
        if (!hasCachedColumn(db)) throw err;
      }
    }
    return new BatchLedger(db, true, true);
  }

  private stamp(): string {
    return new Date().toISOString();
  }

  /** Records a batch about to be uploaded and its requests (pending), in one transaction. */
  open(chunk: {
    runId: string;
    baseURL: string;
    model: string;
    bytes: number;
    requests: readonly { customId: string; agent: string }[];
  }): number {
    const now = this.stamp();
    return this.db.tx(() => {
      const localId = this.db.value<number>(
        "INSERT INTO llm_batches (run_id, base_url, model, state, requests, bytes, created_at, updated_at) VALUES (?, ?, ?, 'uploading', ?, ?, ?, ?) RETURNING local_id",
        chunk.runId,
        chunk.baseURL,
        chunk.model,
        chunk.requests.length,
        chunk.bytes,
        now,
        now,
      )!;
      this.db.runMany(
        `INSERT INTO llm_batch_requests (custom_id, local_id, agent, state) VALUES (?, ?, ?, 'pending')
         ON CONFLICT (custom_id, local_id) DO UPDATE SET agent = excluded.agent, state = excluded.state`,
        chunk.requests.map((r) => [r.customId, localId, r.agent]),
      );
      return localId;
    });
  }

  /** What the provider said about a batch (its file, its id, its status and counts). */
  update(localId: number, change: LedgerChange): void {
    const keys = (Object.keys(change) as (keyof LedgerChange)[]).filter((k) => change[k] !== undefined);
    const now = this.stamp();
    const sets = keys.map((k) => `${COLUMNS[k]} = ?`);
    const values: (string | number | null)[] = keys.map((k) => change[k] as string | number | null);
    sets.push("updated_at = ?");
    values.push(now);
    if (change.state !== undefined && ENDED.has(change.state)) {
      sets.push("ended_at = COALESCE(ended_at, ?)");
      values.push(now);
    }
    this.db.run(`UPDATE llm_batches SET ${sets.join(", ")} WHERE local_id = ?`, ...values, localId);
  }

  /** The outcome of the lines of an ended batch, all in one transaction (idempotent). */
  ingest(localId: number, lines: readonly LedgerLine[]): void {
    this.db.tx(() => {
      this.db.runMany(
        "UPDATE llm_batch_requests SET state = ?, status = ?, error = ?, input_tokens = ?, cached_input_tokens = ?, output_tokens = ?, reasoning_tokens = ? WHERE custom_id = ? AND local_id = ?",
        lines.map((l) => [
          l.state,
          l.status,
          l.error,
          l.inputTokens,
          l.cachedInputTokens ?? 0,
          l.outputTokens,
          l.reasoningTokens,
          l.customId,
          localId,
        ]),
      );
      const now = this.stamp();
      this.db.run(
        "UPDATE llm_batches SET ingested_at = ?, updated_at = ? WHERE local_id = ?",
        now,
        now,
        localId,
      );
    });
  }

  /** Every request of a batch failed at once (the batch failed validation, or was never sent). */
  failAll(localId: number, error: string): void {
    this.db.run(
      "UPDATE llm_batch_requests SET state = 'failed', error = ? WHERE local_id = ? AND state = 'pending'",
      error,
      localId,
    );
  }

  get(localId: number): LedgerBatch | undefined {
    if (!this.present) return undefined;
    const r = this.db.get<BatchRowSql>("SELECT * FROM llm_batches WHERE local_id = ?", localId);
    return r && batchOf(r);
  }

  /** The newest batch holding each custom id, with the request's state in it. */
  latest(customIds: readonly string[]): Map<string, { batch: LedgerBatch; state: LedgerRequestState }> {
    const out = new Map<string, { batch: LedgerBatch; state: LedgerRequestState }>();
    if (!this.present || customIds.length === 0) return out;
    const batches = new Map<number, LedgerBatch>();
    this.db.tx(() => {
      for (const id of customIds) {
        const r = this.db.get<{ local_id: number; state: LedgerRequestState }>(
          "SELECT local_id, state FROM llm_batch_requests WHERE custom_id = ? ORDER BY local_id DESC LIMIT 1",
          id,
        );
        if (!r) continue;
        let b = batches.get(r.local_id);
        if (!b) {
          b = batchOf(this.db.get<BatchRowSql>("SELECT * FROM llm_batches WHERE local_id = ?", r.local_id)!);
          batches.set(r.local_id, b);
        }
        out.set(id, { batch: b, state: r.state });
      }
    });
    return out;
  }

  /** Batches, newest first (of one run, or all). */
  list(runId?: string): LedgerBatch[] {
    if (!this.present) return [];
    const rows =
      runId === undefined
        ? this.db.all<BatchRowSql>("SELECT * FROM llm_batches ORDER BY local_id DESC")
        : this.db.all<BatchRowSql>(
            "SELECT * FROM llm_batches WHERE run_id = ? ORDER BY local_id DESC",
            runId,
          );
    return rows.map(batchOf);
  }

  /** Answered batch requests and their tokens, per run and agent (of one run, or all). */
  usage(runId?: string): BatchUsage[] {
    if (!this.present) return [];
    const sql = `SELECT b.run_id AS "runId", r.agent AS agent, b.model AS model, COUNT(*) AS requests,
        SUM(r.input_tokens) AS "inputTokens", ${this.cachedSum("r.")} AS "cachedInputTokens", SUM(r.output_tokens) AS "outputTokens", SUM(r.reasoning_tokens) AS "reasoningTokens"
      FROM llm_batch_requests r JOIN llm_batches b ON b.local_id = r.local_id
      WHERE r.state = 'answered' ${runId === undefined ? "" : "AND b.run_id = ?"}
      GROUP BY b.run_id, r.agent, b.model ORDER BY b.run_id, r.agent`;
    return runId === undefined ? this.db.all<BatchUsage>(sql) : this.db.all<BatchUsage>(sql, runId);
  }

  private cachedSum(alias: string): string {
    return this.withCached ? `SUM(${alias}cached_input_tokens)` : "0";
  }

  /** Answered requests and tokens of each batch (for its cost). */
  usageByBatch(): Map<number, BatchRequestTokens> {
    const out = new Map<number, BatchRequestTokens>();
    if (!this.present) return out;
    const rows = this.db.all<BatchRequestTokens & { localId: number }>(
      `SELECT local_id AS "localId", COUNT(*) AS requests, SUM(input_tokens) AS "inputTokens",
         ${this.cachedSum("")} AS "cachedInputTokens", SUM(output_tokens) AS "outputTokens"
         FROM llm_batch_requests WHERE state = 'answered' GROUP BY local_id`,
    );
    for (const r of rows) out.set(r.localId, r);
    return out;
  }
}

/** Answered requests of one batch and their tokens. */
export interface BatchRequestTokens {
  requests: number;
  inputTokens: number;
  /** Of the input tokens, the provider's prompt-cache hits. */
  cachedInputTokens: number;
  outputTokens: number;
}

/** Whether the ledger's requests table has its prompt-cache column (ledgers before it do not). */
function hasCachedColumn(db: SqlDb): boolean {
  const sql =
    db.dialect.name === "sqlite"
      ? "SELECT 1 FROM pragma_table_info('llm_batch_requests') WHERE name = 'cached_input_tokens'"
      : "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'llm_batch_requests' AND column_name = 'cached_input_tokens'";
  return db.value(sql) !== undefined;
}

/** The ledger of a store (its tables made on first use of a writable store). */
export function batchLedger(store: Store): BatchLedger {
  return store.extension("batches", BatchLedger.init);
}
