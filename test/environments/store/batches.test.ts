import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { BatchLedger } from "../../../agents/llm/batch/index.ts";
import { batchLedger, type LedgerLine } from "../../../environments/store/batches.ts";
import { Store } from "../../../environments/store/index.ts";
import { tempDir } from "../../helpers/cli.ts";

/** `tokens`: input, output, reasoning and (optional) the input's prompt-cache hits. */
function line(customId: string, state: "answered" | "failed", tokens = [0, 0, 0]): LedgerLine {
  return {
    customId,
    state,
    status: state === "answered" ? 200 : 500,
    error: state === "answered" ? null : "HTTP 500: boom",
    inputTokens: tokens[0]!,
    ...(tokens[3] === undefined ? {} : { cachedInputTokens: tokens[3] }),
    outputTokens: tokens[1]!,
    reasoningTokens: tokens[2]!,
  };
}

const chunk = (runId: string, ids: string[], agent = "openai:m") => ({
  runId,
  baseURL: "http://x/v1",
  model: "m",
  bytes: 100 * ids.length,
  requests: ids.map((customId) => ({ customId, agent })),
});

describe("the batch ledger", () => {
  it("is the batch host's ledger: a batch's life from upload to ingested lines", () => {
    const store = Store.open(path.join(tempDir(), "s.db"), { create: true });
    // The store's class is what the batch host asks for (checked by the compiler here).
    const ledger: BatchLedger = batchLedger(store);
    const id = ledger.open(chunk("r1", ["a", "b", "c"]));
    expect(batchLedger(store).get(id)).toMatchObject({
      state: "uploading",
      requests: 3,
      bytes: 300,
      batchId: null,
    });
    ledger.update(id, { state: "uploaded", fileId: "file-1" });
    ledger.update(id, { state: "validating", batchId: "batch_1" });
    expect(ledger.latest(["a", "zz"])).toEqual(
      new Map([
        [
          "a",
          {
            batch: expect.objectContaining({
              localId: id,
              batchId: "batch_1",
              fileId: "file-1",
              state: "validating",
            }),
            state: "pending",
          },
        ],
      ]),
    );
    ledger.update(id, {
      state: "completed",
      completed: 2,
      failed: 1,
      outputFileId: "file-2",
      errorFileId: "file-3",
    });
    ledger.ingest(id, [
      line("a", "answered", [10, 2, 1, 4]),
      line("b", "answered", [20, 3, 0]),
      line("c", "failed"),
    ]);
    ledger.ingest(id, [
      line("a", "answered", [10, 2, 1, 4]),
      line("b", "answered", [20, 3, 0]),
      line("c", "failed"),
    ]);
    const b = batchLedger(store).get(id)!;
    expect(b).toMatchObject({
      state: "completed",
      completed: 2,
      failed: 1,
      outputFileId: "file-2",
      errorFileId: "file-3",
    });
    expect(b.endedAt).not.toBeNull();
    expect(b.ingestedAt).not.toBeNull();
    expect([...ledger.latest(["a", "b", "c"]).values()].map((x) => x.state)).toEqual([
      "answered",
      "answered",
      "failed",
    ]);
    // Ingesting twice counted nothing twice.
    expect(batchLedger(store).usage("r1")).toEqual([
      {
        runId: "r1",
        agent: "openai:m",
        model: "m",
        requests: 2,
        inputTokens: 30,
        cachedInputTokens: 4,
        outputTokens: 5,
        reasoningTokens: 1,
      },
    ]);
    expect(batchLedger(store).usageByBatch().get(id)).toEqual({
      localId: id,
      requests: 2,
      inputTokens: 30,
      cachedInputTokens: 4,
      outputTokens: 5,
    });
    store.close();
  });

  it("says where a request sent again stands: its newest batch", () => {
    const store = Store.open(path.join(tempDir(), "s.db"), { create: true });
    const ledger = batchLedger(store);
    const first = ledger.open(chunk("r1", ["a", "b"]));
    ledger.update(first, { state: "expired", batchId: "batch_1" });
    ledger.ingest(first, [
      line("a", "answered", [5, 1, 0]),
      { ...line("b", "failed"), status: null, error: "batch_expired: …" },
    ]);
    const second = ledger.open(chunk("r1", ["b"]));
    ledger.update(second, { state: "in_progress", batchId: "batch_2" });
    const latest = ledger.latest(["a", "b"]);
    expect(latest.get("a")).toMatchObject({ batch: { localId: first }, state: "answered" });
    expect(latest.get("b")).toMatchObject({
      batch: { localId: second, state: "in_progress" },
      state: "pending",
    });
    expect(ledger.list().map((b) => b.localId)).toEqual([second, first]);
    expect(ledger.list("r1")).toHaveLength(2);
    expect(ledger.list("other")).toEqual([]);
    store.close();
  });

  it("fails every pending request of a batch at once, and keeps what each batch came to", () => {
    const store = Store.open(path.join(tempDir(), "s.db"), { create: true });
    const ledger = batchLedger(store);
    const id = ledger.open(chunk("r2", ["x", "y"], "openai:n"));
    ledger.update(id, { state: "unsent", error: "HTTP 503: down" });
    ledger.failAll(id, "HTTP 503: down");
    expect([...ledger.latest(["x", "y"]).values()].map((v) => [v.state, v.batch.state])).toEqual([
      ["failed", "unsent"],
      ["failed", "unsent"],
    ]);
    expect(ledger.get(id)).toMatchObject({ error: "HTTP 503: down" });
    expect(ledger.get(id)!.endedAt).not.toBeNull();
    expect(ledger.usage("r2")).toEqual([]);
    store.close();
  });

  it("reads nothing, and writes nothing, on a read-only store made before batches", () => {
    const file = path.join(tempDir(), "s.db");
    Store.open(file, { create: true }).close();
    const ro = Store.open(file, { create: false, readonly: true });
    const ledger = batchLedger(ro);
    expect(ledger.list()).toEqual([]);
    expect(ledger.usage()).toEqual([]);
    expect(ledger.latest(["a"]).size).toBe(0);
    expect(ledger.usageByBatch().size).toBe(0);
    ro.close();
    // And a read-only open of a store with batches reads them.
    const rw = Store.open(file, { create: true });
    batchLedger(rw).open(chunk("r", ["q"]));
    rw.close();
    const again = Store.open(file, { create: false, readonly: true });
    expect(batchLedger(again).list()).toHaveLength(1);
    again.close();
  });

  it("keeps its rows across processes: a reopened store finds the batches", () => {
    const file = path.join(tempDir(), "s.db");
    const a = Store.open(file, { create: true });
    const id = batchLedger(a).open(chunk("r", ["k1", "k2"]));
    batchLedger(a).update(id, { state: "in_progress", batchId: "batch_9" });
    a.close();
    const b = Store.open(file, { create: true });
    expect(batchLedger(b).latest(["k2"]).get("k2")).toMatchObject({
      batch: { batchId: "batch_9" },
      state: "pending",
    });
    b.close();
  });

  it("a ledger written before batch prompt-cache hits were kept: reads 0 read-only, gains the column writable", () => {
    const file = path.join(tempDir(), "s.db");
    const a = Store.open(file, { create: true });
    const id = batchLedger(a).open(chunk("r", ["k1"]));
    batchLedger(a).ingest(id, [line("k1", "answered", [100, 5, 0, 60])]);
    a.close();
    // As the ledger was before the column.
    const raw = new Database(file);
    raw.exec("ALTER TABLE llm_batch_requests DROP COLUMN cached_input_tokens");
    raw.close();
    const ro = Store.open(file, { create: false, readonly: true });
    expect(batchLedger(ro).usage("r")).toMatchObject([{ inputTokens: 100, cachedInputTokens: 0 }]);
    expect(batchLedger(ro).usageByBatch().get(id)).toMatchObject({ cachedInputTokens: 0 });
    ro.close();
    const rw = Store.open(file, { create: true });
    const second = batchLedger(rw).open(chunk("r", ["k2"]));
    batchLedger(rw).ingest(second, [line("k2", "answered", [50, 5, 0, 30])]);
    expect(batchLedger(rw).usage("r")).toMatchObject([{ inputTokens: 150, cachedInputTokens: 30 }]);
    rw.close();
  });
});
