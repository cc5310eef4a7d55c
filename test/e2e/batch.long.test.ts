/**
 * `bazaar run --batch` as a user runs it, against serve-sim's batch API: the same stored trials as
 * the same runs made live (catalog choice; bargaining, one round per turn); a run killed with its
 * batch in flight resumes without sending it again; `bazaar batches` and `runs --prices` price the
 * batch calls at batch rates.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SimServer, startSimServer } from "../../agents/serve-sim/index.ts";
import { BIN, runCli, runInProcess, tempDir } from "../helpers/cli.ts";

let server: SimServer;
let slow: SimServer;
beforeAll(async () => {
  server = await startSimServer({ port: 0 });
  slow = await startSimServer({ port: 0, batch: { delayMs: 4000 } });
});
afterAll(async () => {
  await Promise.all([server.close(), slow.close()]);
});

const CHOICE = [
  "run",
  "choice",
  "--pairs",
  "30",
  "--triples",
  "8",
  "--fives",
  "4",
  "--agent",
  "openai:sim-noisy",
];
const BARGAIN = [
  "run",
  "bargain",
  "--buyer",
  "openai:sim-bargain-linear",
  "--seller",
  "rule:boulware",
  "--scenarios",
  "6",
];

interface RunJson {
  runId: string;
  stored: number;
  total: number;
  failed: number;
  batch?: {
    submitted: number;
    requests: number;
    resumed: number;
    answered: number;
    costUsd?: number;
    savedUsd?: number;
  };
}

async function run(cwd: string, args: string[]): Promise<RunJson> {
  const r = await runCli([...args, "--json"], { cwd });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as RunJson;
}

/** The run's trials as exported, without the time they took (a batch waits; a live call does not). */
async function trials(cwd: string, runId: string, store = "bazaar.db"): Promise<string[]> {
  const r = await runCli(["export", runId, "--store", store], { cwd });
  expect(r.code).toBe(0);
  return r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.stringify(JSON.parse(l), (k, v) => (k === "latencyMs" || k === "ms" ? undefined : v)));
}

describe("a batch run stores the trials the same run stores live", () => {
  it("catalog choice: one round and the re-asks, every trial as live", async () => {
    const cwd = tempDir();
    const before = server.stats().batches;
    const batched = await run(cwd, [...CHOICE, "--base-url", server.url, "--batch", "--store", "b.db"]);
    const live = await run(cwd, [...CHOICE, "--base-url", server.url, "--store", "l.db"]);
    expect(batched.runId).toBe(live.runId);
    expect(batched.stored).toBe(batched.total);
    const a = await trials(cwd, batched.runId, "b.db");
    expect(a).toHaveLength(batched.total);
    expect(a).toEqual(await trials(cwd, live.runId, "l.db"));
    const b = batched.batch!;
    // The first round carries every trial; each re-ask round the off-format replies of the one before.
    expect(b.submitted).toBeGreaterThanOrEqual(2);
    expect(b.requests).toBeGreaterThan(batched.total);
    expect(b.answered).toBe(b.requests);
    const after = server.stats().batches;
    expect(after.lines - before.lines).toBe(b.requests);
    expect(after.resubmitted - before.resubmitted).toBe(0);
  });

  it("bargaining: one round per turn, every session as live", async () => {
    const cwd = tempDir();
    const batched = await run(cwd, [...BARGAIN, "--base-url", server.url, "--batch", "--store", "b.db"]);
    const live = await run(cwd, [...BARGAIN, "--base-url", server.url, "--store", "l.db"]);
    const a = await trials(cwd, batched.runId, "b.db");
    expect(a).toHaveLength(6);
    expect(a).toEqual(await trials(cwd, live.runId, "l.db"));
    const sessions = a.map((l) => JSON.parse(l) as { turns: number; transcript: { role: string }[] });
    const buyerTurns = sessions.map((s) => s.transcript.filter((m) => m.role === "buyer").length);
    // A round per buyer turn: as many as the longest session has, and every buyer move went in one.
    expect(batched.batch!.submitted).toBe(Math.max(...buyerTurns));
    expect(batched.batch!.requests).toBe(buyerTurns.reduce((x, y) => x + y, 0));
    expect(batched.batch!.submitted).toBeGreaterThan(1);
  });
});

/** Batches the store's ledger knows the provider's id of (another process is writing it). */
function recordedBatches(file: string): number {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return (
        db.prepare("SELECT COUNT(*) AS n FROM llm_batches WHERE batch_id IS NOT NULL").get() as { n: number }
      ).n;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}

describe("a batch run killed with its batch in flight", () => {
  it("resumes with the same command: waits on that batch, sends nothing twice, completes", async () => {
    const cwd = tempDir();
    const args = [
      "run",
      "choice",
      "--pairs",
      "20",
      "--triples",
      "0",
      "--fives",
      "0",
      "--agent",
      "openai:sim-steep",
      "--base-url",
      slow.url,
      "--batch",
    ];
    const before = slow.stats().batches;
    const killed = await new Promise<{ signal: NodeJS.Signals | null }>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
      child.stdout.resume();
      child.stderr.resume();
      const poll = setInterval(() => {
        if (recordedBatches(path.join(cwd, "bazaar.db")) >= 1) child.kill("SIGKILL");
      }, 20);
      child.on("error", reject);
      child.on("close", (_code, signal) => {
        clearInterval(poll);
        resolve({ signal });
      });
    });
    expect(killed.signal).toBe("SIGKILL");
    expect(slow.stats().batches.batches - before.batches).toBe(1);

    const resumed = await run(cwd, args);
    expect(resumed.stored).toBe(resumed.total);
    expect(resumed.batch).toMatchObject({ submitted: 0, resumed: 1, answered: resumed.total });
    const after = slow.stats().batches;
    expect(after.batches - before.batches).toBe(1);
    expect(after.lines - before.lines).toBe(resumed.total);
    expect(after.resubmitted - before.resubmitted).toBe(0);

    // And the store holds what the same run stores live (the batch delay holds batches only).
    const live = await run(cwd, [...args.filter((a) => a !== "--batch"), "--store", "live.db"]);
    expect(live.runId).toBe(resumed.runId);
    expect(await trials(cwd, resumed.runId)).toEqual(await trials(cwd, live.runId, "live.db"));
  });
});

