import { writeFileSync } from "node:fs";
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
