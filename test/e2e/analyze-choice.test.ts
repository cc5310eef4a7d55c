import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { runCli, tempDir } from "../helpers/cli.ts";

// The binary block of the default design comes first: its 3,600 tasks for each of three agents.
const BINARY_BLOCK = ["--limit", String(3600 * 3)];

describe("bazaar analyze <choice run> (as a user runs it)", () => {
  it("tables, JSON and a report with SVG figures; locked agents reported as locked", async () => {
    const cwd = tempDir();
    const run = await runCli(
      ["run", "choice", "--agent", "sim:steep,sim:budget,sim:locked", ...BINARY_BLOCK, "--json"],
      { cwd },
    );
    expect(run.code).toBe(0);
    const { runId } = JSON.parse(run.stdout) as { runId: string };

    const text = await runCli(["analyze", runId, "--bootstrap", "40"], { cwd });
    expect(text.stderr).toBe("");
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/default: first-shown form/);
    expect(text.stdout).toMatch(/sim:locked\s+LOCKED \(primacy\)/);
    expect(text.stdout).toMatch(/sim:steep\s+engaged/);
    expect(text.stdout).toMatch(/Brand premiums/);
    expect(text.stdout).not.toMatch(/PriceBench reference/);

    const json = await runCli(["analyze", runId, "--json", "--bootstrap", "0", "--reference-price", "200"], {
      cwd,
    });
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as {
      analyses: {
        default: { referencePrice: number; bootstrap: unknown; agents: { agent: string; status: string }[] };
      };
    };
    expect(doc.analyses.default.referencePrice).toBe(200);
    expect(doc.analyses.default.bootstrap).toBeNull();
    expect(doc.analyses.default.agents.map((a) => [a.agent, a.status])).toEqual([
      ["sim:steep", "engaged"],
      ["sim:budget", "engaged"],
      ["sim:locked", "locked"],
    ]);

    const report = await runCli(["analyze", runId, "--report", "out", "--bootstrap", "30"], { cwd });
    expect(report.code).toBe(0);
    expect(report.stderr).toMatch(/wrote 4 files to out/);
    const md = readFileSync(path.join(cwd, "out/report.md"), "utf8");
    expect(md).toMatch(/^# Catalog choice/);
    expect(md).toMatch(/\| sim:locked \| LOCKED \(primacy\) \|/);
    for (const f of ["decile-curves.svg", "price-quality-map.svg", "wtp-ranking.svg"]) {
      const svg = readFileSync(path.join(cwd, "out", f), "utf8");
      expect(svg.startsWith("<svg"), f).toBe(true);
      expect(md).toContain(`(${f})`);
    }
    expect(readFileSync(path.join(cwd, "out/wtp-ranking.svg"), "utf8")).toContain("sim:steep");
  });

  it("bad choice options are one-line errors with exit code 2", async () => {
    const cwd = tempDir();
    const run = await runCli(["run", "choice", "--agent", "sim:steep", "--limit", "200", "--json"], { cwd });
    const { runId } = JSON.parse(run.stdout) as { runId: string };
    const cases: [string[], RegExp][] = [
      [["--bootstrap", "-3"], /--bootstrap: expected a number ≥ 0/],
      [["--reference-price", "0"], /--reference-price: expected a price above 0/],
      [["--with-runs", "zzz*"], /no run matches "zzz\*"/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(["analyze", runId, ...args], { cwd });
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    const help = await runCli(["analyze", "--help"], { cwd });
    expect(help.stdout).toMatch(/--bootstrap <B>\s+choice:/);
    expect(help.stdout).toMatch(/--reference-price <dollars>\s+choice:/);
    expect(existsSync(path.join(cwd, "out"))).toBe(false);
  });
});

describe("an agent without a usable answer (issue #23)", () => {
  it("is 'no data', not counted as engaged in the triage line", async () => {
    const server = await startSimServer({ port: 0, faults: { rateOffFormat: 1 } });
    try {
      const cwd = tempDir();
      const run = await runCli(
        ["run", "choice", "--agent", "openai:sim-steep", "--base-url", server.url, "--limit", "4", "--json"],
        { cwd, env: { OPENAI_API_KEY: "sk-test" } },
      );
      expect(run.code).toBe(0);
      const { runId, headline } = JSON.parse(run.stdout) as {
        runId: string;
        headline: { agents: { status: string }[] };
      };
      expect(headline.agents.map((a) => a.status)).toEqual(["no-data"]);
      const text = await runCli(["analyze", runId, "--bootstrap", "0"], { cwd });
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(
        /Triage: 0 engaged, 0 position-locked .*, 1 not triaged \(openai:sim-steep: no usable answer, 4 of 4 trials non-responses\)/,
      );
      expect(text.stdout).toMatch(/openai:sim-steep\s+no data/);
    } finally {
      await server.close();
    }
  });
});
