/**
 * What a real llama.cpp server and real models' answers showed (issue 36), through the CLI as a user
 * runs it (in process): a 200 with an empty body — llama.cpp's answer to a prompt longer than its
 * slot — is the server's failure, a failed trial that the same command runs again, never the
 * model's non-response; a run whose opening prompt cannot fit a slot stops before it spends
 * anything; and a model that states its choice in a sentence ("The best option … is B:") has it
 * read, while a letter in prose ("I would pick B") still is not an answer.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { Store } from "../../environments/store/index.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";
import { startSlotProxy } from "../helpers/slot-proxy.ts";

interface RunJson {
  runId: string;
  stored: number;
  total: number;
  failed: number;
  failedNow: number;
  nonResponsesNow: number;
}

async function exported(store: string, runId: string): Promise<Record<string, unknown>[]> {
  const file = `${store}.${runId}.jsonl`;
  const r = await runInProcess(["export", runId, "--store", store, "--out", file]);
  expect(r.code, r.err).toBe(0);
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function failedTrials(store: string, runId: string) {
  const s = Store.open(store, { create: false, readonly: true });
  try {
    return s.failedTrials(runId);
  } finally {
    s.close();
  }
}

describe("a 200 that is not a chat completion is the server's failure", () => {
  it("through a slot that empties long prompts: failed trials naming the empty body and the slot, exit 3; the same command completes them once the prompts get through", async () => {
    const sim = await startSimServer({});
    // Shop openings in tools mode are under 4,000 characters; later turns of an episode grow past 6,000.
    const proxy = await startSlotProxy({ upstream: sim.url, slot: 6_000, slots: 4 });
    try {
      const store = path.join(tempDir(), "s.db");
      const args = [
        "run",
        "shop",
        "--agent",
        "openai:sim-shop-careful",
        "--answer-mode",
        "tools",
        "--tasks",
        "8",
        "--replicates",
        "1",
        "--base-url",
        proxy.url,
        "--store",
        store,
        "--max-retries",
        "1",
        "--breaker-cooldown-ms",
        "50",
        // One episode at a time: its first turns answer between two episodes' empty answers, so the
        // circuit breaker never sees enough failures in a row to stop the run (what that does is
        // tested in llamacpp.test.ts), whatever the machine's pace.
        "--concurrency",
        "1",
        "--json",
      ];
      const first = await runInProcess(args);
      expect(first.code, first.err).toBe(3);
      const run = JSON.parse(first.out) as RunJson;
      expect(run.failed).toBeGreaterThan(0);
      expect(run.stored + run.failed).toBe(8);
      // Nothing of the empty answers is the model's: no non-response at all.
      expect(run.nonResponsesNow).toBe(0);
      expect(proxy.emptied).toBe(2 * run.failed); // each failed trial: its call and one retry
      // The summary says what failed, not "timeouts, 5xx".
      expect((JSON.parse(first.out) as { failures: unknown }).failures).toEqual([
        {
          agent: "openai:sim-shop-careful",
          label: "the server answered 200 with an empty body",
          trials: run.failed,
        },
      ]);
      const failed = failedTrials(store, run.runId);
      expect(failed).toHaveLength(run.failed);
      for (const f of failed) {
        expect(f.failure.kind).toBe("infrastructure");
        expect(f.failure.label).toBe("the server answered 200 with an empty body");
        expect(f.failure.message).toMatch(
          /^sim-shop-careful: the server answered 200 with an empty body \(after 2 attempts\) — the llama\.cpp server at http:\/\/127\.0\.0\.1:\d+\/v1 answers so a prompt longer than a slot, and a slot holds 6,000 tokens \(-c 24,000 over -np 4\)$/,
        );
        expect(f.failure.hint).toMatch(/larger -c or fewer slots \(-np\)/);
      }
      for (const t of await exported(store, run.runId)) expect(t.nonResponse).toBeNull();

      // The server is given room: the same command plays the failed trials, and only those.
      proxy.slot = Number.POSITIVE_INFINITY;
      const again = await runInProcess(args);
      expect(again.code, again.err).toBe(0);
      expect(JSON.parse(again.out) as RunJson).toMatchObject({
        runId: run.runId,
        stored: 8,
        failed: 0,
        failedNow: 0,
        nonResponsesNow: 0,
      });
      expect(failedTrials(store, run.runId)).toHaveLength(0);
      const trials = await exported(store, run.runId);
      expect(trials).toHaveLength(8);
      for (const t of trials) expect(t.nonResponse).toBeNull();
    } finally {
      await proxy.close();
      await sim.close();
    }
  });

  it("an opening prompt longer than a llama.cpp slot stops the run before anything is spent, saying what to change", async () => {
    const sim = await startSimServer({});
    const proxy = await startSlotProxy({ upstream: sim.url, slot: 3_000, slots: 4 });
    try {
      const store = path.join(tempDir(), "s.db");
      const r = await runInProcess([
        "run",
        "shop",
        "--agent",
        "openai:sim-shop-careful",
        "--answer-mode",
        "tools",
        "--tasks",
        "8",
        "--base-url",
        proxy.url,
        "--store",
        store,
      ]);
      expect(r.code).toBe(2);
      const [line, hint] = r.err.trim().split("\n");
      expect(line).toMatch(
        /^bazaar: the opening prompt of task \S+ \(openai:sim-shop-careful\) is [\d,]+ tokens, [\d,]+ with room for an answer of --max-tokens [\d,]+, and at the llama\.cpp server http:\/\/127\.0\.0\.1:\d+\/v1 a slot holds 3,000 tokens \(-c 12,000 over -np 4\)$/,
      );
      expect(hint).toMatch(/^ {2}start llama-server with -c [\d,]+ or more for -np 4/);
      expect(proxy.emptied).toBe(0);
      expect(proxy.passed).toBeLessThanOrEqual(1); // the preflight's one-token probe, no trial's call
      expect(r.out).toBe("");
    } finally {
      await proxy.close();
      await sim.close();
    }
  });
});

/** An OpenAI-compatible server whose one model answers every request with the same text. */
async function sayingAlways(
  text: string,
): Promise<{ url: string; calls: () => number; close(): Promise<void> }> {
  let calls = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      if (req.url?.endsWith("/models")) {
        res.end(JSON.stringify({ object: "list", data: [{ id: "fixed", object: "model" }] }));
        return;
      }
      calls++;
      res.end(
        JSON.stringify({
          id: `c${calls}`,
          object: "chat.completion",
          model: "fixed",
          choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
          usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls: () => calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("a choice stated in a sentence is read; a letter in prose is not", () => {
  async function choices(text: string): Promise<Record<string, unknown>[]> {
    const model = await sayingAlways(text);
    try {
      const store = path.join(tempDir(), "s.db");
      const r = await runInProcess([
        "run",
        "choice",
        "--agent",
        "openai:fixed",
        "--base-url",
        model.url,
        "--store",
        store,
        "--limit",
        "24",
        "--json",
      ]);
      expect(r.code, r.err).toBe(0);
      return exported(store, (JSON.parse(r.out) as RunJson).runId);
    } finally {
      await model.close();
    }
  }

  it('"The best option for a one-night stay in New York City is B:" answers every trial with slot B', async () => {
    const trials = await choices("The best option for a one-night stay in New York City is B:");
    expect(trials).toHaveLength(24);
    for (const t of trials) {
      expect(t.nonResponse).toBeNull();
      expect(t.chosenSlot).toBe(1);
    }
  });

  it('"I would pick B" answers none', async () => {
    const trials = await choices("I would pick B");
    expect(trials).toHaveLength(24);
    for (const t of trials) {
      expect(t.chosenSlot).toBeNull();
      expect((t.nonResponse as { reason: string }).reason).toMatch(/uncued letter: B/);
    }
  });
});
