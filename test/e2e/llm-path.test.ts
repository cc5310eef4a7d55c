import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { exported, run } from "../helpers/choice-runs.ts";
import { runCli, tempDir } from "../helpers/cli.ts";

type SimServer = Awaited<ReturnType<typeof startSimServer>>;

describe("the LLM path: ChatOpenAI over HTTP against serve-sim", () => {
  let server: SimServer;
  beforeAll(async () => {
    server = await startSimServer({ port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  it("tools mode: the model answers with the environment's tool and every trial is answered", async () => {
    const cwd = tempDir();
    const r = await run(cwd, [
      "--agent",
      "openai:sim-quality",
      "--base-url",
      server.url,
      "--answer-mode",
      "tools",
      "--limit",
      "300",
    ]);
    expect(r.stored).toBe(300);
    const trials = await exported(cwd, r.runId);
    expect(trials.every((t) => t.chosenSlot !== null && /^choose\([A-E]\)$/.test(t.replies[0]!))).toBe(true);

    // Usage is summed per run and agent from the trial records; a price table turns it into dollars.
    writeFileSync(
      path.join(cwd, "prices.json"),
      JSON.stringify({ "sim-quality": { inputPerMTok: 2, outputPerMTok: 8 } }),
    );
    const runs = await runCli(["runs", "--json", "--prices", "prices.json"], { cwd });
    const [listed] = JSON.parse(runs.stdout) as {
      usageByAgent: {
        usage: { calls: number; inputTokens: number; outputTokens: number };
        costUsd: number;
      }[];
    }[];
    const u = listed!.usageByAgent[0]!;
    expect(u.usage.calls).toBe(300);
    const tokens = trials.reduce(
      (a, t) => a + (t.usage as unknown as { inputTokens: number }).inputTokens,
      0,
    );
    expect(u.usage.inputTokens).toBe(tokens);
    expect(u.costUsd).toBeCloseTo((u.usage.inputTokens * 2 + u.usage.outputTokens * 8) / 1e6, 12);
    const bad = await runCli(["runs", "--prices", "trials.csv"], { cwd });
    expect(bad.code).toBe(2);
  });

  it("a second identical run makes zero HTTP calls; replicates at temperature > 0 are distinct requests", async () => {
    const cwd = tempDir();
    const base = ["--agent", "openai:sim-steep", "--base-url", server.url, "--limit", "120"];
    const before = server.stats().requests;
    await run(cwd, [...base, "--temperature", "0.7", "--replicates", "3", "--limit", "360"]);
    const afterFirst = server.stats().requests;
    expect(afterFirst - before).toBe(360); // 120 tasks × 3 replicates, no request collapsed
    // Same requests under another run identity (--max-reasks does not change what is sent).
    const again = await run(cwd, [
      ...base,
      "--temperature",
      "0.7",
      "--replicates",
      "3",
      "--limit",
      "360",
      "--max-reasks",
      "1",
    ]);
    expect(again.ranNow).toBe(360);
    expect(server.stats().requests).toBe(afterFirst);
    const trials = await exported(cwd, again.runId);
    expect(trials.every((t) => t.usage.calls === 0 && t.usage.cacheHits === 1)).toBe(true);
    // The three replicates of a task are independent samples: across tasks they do not always agree.
    const byTask = new Map<string, Set<number | null>>();
    for (const t of trials) byTask.set(t.taskId, (byTask.get(t.taskId) ?? new Set()).add(t.chosenSlot));
    expect([...byTask.values()].filter((s) => s.size > 1).length).toBeGreaterThan(5);
  });
});

describe("failures: 10% 429s and 5% 500s", () => {
  let server: SimServer;
  beforeAll(async () => {
    server = await startSimServer({
      port: 0,
      faults: { rate429: 0.1, rate500: 0.05 },
      retryAfterSeconds: 0,
      seed: 3,
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it("every trial ends answered, a non-response, or failed (then re-run); none lost or duplicated", async () => {
    const cwd = tempDir();
    const args = [
      "--agent",
      "openai:sim-steep",
      "--base-url",
      server.url,
      "--limit",
      "400",
      "--concurrency",
      "16",
    ];
    const r = await run(cwd, args);
    expect(r.stored).toBe(400);
    expect(r.retries).toBeGreaterThan(20);
    const trials = await exported(cwd, r.runId);
    expect(new Set(trials.map((t) => t.trialKey)).size).toBe(400);
    for (const t of trials) expect(t.chosenSlot !== null || t.nonResponse !== null).toBe(true);
    expect(trials.filter((t) => t.chosenSlot !== null).length).toBeGreaterThan(390);

    // With no retries allowed, a failed call is a failed trial — missing data, not a non-response —
    // and the same command (with retries) runs exactly those again.
    const strictDir = tempDir();
    const strict = await run(strictDir, [...args, "--max-retries", "0"]);
    expect(strict.failedNow).toBeGreaterThan(30);
    // Not whole: exit code 3, and a line saying how many failed and that the same command re-runs them.
    expect(strict.code).toBe(3);
    expect(strict.stderr).toMatch(
      /\d+ trials of the run failed \(missing data, in no estimate\); the same command runs them again/,
    );
    expect(strict.stored + strict.failedNow).toBe(400);
    const answers = await exported(strictDir, strict.runId);
    expect(answers).toHaveLength(strict.stored);
    expect(answers.filter((t) => t.nonResponse?.reason.startsWith("agent error"))).toEqual([]);
    const again = await run(strictDir, args);
    expect(again.code).toBe(0);
    expect(again.ranNow).toBe(strict.failedNow);
    expect(again.stored).toBe(400);
    expect(again.failed).toBe(0);
  });

  it("never writes the API key into the store, exports or output", async () => {
    const cwd = tempDir();
    const key = "sk-planted-0123456789abcdefPLANTED";
    const env = { OPENAI_API_KEY: key };
    const args = [
      "run",
      "choice",
      "--agent",
      "openai:sim-steep",
      "--base-url",
      server.url,
      "--limit",
      "100",
      "--max-retries",
      "1",
    ];
    const r = await runCli(args, { cwd, env });
    const runId = (await runCli(["runs", "--json"], { cwd })).stdout;
    const id = (JSON.parse(runId) as { id: string }[])[0]!.id;
    const jsonl = await runCli(["export", id], { cwd });
    const csv = await runCli(["export", id, "--format", "csv"], { cwd });
    const stats = await runCli(["cache", "stats"], { cwd });
    const texts = [r.stdout, r.stderr, jsonl.stdout, csv.stdout, stats.stdout];
    for (const f of ["bazaar.db", "bazaar.db-wal"]) {
      try {
        texts.push(readFileSync(path.join(cwd, f)).toString("latin1"));
      } catch {}
    }
    for (const t of texts) expect(t.includes(key)).toBe(false);
    expect(jsonl.stdout.length).toBeGreaterThan(1000);
  });
});
