/**
 * The batch host under the real runner, against serve-sim's batch API through the OpenAI client:
 * the same trials as live, rounds within the provider's limits, faults retried into later batches,
 * and resumption — a stopped run's batches are waited on, never sent again.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { BatchApiClient } from "../../../agents/llm/batch/client.ts";
import { createBatchHost, OpenAIBatchClient, preflightBatchApi } from "../../../agents/llm/batch/index.ts";
import { type LlmContext, resolveChoiceAgent } from "../../../agents/registry.ts";
import { startSimServer } from "../../../agents/serve-sim/index.ts";
import type { SimServer, SimServerOptions } from "../../../agents/serve-sim/types.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../../../environments/choice/design.ts";
import { choiceEnvironment } from "../../../environments/choice/environment.ts";
import { UserError } from "../../../environments/kernel/errors.ts";
import { executeRun, RunStopped } from "../../../environments/runner/execute.ts";
import { planRun } from "../../../environments/runner/plan.ts";
import { batchLedger } from "../../../environments/store/batches.ts";
import { Store } from "../../../environments/store/index.ts";
import { tempDir } from "../../helpers/cli.ts";

const tasks = buildChoiceTasks(
  { pairs: 30, pairAppearances: 1, triples: 0, fives: 0, seed: 5 },
  DEFAULT_HOTEL_POOL,
);
const servers: SimServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function server(options: SimServerOptions = {}): Promise<SimServer> {
  const s = await startSimServer({ port: 0, ...options });
  servers.push(s);
  return s;
}

function planFor(s: SimServer, model = "sim-noisy", llm: Partial<LlmContext> = {}, settings = {}) {
  const store = Store.open(path.join(tempDir(), "s.db"), { create: true });
  const ctx: LlmContext = {
    settings: { baseURL: s.url, maxRetries: 5, ...settings },
    cache: store.responseCache(),
    ...llm,
  };
  const plan = planRun({
    env: choiceEnvironment,
    settings: { maxReasks: 2 },
    tasks,
    agents: [resolveChoiceAgent(`openai:${model}`, ctx)],
    replicates: 1,
    design: { test: "batch-host" },
  });
  return { plan, store };
}

const FAST = { pollMs: { min: 5, max: 40 }, quietMs: 30 };

function host(store: Store, runId: string, extra: Partial<Parameters<typeof createBatchHost>[0]> = {}) {
  return createBatchHost({
    runId,
    ledger: batchLedger(store),
    cache: store.responseCache(),
    ...FAST,
    ...extra,
  });
}

/** What a trial came to: the chosen slot and every reply (re-asks included). */
function outcomes(store: Store, runId: string) {
  return [...store.trialRows(runId)].map((r) => {
    const o = (r.result as { outcome: { chosenSlot: number | null; replies: string[] } }).outcome;
    return [r.seq, r.trialKey, o.chosenSlot, o.replies];
  });
}

async function live(s: SimServer, model = "sim-noisy") {
  const { plan, store } = planFor(s, model);
  await executeRun(plan, store, { concurrency: 8 });
  return outcomes(store, plan.runId);
}