describe("batch calls at batch rates", () => {
  it("bazaar batches lists every batch; runs --prices prices them at the batch columns, saved against live", async () => {
    const cwd = tempDir();
    const args = [
      "run",
      "choice",
      "--pairs",
      "10",
      "--triples",
      "0",
      "--fives",
      "0",
      "--agent",
      "openai:sim-steep",
      "--base-url",
      server.url,
    ];
    writeFileSync(
      path.join(cwd, "prices.json"),
      JSON.stringify({
        "sim-steep": { inputPerMTok: 2, outputPerMTok: 8, batchInputPerMTok: 1.2, batchOutputPerMTok: 3 },
      }),
    );
    const r = await run(cwd, [...args, "--batch", "--prices", "prices.json"]);
    const exported = (await trials(cwd, r.runId)).map(
      (l) => JSON.parse(l) as { usage: { inputTokens: number; outputTokens: number } },
    );
    const input = exported.reduce((a, t) => a + t.usage.inputTokens, 0);
    const output = exported.reduce((a, t) => a + t.usage.outputTokens, 0);
    expect(input).toBeGreaterThan(0);
    const batchCost = (input * 1.2 + output * 3) / 1e6;
    const liveCost = (input * 2 + output * 8) / 1e6;
    expect(r.batch!.costUsd).toBeCloseTo(batchCost, 12);
    expect(r.batch!.savedUsd).toBeCloseTo(liveCost - batchCost, 12);

    const listed = await runCli(["batches", "--json", "--prices", "prices.json"], { cwd });
    expect(listed.code).toBe(0);
    const batches = JSON.parse(listed.stdout) as {
      runId: string;
      state: string;
      requests: number;
      answered: number;
      costUsd: number;
    }[];
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({
      runId: r.runId,
      state: "completed",
      requests: r.total,
      answered: r.total,
    });
    expect(batches[0]!.costUsd).toBeCloseTo(batchCost, 12);
    const table = await runCli(["batches"], { cwd });
    expect(table.stdout).toMatch(
      new RegExp(`batch_sim\\d+ +${r.runId} +sim-steep +completed +${r.total} +${r.total} +0 `),
    );

    const runs = await runCli(["runs", "--json", "--prices", "prices.json"], { cwd });
    const [listedRun] = JSON.parse(runs.stdout) as {
      usageByAgent: { costUsd: number; batch: { requests: number; costUsd: number; savedUsd: number } }[];
    }[];
    const u = listedRun!.usageByAgent[0]!;
    expect(u.batch.requests).toBe(r.total);
    expect(u.costUsd).toBeCloseTo(batchCost, 12);
    expect(u.batch.savedUsd).toBeCloseTo(liveCost - batchCost, 12);
    // Without batch columns, batch calls cost half the live rates.
    writeFileSync(
      path.join(cwd, "half.json"),
      JSON.stringify({ "sim-steep": { inputPerMTok: 2, outputPerMTok: 8 } }),
    );
    const half = await runCli(["runs", "--json", "--prices", "half.json"], { cwd });
    const [h] = JSON.parse(half.stdout) as { usageByAgent: { costUsd: number }[] }[];
    expect(h!.usageByAgent[0]!.costUsd).toBeCloseTo(liveCost / 2, 12);
    const text = await runCli(["runs", "--prices", "prices.json"], { cwd });
    expect(text.stdout).toMatch(/batch calls +resp\. cache/);
  });
});

describe("batch options and endpoints without a batch API", () => {
  it("refuses --batch with --workers, a bad --batch-size, and a server that has no batch API", async () => {
    const both = await runInProcess([
      "run",
      "choice",
      "--batch",
      "--workers",
      "2",
      "--agent",
      "openai:sim-steep",
      "--base-url",
      server.url,
      "--store",
      path.join(tempDir(), "s.db"),
    ]);
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/--batch and --workers/);
    const size = await runInProcess([
      "run",
      "choice",
      "--batch",
      "--batch-size",
      "0",
      "--agent",
      "openai:sim-steep",
      "--base-url",
      server.url,
      "--store",
      path.join(tempDir(), "s.db"),
    ]);
    expect(size.code).toBe(2);
    expect(size.err).toMatch(/--batch-size/);

    // A server that serves the model but has no batch API (as vLLM's OpenAI server): stopped before the store.
    const bare = http.createServer((req, res) => {
      res.writeHead(req.url === "/v1/models" ? 200 : 404, { "content-type": "application/json" });
      res.end(
        req.url === "/v1/models"
          ? JSON.stringify({ object: "list", data: [{ id: "sim-steep", object: "model" }] })
          : JSON.stringify({ error: { message: "not found" } }),
      );
    });
    await new Promise<void>((r) => bare.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/v1`;
    const dir = tempDir();
    const none = await runInProcess([
      "run",
      "choice",
      "--batch",
      "--agent",
      "openai:sim-steep",
      "--base-url",
      url,
      "--store",
      path.join(dir, "s.db"),
    ]);
    await new Promise<void>((r) => bare.close(() => r()));
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/has no batch API/);
    expect(none.err).toMatch(/run without --batch/);
    expect(recordedBatches(path.join(dir, "s.db"))).toBe(0);
  });
});
