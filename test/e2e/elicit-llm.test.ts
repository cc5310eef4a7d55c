import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SimServer, startSimServer } from "../../agents/serve-sim/index.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { ElicitTrialRecordShape } from "./elicit-shape.ts";

let server: SimServer;
beforeAll(async () => {
  server = await startSimServer({ port: 0, seed: 11 });
});
afterAll(async () => {
  await server.close();
});

async function runLlm(model: string, mode: "text" | "tools") {
  const cwd = tempDir();
  const run = await runCli(
    [
      "run",
      "elicit",
      "--agent",
      `openai:${model}`,
      "--base-url",
      server.url,
      "--answer-mode",
      mode,
      "--domains",
      "hotels",
      "--collections",
      "main",
      "--completions",
      "5",
      "--temperature",
      "1",
      "--json",
    ],
    { cwd, env: { OPENAI_API_KEY: "sk-test" } },
  );
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const { runId, stored, total } = JSON.parse(run.stdout) as { runId: string; stored: number; total: number };
  expect(stored).toBe(total);
  const exported = await runCli(["export", runId, "--format", "jsonl"], { cwd });
  const records = exported.stdout
    .trim()
    .split("\n")
    .map((l) => ElicitTrialRecordShape.parse(JSON.parse(l)));
  return { cwd, runId, records };
}

describe("the LLM path: the real ChatOpenAI client through serve-sim's elicit respondents", () => {
  it("text mode: messy number formats are read strictly; non-finite answers are kept as data", async () => {
    const { records, cwd, runId } = await runLlm("sim-elicit-consistent-varied", "text");
    expect(records).toHaveLength(69 * 5);
    expect(records.every((r) => r.usage.calls + r.usage.cacheHits === 1)).toBe(true);
    expect(records.some((r) => /\$|dollars|minus|Answer/.test(r.raw))).toBe(true);
    for (const r of records) {
      if (r.value === null) expect(r.nonFinite?.reason).toMatch(/^(range|no number|infinite)/);
      else expect(r.nonFinite).toBeNull();
    }
    // Completions of one query are independent samples, not one cached answer.
    const first = records.filter((r) => r.queryId === records[0]!.queryId);
    expect(new Set(first.map((r) => r.raw)).size).toBeGreaterThan(1);
    const analysis = await runCli(["analyze", runId, "--json", "--consistency-draws", "300"], { cwd });
    expect(analysis.code).toBe(0);
    const doc = JSON.parse(analysis.stdout) as {
      agents: { groups: unknown[]; nonFinite: { completions: number } }[];
    };
    expect(doc.agents[0]!.groups).toHaveLength(3);
    expect(doc.agents[0]!.nonFinite.completions).toBe(345);
  });

  it("tools mode: the respondent answers through the generated `answer` tool", async () => {
    const { records, cwd, runId } = await runLlm("sim-elicit-biased", "tools");
    expect(records.every((r) => r.value !== null && /^answer\(-?\d+\)$/.test(r.raw))).toBe(true);
    const text = await runCli(["analyze", runId], { cwd });
    expect(text.stdout).toMatch(/openai:sim-elicit-biased: \d of 3 audit groups rejected/);
  });
});
