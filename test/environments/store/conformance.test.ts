/**
 * The store conformance suite: what every store must do, run against each database a store can
 * live in — SQLite always, PostgreSQL when the tests have a server (test/helpers/postgres.ts). The
 * same calls, the same answers: runs, tasks and trials (never stored twice), failed trials, usage
 * sums, filtered pages, the response cache, leases, the live log, the batch ledger, and resume.
 */
import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FailureRecord } from "../../../environments/kernel/failures.ts";
import { batchLedger } from "../../../environments/store/batches.ts";
import { type FailedTrial, Store, type StoredTrial } from "../../../environments/store/index.ts";
import { LEASE_BLOCK, TrialLeases } from "../../../environments/store/leases.ts";
import { liveEpisodes, runnersOf, TurnLog } from "../../../environments/store/live.ts";
import { countTrials, trialsAfter, trialWhere } from "../../../environments/store/trial-pages.ts";
import { tempDir } from "../../helpers/cli.ts";
import { freshDatabase, hasPostgres } from "../../helpers/postgres.ts";

interface Backend {
  name: string;
  /** A location for a new, empty store. */
  fresh(): Promise<string>;
}

const dropped: (() => Promise<void>)[] = [];
const backends: Backend[] = [
  { name: "SQLite", fresh: async () => path.join(tempDir(), "store.db") },
  ...(hasPostgres()
    ? [
        {
          name: "PostgreSQL",
          fresh: async () => {
            const db = await freshDatabase();
            dropped.push(db.drop);
            return db.url;
          },
        },
      ]
    : []),
];

afterAll(async () => {
  await Promise.all(dropped.map((d) => d()));
});

function trial(seq: number, over: Partial<StoredTrial> = {}): StoredTrial {
  return {
    runId: "r1",
    seq,
    trialKey: `k${seq}`,
    agent: seq % 2 === 0 ? "sim:a" : "sim:b",
    taskIndex: seq % 3,
    replicate: 0,
    nonResponse: seq % 5 === 0,
    agentError: false,
    resultJson: JSON.stringify({
      outcome: { price: 100 + seq, booked: seq % 4 !== 0, budget: 120, note: seq === 7 ? null : "n" },
      usage: {
        calls: 1,
        cacheHits: seq % 2,
        inputTokens: 10 * seq,
        outputTokens: 2,
        reasoningTokens: 0,
        latencyMs: 5,
      },
    }),
    ...over,
  };
}

function failedTrial(seq: number): FailedTrial {
  const failure: FailureRecord = { kind: "infrastructure", message: "no answer" };
  return {
    runId: "r1",
    seq,
    trialKey: `k${seq}`,
    agent: "sim:a",
    taskIndex: seq % 3,
    replicate: 0,
    failure,
    turns: 1,
    usage: { calls: 2, cacheHits: 0, inputTokens: 7, outputTokens: 0, reasoningTokens: 0, latencyMs: 9 },
  };
}

const TASKS = [
  { taskId: "t0", size: 2 },
  { taskId: "t1", size: 3 },
  { taskId: "t2", size: 5 },
];
const RUN = { id: "r1", env: "choice", config: { design: 1 }, total: 200 };