async function until(cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("a batch run under the runner", () => {
  it("stores the trials a live run stores, a round per turn, each round within the limits", async () => {
    const s = await server();
    const reference = await live(s);
    const { plan, store } = planFor(s);
    const before = s.stats().batches;
    const h = host(store, plan.runId, { limits: { requests: 25, bytes: 10_000_000 } });
    const result = await executeRun(plan, store, { concurrency: 1000, hostAgents: h.hostAgents });
    expect(result.stored).toBe(tasks.length);
    expect(outcomes(store, plan.runId)).toEqual(reference);
    const after = s.stats().batches;
    const c = h.counts();
    // Round one: 60 first turns in batches of at most 25; then a round per re-ask of the off-format replies.
    const reasks = reference.reduce((a, r) => a + (r[3] as string[]).length - 1, 0);
    expect(reasks).toBeGreaterThan(0);
    expect(c.requests).toBe(tasks.length + reasks);
    expect(after.lines - before.lines).toBe(c.requests);
    expect(c.submitted).toBeGreaterThanOrEqual(4);
    expect(after.batches - before.batches).toBe(c.submitted);
    expect(after.resubmitted - before.resubmitted).toBe(0);
    const batches = batchLedger(store).list(plan.runId);
    expect(batches.every((b) => b.requests <= 25 && b.state === "completed" && b.ingestedAt !== null)).toBe(
      true,
    );
    expect(batchLedger(store).usage(plan.runId)[0]).toMatchObject({
      requests: c.requests,
      agent: "openai:sim-noisy",
    });
    // The answers are in the response cache: the same requests in another run send nothing.
    const again = planRun({
      env: choiceEnvironment,
      settings: plan.settings,
      tasks,
      agents: plan.agents,
      replicates: 1,
      design: { test: "another run" },
    });
    expect(again.runId).not.toBe(plan.runId);
    const h2 = host(store, again.runId);
    const rerun = await executeRun(again, store, { concurrency: 1000, hostAgents: h2.hostAgents });
    expect(rerun.stored).toBe(tasks.length);
    expect(h2.counts().submitted).toBe(0);
    expect(s.stats().batches.batches).toBe(after.batches);
    store.close();
  });

  it("sends failed lines again in a later round; with no retries left the trial is failed, not an answer", async () => {
    const s = await server({ seed: 3, batch: { failRate: 0.3 } });
    const reference = await live(s);
    // A line's fault draw is a function of its request and its attempt alone (not of the custom id,
    // a cache key that holds the server's port), so the same lines fail as often on every run: with
    // seed 3 no line needs more than three of the six tries five retries allow (at seed 0 one needs
    // all six, and its backoffs add five seconds to the run).
    const { plan, store } = planFor(s);
    const h = host(store, plan.runId);
    const result = await executeRun(plan, store, { concurrency: 1000, hostAgents: h.hostAgents });
    expect(result.failed).toBe(0);
    expect(outcomes(store, plan.runId)).toEqual(reference);
    const stats = s.stats().batches;
    expect(stats.failedLines).toBeGreaterThan(5);
    // Every failed line went again; nothing else did.
    expect(stats.resubmitted).toBe(stats.failedLines);
    expect(h.counts().failed).toBe(stats.failedLines);

    const noRetry = planFor(s, "sim-steep", {}, { maxRetries: 0 });
    const h0 = host(noRetry.store, noRetry.plan.runId);
    const r0 = await executeRun(noRetry.plan, noRetry.store, {
      concurrency: 1000,
      hostAgents: h0.hostAgents,
    });
    expect(r0.failed).toBeGreaterThan(0);
    expect(r0.stored + r0.failed).toBe(tasks.length);
    expect(noRetry.store.failedTrials(noRetry.plan.runId)[0]!.failure).toMatchObject({
      kind: "infrastructure",
      message: expect.stringMatching(/HTTP 500/),
    });
    store.close();
    noRetry.store.close();
  });

  it("keeps the answered half of an expired batch and sends only the rest again", async () => {
    const s = await server({ batch: { expire: [1] } });
    const { plan, store } = planFor(s, "sim-steep");
    const h = host(store, plan.runId);
    await executeRun(plan, store, { concurrency: 1000, hostAgents: h.hostAgents });
    const stats = s.stats().batches;
    expect(stats.expiredLines).toBe(tasks.length / 2);
    expect(stats.resubmitted).toBe(tasks.length / 2);
    expect(stats.lines).toBe(tasks.length * 1.5);
    expect(
      batchLedger(store)
        .list(plan.runId)
        .map((b) => b.state),
    ).toEqual(["completed", "expired"]);
    expect(outcomes(store, plan.runId)).toEqual(await live(s, "sim-steep"));
    store.close();
  });
});

describe("a stopped batch run resumes", () => {
  it("waits on the batch it sent before, never sending it again", async () => {
    const s = await server({ batch: { delayMs: 1500 } });
    const { plan, store } = planFor(s, "sim-steep");
    const stop = new AbortController();
    const first = executeRun(plan, store, {
      concurrency: 1000,
      hostAgents: host(store, plan.runId).hostAgents,
      signal: stop.signal,
    });
    // Stop once the ledger holds the batch's id: a stop between the provider's create and the ledger's
    // write is the adoption case, tested on its own below.
    await until(() => batchLedger(store).list(plan.runId)[0]?.batchId != null);
    stop.abort();
    const stopped = await first;
    expect(stopped.interrupted).toBe(true);
    expect(stopped.stored).toBe(0);
    expect(
      batchLedger(store)
        .list(plan.runId)
        .map((b) => b.state),
    ).toEqual(["validating"]);

    const h = host(store, plan.runId);
    const resumed = await executeRun(plan, store, { concurrency: 1000, hostAgents: h.hostAgents });
    expect(resumed.stored).toBe(tasks.length);
    expect(h.counts()).toMatchObject({ submitted: 0, resumed: 1, answered: tasks.length });
    expect(s.stats().batches).toMatchObject({ batches: 1, lines: tasks.length, resubmitted: 0 });
    expect(outcomes(store, plan.runId)).toEqual(await live(s, "sim-steep"));
    store.close();
  });

  it("sends again what a batch answered when its files are gone (deleted by the provider)", async () => {
    const s = await server({ batch: { delayMs: 300 } });
    const { plan, store } = planFor(s, "sim-steep");
    const stop = new AbortController();
    const first = executeRun(plan, store, {
      concurrency: 1000,
      hostAgents: host(store, plan.runId).hostAgents,
      signal: stop.signal,
    });
    // Stop once the ledger holds the batch's id: a stop between the provider's create and the ledger's
    // write is the adoption case, tested on its own below.
    await until(() => batchLedger(store).list(plan.runId)[0]?.batchId != null);
    stop.abort();
    await first;
    const client = new OpenAIBatchClient(s.url, undefined);
    const batchId = batchLedger(store).list(plan.runId)[0]!.batchId!;
    let done = await client.retrieve(batchId);
    while (done.status !== "completed") {
      await new Promise((r) => setTimeout(r, 20));
      done = await client.retrieve(batchId);
    }
    expect((await fetch(`${s.url}/files/${done.output_file_id}`, { method: "DELETE" })).status).toBe(200);

    const h = host(store, plan.runId);
    const resumed = await executeRun(plan, store, { concurrency: 1000, hostAgents: h.hostAgents });
    expect(resumed.stored).toBe(tasks.length);
    expect(resumed.failed).toBe(0);
    expect(
      batchLedger(store)
        .list(plan.runId)
        .map((b) => b.state),
    ).toEqual(["completed", "lost"]);
    expect(s.stats().batches).toMatchObject({ batches: 2, resubmitted: tasks.length });
    expect(outcomes(store, plan.runId)).toEqual(await live(s, "sim-steep"));
    store.close();
  });

  it("finds a batch it created but never recorded, by its file, and waits on it", async () => {
    const s = await server({ batch: { delayMs: 300 } });
    const { plan, store } = planFor(s, "sim-steep");
    // A process that dies between the provider creating the batch and the ledger hearing of it.
    const forgetful = (url: string, key: string | undefined): BatchApiClient => {
      const real = new OpenAIBatchClient(url, key);
      return {
        upload: (lines, name) => real.upload(lines, name),
        create: async (fileId, metadata) => {
          await real.create(fileId, metadata);
          return new Promise(() => {});
        },
        retrieve: (id) => real.retrieve(id),
        cancel: (id) => real.cancel(id),
        list: () => real.list(),
        lines: (id) => real.lines(id),
      };
    };
    const stop = new AbortController();
    const first = executeRun(plan, store, {
      concurrency: 1000,
      hostAgents: host(store, plan.runId, { client: forgetful }).hostAgents,
      signal: stop.signal,
    });
    await until(() => s.stats().batches.batches >= 1);
    await until(() => batchLedger(store).list(plan.runId)[0]?.state === "uploaded");
    stop.abort();
    // The stuck create never settles; the run is stopped all the same.
    const stopped = await Promise.race([first, new Promise((r) => setTimeout(() => r("hung"), 60_000))]);
    expect(stopped).not.toBe("hung");
    expect(batchLedger(store).list(plan.runId)[0]).toMatchObject({ state: "uploaded", batchId: null });

    const h = host(store, plan.runId);
    const resumed = await executeRun(plan, store, { concurrency: 1000, hostAgents: h.hostAgents });
    expect(resumed.stored).toBe(tasks.length);
    expect(h.counts()).toMatchObject({ submitted: 0, resumed: 1 });
    expect(s.stats().batches).toMatchObject({ batches: 1, resubmitted: 0 });
    expect(batchLedger(store).list(plan.runId)[0]).toMatchObject({
      state: "completed",
      batchId: "batch_sim1",
    });
    store.close();
  });
});

describe("what a batch run cannot get past", () => {
  it("a rejected key stops the run as a configuration failure", async () => {
    const s = await server({ apiKey: "sk-right" });
    const { plan, store } = planFor(s, "sim-steep", { apiKey: "sk-wrong" });
    await expect(
      executeRun(plan, store, { concurrency: 1000, hostAgents: host(store, plan.runId).hostAgents }),
    ).rejects.toThrow(RunStopped);
    expect(store.getRun(plan.runId)?.done).toBe(0);
    store.close();
  });

  it("a model the provider does not serve, named in the output file, stops the run", async () => {
    const s = await server();
    const { plan, store } = planFor(s, "sim-nope");
    const err = await executeRun(plan, store, {
      concurrency: 1000,
      hostAgents: host(store, plan.runId).hostAgents,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RunStopped);
    expect((err as Error).message).toMatch(/model sim-nope is not served/);
    store.close();
  });

  it("a server without a batch API fails the run with one line, and stores no answer", async () => {
    const s = await server();
    const { plan, store } = planFor(s, "sim-steep");
    const noBatches = (): BatchApiClient => {
      const missing = () => Object.assign(new Error("404 Not Found"), { status: 404 });
      return {
        upload: async () => {
          throw missing();
        },
        create: async () => {
          throw missing();
        },
        retrieve: async () => {
          throw missing();
        },
        cancel: async () => {
          throw missing();
        },
        list: () => ({
          [Symbol.asyncIterator]: () => ({
            next: async () => {
              throw missing();
            },
          }),
        }),
        lines: () => ({
          [Symbol.asyncIterator]: () => ({
            next: async () => {
              throw missing();
            },
          }),
        }),
      };
    };
    const err = await executeRun(plan, store, {
      concurrency: 1000,
      hostAgents: host(store, plan.runId, { client: noBatches }).hostAgents,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/has no batch API for sim-steep/);
    expect(store.getRun(plan.runId)?.done).toBe(0);
    expect(batchLedger(store).list(plan.runId)[0]).toMatchObject({ state: "unsent" });
    await expect(preflightBatchApi(plan.agents, noBatches)).rejects.toMatchObject({
      kind: "configuration",
      message: expect.stringMatching(/has no batch API/),
    });
    store.close();
  });

  it("the preflight passes a server with the batch API and names one that does not answer", async () => {
    const s = await server();
    const { plan, store } = planFor(s, "sim-steep");
    await expect(preflightBatchApi(plan.agents)).resolves.toBeUndefined();
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const gone = [
      resolveChoiceAgent("openai:sim-steep", { settings: { baseURL: `http://127.0.0.1:${port}/v1` } }),
    ];
    await expect(preflightBatchApi(gone)).rejects.toMatchObject({
      message: expect.stringMatching(/does not answer/),
    });
    store.close();
  });
});
