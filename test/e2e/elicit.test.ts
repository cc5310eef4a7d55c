import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.ts";

interface Exported {
  env: string;
  agent: string;
  group: string;
  queryId: string;
  queryType: string;
  item: string | null;
  source: { item: string; price: number } | null;
  completion: number;
  value: number | null;
  nonFinite: { reason: string } | null;
  raw: string;
  trialKey: string;
}

function jsonl(text: string): Exported[] {
  return text
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Exported);
}

describe("bazaar run elicit, then bazaar analyze (as a user runs them)", () => {
  it("audits a consistent and a biased simulated respondent: only the biased one is rejected", async () => {
    const cwd = tempDir();
    const run = await runCli(["run", "elicit", "--agent", "sim:consistent,sim:biased", "--json"], { cwd });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { runId: string; stored: number; total: number };
    // 300 main + 108 stress queries × 15 completions × 2 agents.
    expect(result.total).toBe(408 * 15 * 2);
    expect(result.stored).toBe(result.total);

    const exported = await runCli(["export", result.runId, "--format", "jsonl"], { cwd });
    const records = jsonl(exported.stdout);
    expect(records).toHaveLength(result.total);
    expect(records.every((r) => r.env === "elicit" && typeof r.value === "number")).toBe(true);
    const oneQuery = records.filter((r) => r.agent === "sim:consistent" && r.queryId === records[0]!.queryId);
    expect(oneQuery.map((r) => r.completion).sort((a, b) => a - b)).toEqual([...Array(15).keys()]);
    expect(new Set(oneQuery.map((r) => r.value)).size).toBeGreaterThan(5);

    const text = await runCli(["analyze", result.runId, "--consistency-draws", "500"], { cwd });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /sim:consistent: 0 of 9 audit groups rejected .* joint self-consistency not rejected/,
    );
    expect(text.stdout).toMatch(/sim:biased: 9 of 9 audit groups rejected .* REJECTS joint self-consistency/);
    expect(text.stdout).toMatch(/flights\/student\s+39\s/);
    expect(text.stdout).toMatch(/path length \(mean \|R1,k\|\/s over 4 paths/);

    const json = await runCli(["analyze", result.runId, "--json", "--consistency-draws", "500"], { cwd });
    const doc = JSON.parse(json.stdout) as {
      options: { draws: number };
      agents: {
        agent: string;
        groups: { rmse: number; pValue: number; rejected: boolean }[];
        p1: { count: number };
        p2: { count: number; reversals: number };
        pathLength: { steps: number; meanError: number }[];
        nonFinite: { completions: number; nonFinite: number };
      }[];
    };
    expect(doc.options.draws).toBe(500);
    const [consistent, biased] = doc.agents;
    expect(consistent!.groups).toHaveLength(9);
    expect(consistent!.p1.count).toBe(96);
    expect(consistent!.p2.count).toBe(48);
    expect(consistent!.nonFinite).toMatchObject({ completions: 6120, nonFinite: 0 });
    expect(biased!.groups.every((g) => g.rejected)).toBe(true);
    expect(biased!.pathLength.map((p) => p.steps)).toEqual([2, 8, 16]);

    const dir = path.join(cwd, "report");
    const report = await runCli(["analyze", result.runId, "--report", dir, "--consistency-draws", "200"], {
      cwd,
    });
    expect(report.code).toBe(0);
    expect(report.stderr).toMatch(/wrote \d+ files/);
    const md = readFileSync(path.join(dir, "report.md"), "utf8");
    expect(md).toContain("![sim:biased: P2 residuals");
    for (const f of [
      "path-length.svg",
      "p2-residuals-sim-biased.svg",
      "p1-residuals-sim-consistent.svg",
      "groups-sim-consistent.svg",
    ]) {
      expect(readFileSync(path.join(dir, f), "utf8")).toMatch(/^<svg[^>]*>/);
    }
  });

  it("runs one domain and one collection with fewer completions, and resumes", async () => {
    const cwd = tempDir();
    const args = ["run", "elicit", "--domains", "hotels", "--collections", "main", "--completions", "4"];
    const first = await runCli([...args, "--limit", "100"], { cwd });
    expect(first.stdout).toMatch(/100 of 276 trials stored/);
    const second = await runCli(args, { cwd });
    expect(second.stdout).toMatch(/276 of 276 trials stored \(176 this time, 100 before\)/);
  });
});

describe.concurrent("bad elicit input gets a one-line error, exit code 2, and no store write", () => {
  const cases: [string, string[], RegExp][] = [
    [
      "unknown agent",
      ["run", "elicit", "--agent", "sim:steep"],
      /unknown agent "sim:steep" for elicit.*\n.*sim:consistent/,
    ],
    ["replicates", ["run", "elicit", "--replicates", "3"], /takes --completions.*\n.*--completions 3/],
    [
      "bad domain",
      ["run", "elicit", "--domains", "flights,cars"],
      /--domains: expected one of flights, apartments, hotels/,
    ],
    [
      "bad collection",
      ["run", "elicit", "--collections", "all"],
      /--collections: expected one of main, paths/,
    ],
    ["zero completions", ["run", "elicit", "--completions", "0"], /--completions: expected a number ≥ 1/],
    ["empty design", ["run", "elicit", "--domains", "hotels", "--collections", "paths"], /no queries/],
    [
      "another environment's option",
      ["run", "elicit", "--pairs", "3"],
      /--pairs is an option of `run choice`/,
    ],
    [
      "elicit option elsewhere",
      ["run", "choice", "--completions", "3"],
      /--completions is an option of `run elicit`/,
    ],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const cwd = tempDir();
      const r = await runCli(args, { cwd });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(existsSync(path.join(cwd, "bazaar.db"))).toBe(false);
    });
  }
});
