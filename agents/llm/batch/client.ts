/**
 * The Files and Batches endpoints through the real OpenAI client (the one @langchain/openai ships):
 * upload an input file, create a batch over it, retrieve, cancel and list batches, and read an
 * output or error file a line at a time (never whole in memory). Its own retries are off: the batch
 * host retries with backoff and knows which failures are worth it.
 */
import { OpenAIClient, toFile } from "@langchain/openai";
import { BATCH_ENDPOINT } from "./lines.ts";

/** The fields of a provider's batch object that bazaar reads. */
export interface ProviderBatch {
  id: string;
  status: string;
  input_file_id: string;
  output_file_id?: string | null;
  error_file_id?: string | null;
  created_at: number;
  request_counts?: { total: number; completed: number; failed: number } | null;
  errors?: { data?: { code?: string | null; message?: string | null; line?: number | null }[] } | null;
  metadata?: Record<string, string> | null;
}

/** Every call takes a signal: a stopped run stops its uploads, polls and downloads at once. */
export interface BatchApiClient {
  upload(lines: readonly string[], filename: string, signal?: AbortSignal): Promise<string>;
  create(fileId: string, metadata: Record<string, string>, signal?: AbortSignal): Promise<ProviderBatch>;
  retrieve(batchId: string, signal?: AbortSignal): Promise<ProviderBatch>;
  cancel(batchId: string, signal?: AbortSignal): Promise<ProviderBatch>;
  /** Batches newest first, as many pages as the caller reads. */
  list(signal?: AbortSignal): AsyncIterable<ProviderBatch>;
  /** The lines of a file, read as they arrive. */
  lines(fileId: string, signal?: AbortSignal): AsyncIterable<string>;
}

/** Upload and download of a 200 MB file may take minutes; polls are small. */
const FILE_TIMEOUT_MS = 30 * 60 * 1000;
const CALL_TIMEOUT_MS = 120_000;

export class OpenAIBatchClient implements BatchApiClient {
  private readonly api: OpenAIClient;

  constructor(baseURL: string, apiKey: string | undefined, fetch?: typeof globalThis.fetch) {
    this.api = new OpenAIClient({
      baseURL,
      apiKey: apiKey ?? "not-needed",
      maxRetries: 0,
      timeout: CALL_TIMEOUT_MS,
      ...(fetch ? { fetch } : {}),
    });
  }

  async upload(lines: readonly string[], filename: string, signal?: AbortSignal): Promise<string> {
    // One string per file: the Blob copies it once into UTF-8, the multipart body streams from it.
    const file = await toFile(new Blob([`${lines.join("\n")}\n`]), filename, { type: "application/jsonl" });
    const created = await this.api.files.create(
      { file, purpose: "batch" },
      { timeout: FILE_TIMEOUT_MS, signal },
    );
    return created.id;
  }

  create(fileId: string, metadata: Record<string, string>, signal?: AbortSignal): Promise<ProviderBatch> {
    return this.api.batches.create(
      { input_file_id: fileId, endpoint: BATCH_ENDPOINT, completion_window: "24h", metadata },
      { signal },
    ) as Promise<ProviderBatch>;
  }

  retrieve(batchId: string, signal?: AbortSignal): Promise<ProviderBatch> {
    return this.api.batches.retrieve(batchId, { signal }) as Promise<ProviderBatch>;
  }

  cancel(batchId: string, signal?: AbortSignal): Promise<ProviderBatch> {
    return this.api.batches.cancel(batchId, { signal }) as Promise<ProviderBatch>;
  }

  async *list(signal?: AbortSignal): AsyncIterable<ProviderBatch> {
    for await (const b of this.api.batches.list({ limit: 100 }, { signal })) yield b as ProviderBatch;
  }

  async *lines(fileId: string, signal?: AbortSignal): AsyncIterable<string> {
    const res = await this.api.files.content(fileId, { timeout: FILE_TIMEOUT_MS, signal });
    if (!res.body) return;
    const decoder = new TextDecoder();
    let rest = "";
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      rest += decoder.decode(chunk, { stream: true });
      let nl = rest.indexOf("\n");
      let start = 0;
      while (nl >= 0) {
        const line = rest.slice(start, nl);
        if (line.trim() !== "") yield line;
        start = nl + 1;
        nl = rest.indexOf("\n", start);
      }
      rest = rest.slice(start);
    }
    rest += decoder.decode();
    if (rest.trim() !== "") yield rest;
  }
}
