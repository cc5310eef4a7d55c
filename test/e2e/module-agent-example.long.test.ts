/**
 * examples/langgraph-module/ as its README runs it: the LangGraph ReAct agent, through the compiled
 * CLI as a `module:` agent, on ChatOpenAI against serve-sim's simulated models — the careful shopper
 * in the shop (every episode right, with parallel views), and a bargaining buyer against a rule
 * seller. The module's model calls are counted into the trials' usage.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { REPO_ROOT, runCli, runInProcess, tempDir } from "../helpers/cli.ts";

const AGENT = "module:examples/langgraph-module/agent.ts";

describe("the LangGraph module example against serve-sim", () => {
  let server: Awaited<ReturnType<typeof startSimServer>>;
  beforeAll(async () => {
    server = await startSimServer({ port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  async function run(model: string, args: string[]): Promise<Record<string, unknown>[]> {
    const cwd = tempDir();
    const store = path.join(cwd, "bazaar.db");
    const r = await runCli(["run", ...args, "--store", store, "--json"], {
      cwd: REPO_ROOT,
      env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sim", BAZAAR_EXAMPLE_MODEL: model },
    });
    expect(r.code, r.stderr).toBe(0);
    const { runId, stored, total } = JSON.parse(r.stdout) as { runId: string; stored: number; total: number };
    expect(stored).toBe(total);
    const file = path.join(cwd, "trials.jsonl");
    const e = await runInProcess(["export", runId, "--store", store, "--out", file]);
    expect(e.code, e.err).toBe(0);
    return readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  it("shop: the careful simulated shopper behind the graph gets every episode right", async () => {
    const records = await run("sim-shop-careful", [
      "shop",
      "--agent",
      AGENT,
      "--tasks",
      "16",
      "--replicates",
      "1",
    ]);
    expect(records).toHaveLength(16);
    for (const r of records) {
      expect(r.success, String(r.taskId)).toBe(true);
      expect(r.nonResponse).toBeNull();
      const usage = r.usage as { calls: number; inputTokens: number };
      expect(usage.calls).toBeGreaterThan(0);
      expect(usage.inputTokens).toBeGreaterThan(0);
    }
    // Several tool calls in one model message, each a step: the views of every acceptable result.
    const views = records.map(
      (r) => (r.trajectory as { tool: string }[]).filter((t) => t.tool === "view").length,
    );
    expect(Math.max(...views)).toBeGreaterThan(1);
  });

  it("bargaining: the same graph as a buyer against a rule seller", async () => {
    const records = await run("sim-bargain-savvy", [
      "bargain",
      "--buyer",
      AGENT,
      "--seller",
      "rule:boulware",
      "--scenarios",
      "8",
      "--replicates",
      "1",
    ]);
    expect(records).toHaveLength(8);
    for (const r of records) {
      expect(r.invalidSide).toBeNull();
      expect(["deal", "no-deal"]).toContain(r.outcome);
    }
    expect(records.some((r) => r.outcome === "deal")).toBe(true);
  });
});