describe.each(backends)("store conformance: $name", (backend) => {
  let location = "";
  let store: Store;
  beforeAll(async () => {
    location = await backend.fresh();
    store = Store.open(location, { create: true });
  });
  afterAll(() => store?.close());

  it("opens a new store, marks it, and reopens it; a missing one is refused without create", async () => {
    expect(store.kind).toBe(backend.name === "SQLite" ? "sqlite" : "postgres");
    const again = Store.open(location, { create: false });
    again.close();
    const missing = backend.name === "SQLite" ? path.join(tempDir(), "none.db") : await backend.fresh();
    expect(() => Store.open(missing, { create: false })).toThrow(/no store at/);
  });

  it("refuses a database or file that holds something else, and leaves it untouched", async () => {
    const other = backend.name === "SQLite" ? path.join(tempDir(), "other.db") : await backend.fresh();
    const foreign = Store.open(other, { create: true });
    foreign
      .extension("foreign", (db) => db)
      .exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY); DROP TABLE meta");
    foreign.close();
    expect(() => Store.open(other, { create: true })).toThrow(/is not a bazaar store/);
  });

  it("registers a run with its tasks once; another configuration under the same id is refused", () => {
    expect(store.ensureRun(RUN, TASKS)).toEqual({ created: true });
    expect(store.ensureRun(RUN, TASKS)).toEqual({ created: false });
    expect(() => store.ensureRun({ ...RUN, config: { design: 2 } }, TASKS)).toThrow(
      /different configuration/,
    );
    expect(store.runTasks("r1")).toEqual(TASKS);
    expect(store.getRun("r1")).toMatchObject({ id: "r1", env: "choice", total: 200, done: 0, failed: 0 });
  });

  it("stores each trial once, streams them in seq order with their tasks, and counts them", () => {
    store.writeTrials([trial(2), trial(0), trial(1)]);
    store.writeTrials([
      trial(0, { resultJson: "{}" }),
      ...Array.from({ length: 97 }, (_, i) => trial(i + 3)),
    ]);
    const rows = [...store.trialRows("r1")];
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(rows[0]!.result).toEqual(JSON.parse(trial(0).resultJson)); // the first write stands
    expect(rows[4]!.task).toEqual(TASKS[1]);
    const done = store.doneSeqs("r1", 200);
    expect(done.reduce((a, b) => a + b, 0)).toBe(100);
    expect(done[99]).toBe(1);
    expect(done[100]).toBe(0);
    expect(store.getRun("r1")).toMatchObject({ done: 100, nonResponses: 20, agents: ["sim:a", "sim:b"] });
    expect(store.trialRowsAt("r1", [5, 150, 1]).map((r) => [r.seq, r.trialKey])).toEqual([
      [1, "k1"],
      [5, "k5"],
    ]);
    expect(store.listRuns().map((r) => r.id)).toEqual(["r1"]);
  });

  it("keeps failed trials apart, never over a finished one, and lets a finished attempt replace them", () => {
    store.writeTrials([], [failedTrial(150), failedTrial(151), failedTrial(5)]);
    expect(store.failedCount("r1")).toBe(2); // seq 5 is stored: its failed attempt is moot
    expect(store.failedTrials("r1").map((f) => [f.seq, f.failure.kind, f.usage.calls])).toEqual([
      [150, "infrastructure", 2],
      [151, "infrastructure", 2],
    ]);
    store.writeTrials([], [failedTrial(150)]); // failed again: still one row
    expect(store.failedCount("r1")).toBe(2);
    store.writeTrials([trial(150)]);
    expect(store.failedTrials("r1").map((f) => f.seq)).toEqual([151]);
    expect(store.getRun("r1")).toMatchObject({ done: 101, failed: 1 });
  });

  it("sums usage per agent over stored and failed trials", () => {
    const byAgent = store.usageByAgent("r1");
    const a = byAgent.find((u) => u.agent === "sim:a")!;
    const b = byAgent.find((u) => u.agent === "sim:b")!;
    const evens = [...Array.from({ length: 50 }, (_, i) => 2 * i), 150];
    expect(a.trials).toBe(51);
    expect(a.usage.calls).toBe(51 + 2); // the failed trial 151's two calls
    expect(a.usage.inputTokens).toBe(evens.reduce((s, x) => s + 10 * x, 0) + 7);
    expect(b.trials).toBe(50);
    expect(b.usage.cacheHits).toBe(50);
  });

  it("pages trials by keyset with filters on columns, result and task JSON", () => {
    const all = trialsAfter(store, "r1", -1, 10);
    expect(all.map((t) => t.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(all[0]).toMatchObject({ nonResponse: true, agentError: false, task: TASKS[0] });
    const booked = trialWhere("r1", [{ json: "result", path: "$.outcome.booked", op: "=", value: true }]);
    const stored = [...Array.from({ length: 100 }, (_, i) => i), 150];
    expect(countTrials(store, "r1", booked)).toBe(stored.filter((s) => s % 4 !== 0).length);
    const cheap = trialWhere("r1", [
      { column: "agent", equals: "sim:b" },
      { json: "result", path: "$.outcome.price", op: "<", value: 110 },
    ]);
    expect(trialsAfter(store, "r1", -1, 100, cheap).map((t) => t.seq)).toEqual([1, 3, 5, 7, 9]);
    const over = trialWhere("r1", [
      { json: "result", path: "$.outcome.price", op: ">", otherPath: "$.outcome.budget" },
    ]);
    expect(countTrials(store, "r1", over)).toBe(stored.filter((s) => 100 + s > 120).length);
    const nulls = trialWhere("r1", [{ json: "result", path: "$.outcome.note", op: "is null" }]);
    expect(trialsAfter(store, "r1", -1, 10, nulls).map((t) => t.seq)).toEqual([7]);
    const fives = trialWhere("r1", [{ json: "task", path: "$.size", op: "=", value: 5 }]);
    expect(trialsAfter(store, "r1", 90, 3, fives).map((t) => t.seq)).toEqual([92, 95, 98]);
    const text = trialWhere("r1", [{ json: "task", path: "$.taskId", op: "=", value: "t1" }]);
    expect(countTrials(store, "r1", text)).toBe(stored.filter((s) => s % 3 === 1).length);
  });

  it("writes cached responses with the next trials and at close: another connection finds them then", async () => {
    const location = await backend.fresh();
    const a = Store.open(location, { create: true });
    const b = Store.open(location, { create: false });
    try {
      a.ensureRun({ id: "C", env: "choice", config: {}, total: 2 });
      a.responseCache().put("first", "m", { text: "1" } as never);
      expect(a.responseCache().get("first")).toEqual({ text: "1" });
      expect(b.responseCache().get("first")).toBeUndefined(); // not yet written
      a.writeTrials([trial(0, { runId: "C" })]);
      expect(b.responseCache().get("first")).toEqual({ text: "1" });
      a.responseCache().put("second", "m", { text: "2" } as never);
      a.close();
      expect(b.responseCache().get("second")).toEqual({ text: "2" });
    } finally {
      a.close();
      b.close();
    }
  });

  it("caches responses by key, replaces them, counts them per model and clears them", () => {
    const cache = store.responseCache();
    expect(cache.get("k")).toBeUndefined();
    cache.put("k", "m1", { text: "a" } as never);
    cache.put("k", "m1", { text: "b" } as never);
    cache.put("j", "m2", { text: "c" } as never);
    expect(cache.get("k")).toEqual({ text: "b" });
    expect(cache.stats()).toEqual({
      entries: 2,
      byModel: [
        { model: "m1", entries: 1 },
        { model: "m2", entries: 1 },
      ],
    });
    expect(cache.clear("m2")).toBe(1);
    expect(cache.clear()).toBe(1);
    expect(cache.stats().entries).toBe(0);
  });

  it("leases: two runners claim different blocks; a live lease is busy, an expired one is taken over", () => {
    store.ensureRun({ id: "L", env: "choice", config: {}, total: 4 * LEASE_BLOCK });
    const t0 = 1_000_000;
    const a = new TrialLeases(store, "L", "A", 4 * LEASE_BLOCK, 1000);
    const b = new TrialLeases(store, "L", "B", 4 * LEASE_BLOCK, 1000);
    const a1 = a.claim(t0);
    const b1 = b.claim(t0);
    expect(a1).toMatchObject({ block: 0 });
    expect(b1).toMatchObject({ block: 1 });
    expect((a1 as { seqs: number[] }).seqs).toHaveLength(LEASE_BLOCK);
    expect(a.claim(t0)).toMatchObject({ block: 2 });
    expect(b.claim(t0)).toMatchObject({ block: 3 });
    // Everything is held: B sees A's two blocks as busy until they run out.
    expect(b.claim(t0 + 10)).toEqual({ block: -1, others: 2, nextExpiry: t0 + 1000 });
    // A wrote block 0 and let it go; block 2's lease ran out (A went silent): B takes it over.
    store.writeTrials(Array.from({ length: LEASE_BLOCK }, (_, i) => trial(i, { runId: "L" })));
    a.done(0);
    expect(b.claim(t0 + 2000)).toMatchObject({ block: 2 });
    expect(b.claim(t0 + 2000)).toBeNull(); // block 0 was done: nothing left for B
    a.end();
  });

  it("leases of a killed runner of this machine are free at once on SQLite; others' are waited out", () => {
    store.ensureRun({ id: "K", env: "choice", config: {}, total: 3 * LEASE_BLOCK });
    const t0 = Date.now();
    // A process that has ended (its pid free), one that is alive (this one's parent), another machine.
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid!;
    const owners = [`${hostname()}:${gone}:k1`, `${hostname()}:${process.ppid}:k2`, "elsewhere:1:k3"];
    for (const [i, o] of owners.entries())
      expect(new TrialLeases(store, "K", o, 3 * LEASE_BLOCK, 60_000).claim(t0)).toMatchObject({ block: i });
    const next = new TrialLeases(store, "K", "next", 3 * LEASE_BLOCK, 60_000);
    if (backend.name === "SQLite") {
      // The ended process's block, without waiting a minute for its lease; then the two live ones.
      expect(next.claim(t0 + 10)).toMatchObject({ block: 0 });
      expect(next.claim(t0 + 10)).toMatchObject({ block: -1, others: 2 });
    } else {
      // Runners on many machines, perhaps two with one host name: every lease is waited out.
      expect(next.claim(t0 + 10)).toMatchObject({ block: -1, others: 3 });
    }
  });

  it("the live log: turns of episodes in flight are written on the second flush, dropped when stored", () => {
    store.ensureRun({ id: "T", env: "bargain", config: {}, total: 10 });
    const log = new TurnLog(store, "T", "runner-1");
    log.started(3, "sim:a");
    log.turn(3, { turn: 0, role: "buyer", action: { offer: 10 }, summary: "hello", at: 1 });
    log.flush(); // in flight at this flush: written from the next one
    expect(liveEpisodes(store, "T")).toEqual([]);
    log.turn(3, () => ({ turn: 1, role: "seller", action: { offer: 12 }, summary: "counter", at: 2 }));
    log.flush();
    const eps = liveEpisodes(store, "T");
    expect(eps).toHaveLength(1);
    expect(eps[0]).toMatchObject({ seq: 3, agent: "sim:a" });
    expect(eps[0]!.turns.map((t) => t.summary)).toEqual(["hello", "counter"]);
    // Ten turns and more stay in the order they were played (not the JSON text's).
    for (let t = 2; t < 12; t++)
      log.turn(3, { turn: t, role: "buyer", action: { offer: t }, summary: `t${t}`, at: t });
    log.flush();
    expect(liveEpisodes(store, "T")[0]!.turns.map((t) => t.turn)).toEqual(
      Array.from({ length: 12 }, (_, i) => i),
    );
    expect(runnersOf(store, "T")).toMatchObject([{ runner: "runner-1", endedAt: null, status: "running" }]);
    log.settled(3);
    log.ended(3);
    log.end("finished");
    expect(liveEpisodes(store, "T")).toEqual([]);
    expect(runnersOf(store, "T")[0]).toMatchObject({ status: "finished" });
    expect(runnersOf(store, "T")[0]!.endedAt).toBeGreaterThan(0);
  });

  it("the batch ledger: opens a batch with its requests, updates it, ingests its lines, sums usage", () => {
    const ledger = batchLedger(store);
    const id = ledger.open({
      runId: "r1",
      baseURL: "http://x",
      model: "m",
      bytes: 100,
      requests: [
        { customId: "c1", agent: "sim:a" },
        { customId: "c2", agent: "sim:a" },
      ],
    });
    const id2 = ledger.open({
      runId: "r1",
      baseURL: "http://x",
      model: "m",
      bytes: 5,
      requests: [{ customId: "c2", agent: "sim:a" }],
    });
    expect(id2).toBeGreaterThan(id);
    ledger.update(id, { state: "completed", batchId: "b1", completed: 2 });
    expect(ledger.get(id)).toMatchObject({ state: "completed", batchId: "b1", requests: 2, completed: 2 });
    expect(ledger.get(id)!.endedAt).not.toBeNull();
    ledger.ingest(id, [
      {
        customId: "c1",
        state: "answered",
        status: 200,
        error: null,
        inputTokens: 5,
        cachedInputTokens: 3,
        outputTokens: 1,
        reasoningTokens: 0,
      },
      {
        customId: "c2",
        state: "failed",
        status: 500,
        error: "x",
        inputTokens: 0,
        outputTokens: 0,
        reasoningTokens: 0,
      },
    ]);
    expect(ledger.usage("r1")).toEqual([
      {
        runId: "r1",
        agent: "sim:a",
        model: "m",
        requests: 1,
        inputTokens: 5,
        cachedInputTokens: 3,
        outputTokens: 1,
        reasoningTokens: 0,
      },
    ]);
    const latest = ledger.latest(["c1", "c2", "c3"]);
    expect(latest.get("c1")).toMatchObject({ state: "answered", batch: { localId: id } });
    expect(latest.get("c2")).toMatchObject({ state: "pending", batch: { localId: id2 } });
    expect(latest.has("c3")).toBe(false);
    ledger.failAll(id2, "never sent");
    expect(ledger.latest(["c2"]).get("c2")!.state).toBe("failed");
    expect(ledger.list("r1").map((b) => b.localId)).toEqual([id2, id]);
    expect(ledger.usageByBatch().get(id)).toEqual({
      localId: id,
      requests: 1,
      inputTokens: 5,
      cachedInputTokens: 3,
      outputTokens: 1,
    });
  });

  it("counts per agent the non-responses whose agent error holds given words", () => {
    store.ensureRun({ id: "W", env: "shop", config: {}, total: 4 });
    const left = (seq: number, agent: string, error: string, nonResponse = true) =>
      trial(seq, {
        runId: "W",
        agent,
        agentError: true,
        nonResponse,
        resultJson: JSON.stringify({ outcome: { nonResponse: { reason: `agent error: ${error}` } } }),
      });
    store.writeTrials([
      left(0, "mcp:a", "left without acting 3 times: …"),
      left(1, "mcp:a", "left without acting 3 times: …"),
      left(2, "mcp:b", "the agent exited (code 0) before the episode was over"),
      left(3, "mcp:b", "left without acting 1 time: …"),
    ]);
    expect(store.agentErrorsHolding("W", "left without acting")).toEqual([
      { agent: "mcp:a", trials: 2 },
      { agent: "mcp:b", trials: 1 },
    ]);
    expect(store.agentErrorsHolding("r1", "left without acting")).toEqual([]);
    expect(() => store.agentErrorsHolding("W", "50%")).toThrow("wildcard");
  });

  it("deletes agent-error trials so that the run redoes them", () => {
    store.ensureRun({ id: "E", env: "choice", config: {}, total: 3 });
    store.writeTrials([0, 1, 2].map((s) => trial(s, { runId: "E", agentError: s === 1 })));
    expect(store.deleteAgentErrorTrials("E")).toBe(1);
    expect(Array.from(store.doneSeqs("E", 3))).toEqual([1, 0, 1]);
  });

  it("a read-only open reads everything and writes nothing", () => {
    const ro = Store.open(location, { create: false, readonly: true });
    try {
      expect(ro.getRun("r1")?.done).toBe(101);
      expect(() => ro.writeTrials([trial(180)])).toThrow();
    } finally {
      ro.close();
    }
    expect(store.getRun("r1")?.done).toBe(101);
  });
});
