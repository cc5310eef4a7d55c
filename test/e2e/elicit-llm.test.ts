import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SimServer, startSimServer } from "../../agents/serve-sim/index.ts";
import { runCli, runInProcess, tempDir } from "../helpers/cli.ts";
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

interface AuditDoc {
  agents: {
    groups: {
      status: string;
      untestableReason: string | null;
      rejected: boolean | null;
      pValue: number | null;
    }[];
    verdict: { status: string; rejectsJointConsistency: boolean | null; testable: number };
  }[];
}

describe("audit groups without usable data are untestable, never rejected (issue #23)", () => {
  it("every answer off-format: run and analyze say untestable with why, not REJECTS", async () => {
    const offFormat = await startSimServer({ port: 0, faults: { rateOffFormat: 1 } });
    try {
      const cwd = tempDir();
      const args = ["--agent", "openai:sim-elicit-consistent", "--base-url", offFormat.url, "--limit", "4"];
      const run = await runCli(["run", "elicit", ...args], { cwd, env: { OPENAI_API_KEY: "sk-test" } });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/non-responses this time: 4 \(100\.0%\)/);
      expect(run.stdout).not.toMatch(/REJECTS|rejected:/);
      expect(run.stdout).toMatch(/openai:sim-elicit-consistent: untestable: no audit group has more queries/);
      expect(run.stdout).toMatch(
        /untestable: apartments\/home-office: none of its 1 query has a finite answer/,
      );
      const runId = /run (elicit-[0-9a-f]+):/.exec(run.stdout)?.[1] as string;

      const json = await runCli(["analyze", runId, "--json", "--consistency-draws", "100"], { cwd });
      expect(json.code).toBe(0);
      const [agent] = (JSON.parse(json.stdout) as AuditDoc).agents;
      expect(agent!.verdict).toMatchObject({
        status: "untestable",
        testable: 0,
        rejectsJointConsistency: null,
      });
      expect(agent!.groups).toEqual([
        expect.objectContaining({
          status: "untestable",
          untestableReason: "none of its 1 query has a finite answer",
          rejected: null,
          pValue: null,
        }),
      ]);
      const text = await runCli(["analyze", runId, "--consistency-draws", "100"], { cwd });
      expect(text.stdout).not.toMatch(/REJECTS|\brejected\b/);
      expect(text.stdout).toMatch(/apartments\/home-office\s+0\s+–\s+–\s+–\s+–\s+untestable/);
      const report = await runCli(["analyze", runId, "--report", "out", "--consistency-draws", "100"], {
        cwd,
      });
      expect(report.code).toBe(0);
      const md = readFileSync(path.join(cwd, "out/report.md"), "utf8");
      expect(md).toMatch(/\*\*openai:sim-elicit-consistent: untestable: /);
      expect(md).not.toMatch(/REJECTS/);
    } finally {
      await offFormat.close();
    }
  });

  it("one query per group (rank 1, no degrees of freedom): untestable, not T ≈ 1e-13 with p = 0", async () => {
    const store = `${tempDir()}/b.db`;
    const run = await runInProcess([
      "run",
      "elicit",
      "--agent",
      "sim:consistent",
      "--limit",
      "30",
      "--store",
      store,
    ]);
    expect(run.code).toBe(0);
    expect(run.out).not.toMatch(/REJECTS/);
    const runId = /run (elicit-[0-9a-f]+):/.exec(run.out)?.[1] as string;
    const json = await runInProcess([
      "analyze",
      runId,
      "--store",
      store,
      "--json",
      "--consistency-draws",
      "100",
    ]);
    const [agent] = (JSON.parse(json.out) as AuditDoc).agents;
    expect(agent!.verdict.status).toBe("untestable");
    expect(agent!.groups).toHaveLength(2);
    for (const g of agent!.groups) {
      expect(g.status).toBe("untestable");
      expect(g.untestableReason).toMatch(/rank 1: the fit is exact, no degrees of freedom to test/);
    }
  });
});
