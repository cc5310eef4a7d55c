/**
 * `bazaar run shop`, `analyze` and `watch` as a user runs them, and the rules of the shop as a run
 * shows them: shown-only bookings, the step budget, the invalid-call limit (parallel calls with a
 * booking in the middle are in shop-llm.test.ts, where a model makes them).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runInProcess, tempDir } from "../helpers/cli.ts";

interface Record_ {
  agent: string;
  endReason: string;
  success: boolean;
  steps: number;
  booked: { id: string } | null;
  shown: { id: string }[];
  trajectory: { step: number | null; tool: string; args: { id?: string }; ok: boolean; summary: string }[];
  nonResponse: { reason: string } | null;
}

async function exported(store: string, runId: string): Promise<Record_[]> {
  const file = path.join(path.dirname(store), "export.jsonl");
  const r = await runInProcess(["export", runId, "--store", store, "--format", "jsonl", "--out", file]);
  expect(r.code).toBe(0);
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record_);
}

const runIdOf = (out: string) => /run (shop-\w+):/.exec(out)![1]!;

/** A real process, a run, three analyses and a report: room for a loaded 2-core machine. */
const HEAVY = 300_000;

describe("bazaar run shop", () => {
  it(
    "runs the default sim shoppers, ends with the headline, and analyze, report and watch read the run",
    async () => {
      const cwd = tempDir();
      const run = await runCli(["run", "shop", "--tasks", "24", "--replicates", "2"], { cwd });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/192 of 192 trials stored/);
      expect(run.stdout).toMatch(/shop, 192 episodes \(price-equivalents at \$250 a night, 95% intervals\):/);
      expect(run.stdout).toMatch(/^sim:careful +48 +100\.0% \[100\.0, 100\.0\] +k=2: 100\.0%/m);
      expect(run.stdout).toMatch(/^sim:first-result +48 /m);
      const runId = runIdOf(run.stdout);
      expect(run.stdout).toContain(`bazaar watch ${runId}`);

      const store = path.join(cwd, "bazaar.db");
      const json = await runInProcess(["analyze", runId, "--store", store, "--json", "--bootstrap", "50"]);
      expect(json.code).toBe(0);
      const a = JSON.parse(json.out) as {
        env: string;
        agents: {
          agent: string;
          episodes: number;
          passK: { k: number }[];
          logit: { status: string };
          outcomes: { success: { estimate: number } };
        }[];
      };
      expect(a.env).toBe("shop");
      expect(a.agents.map((x) => x.agent)).toEqual([
        "sim:careful",
        "sim:first-result",
        "sim:ignores-constraint",
        "sim:invents-ids",
      ]);
      expect(a.agents[0]!.passK.map((p) => p.k)).toEqual([1, 2]);
      expect(a.agents[0]!.outcomes.success.estimate).toBe(1);

      const report = await runInProcess([
        "analyze",
        runId,
        "--store",
        store,
        "--report",
        path.join(cwd, "out"),
        "--bootstrap",
        "20",
      ]);
      expect(report.code).toBe(0);
      for (const f of [
        "shop-report.md",
        "shop-rank-effect.svg",
        "shop-funnel.svg",
        "shop-pass-k.svg",
        "shop-price-equivalents.svg",
      ])
        expect(existsSync(path.join(cwd, "out", f)), f).toBe(true);
      const md = readFileSync(path.join(cwd, "out", "shop-report.md"), "utf8");
      expect(md).toMatch(/^# Shop run shop-/);
      expect(md).toContain("![Rank effect in dollars");
      expect(readFileSync(path.join(cwd, "out", "shop-pass-k.svg"), "utf8")).toMatch(/^<svg/);

      const text = await runInProcess(["analyze", runId, "--store", store, "--bootstrap", "0"]);
      expect(text.code).toBe(0);
      expect(text.out).toMatch(/Task success \(booked an admissible listing/);
      expect(text.out).toMatch(/pass\^k: the chance that k trials/);
      expect(text.out).toMatch(/Constraint violations/);
      expect(text.out).toMatch(/Search behaviour/);
      expect(text.out).toMatch(/Price-equivalents at \$250 a night/);
      expect(text.out).toMatch(/sim:careful: conditional logit over the admissible listings shown/);
      expect(text.out).toMatch(/Funnel: P\(viewed \| shown\)/);

      const watch = await runInProcess(["watch", runId, "--store", store, "--episode", "0"]);
      expect(watch.code).toBe(0);
      expect(watch.out).toMatch(/^episode #0 · sim:careful · shop/m);
      expect(watch.out).toMatch(/^call 1 \(message 1\): search\(\{/m);
      expect(watch.out).toMatch(/^(booked \w+ .* · price cap met|gave-up: No listing)/m);
      const list = await runInProcess([
        "watch",
        runId,
        "--store",
        store,
        "--outcome",
        "gave-up",
        "--kind",
        "infeasible",
        "--agent",
        "sim:careful",
      ]);
      expect(list.code).toBe(0);
      expect(list.out).toMatch(/filters: agent=sim:careful, outcome=gave-up, kind=infeasible · \d+ matching/);
    },
    HEAVY,
  );

  it("refuses impossible designs with exit 2 and writes no store", async () => {
    const cwd = tempDir();
    const store = path.join(cwd, "s.db");
    const cases: [string[], RegExp][] = [
      [["--page-size", "0"], /--page-size: expected a number ≥ 1/],
      [["--sponsored-rate", "1.5"], /--sponsored-rate: expected a rate from 0 to 1/],
      [["--discount-rate", "-0.2"], /--discount-rate: expected a rate from 0 to 1/],
      [["--families", "open,haystack"], /--families: unknown task family "haystack"/],
      [["--families", "open:0"], /impossible shop design: no task family has a share above 0/],
      [["--listings", "400"], /400 listings per catalog, but the hotel pool has 179 hotels/],
      [["--admissible", "5-2"], /maxAdmissible 2 is below minAdmissible 5/],
      [["--agent", "sim:nosy"], /unknown agent "sim:nosy" for shop runs/],
      [["--pairs", "3"], /--pairs is an option of `run choice`.*not of `run shop`/],
    ];
    for (const [args, message] of cases) {
      const r = await runInProcess(["run", "shop", ...args, "--store", store]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toMatch(message);
      expect(existsSync(store)).toBe(false);
    }
  });
});

describe("the shop's rules, as a run records them", () => {
  it("shown-only: an invented id is answered with an error and never booked", async () => {
    const store = path.join(tempDir(), "s.db");
    const r = await runInProcess([
      "run",
      "shop",
      "--agent",
      "sim:invents-ids",
      "--tasks",
      "30",
      "--replicates",
      "2",
      "--store",
      store,
    ]);
    expect(r.code).toBe(0);
    const records = await exported(store, runIdOf(r.out));
    let invented = 0;
    for (const rec of records) {
      const shown = new Set(rec.shown.map((s) => s.id));
      for (const t of rec.trajectory) {
        if ((t.tool === "view" || t.tool === "book") && t.step !== null && !shown.has(t.args.id ?? "")) {
          invented++;
          expect(t.ok).toBe(false);
          expect(t.summary).toMatch(/is not among the results you have been shown/);
        }
      }
      if (rec.booked) expect(shown.has(rec.booked.id)).toBe(true);
    }
    expect(invented).toBeGreaterThan(5);
  });

  it("out of steps: a budget of one call ends every episode after its first search, the rest not run", async () => {
    const store = path.join(tempDir(), "s.db");
    const r = await runInProcess([
      "run",
      "shop",
      "--agent",
      "sim:careful",
      "--tasks",
      "20",
      "--replicates",
      "1",
      "--max-steps",
      "1",
      "--families",
      "open",
      "--store",
      store,
    ]);
    expect(r.code).toBe(0);
    const records = await exported(store, runIdOf(r.out));
    expect(records).toHaveLength(20);
    for (const x of records) {
      expect(x.endReason).toBe("out-of-steps");
      expect(x.steps).toBe(1);
      expect(x.success).toBe(false);
      expect(x.trajectory[0]).toMatchObject({ step: 1, tool: "search", ok: true });
      // A second area's search in the same message came after the budget ran out.
      for (const t of x.trajectory.slice(1))
        expect(t).toMatchObject({ step: null, summary: "not run: the episode was over" });
    }
    expect(records.some((x) => x.trajectory.length === 2)).toBe(true);
  });

  it("invalid-call limit: with --max-invalid 1 an invented id ends the episode as a non-response", async () => {
    const store = path.join(tempDir(), "s.db");
    const r = await runInProcess([
      "run",
      "shop",
      "--agent",
      "sim:invents-ids",
      "--tasks",
      "30",
      "--replicates",
      "2",
      "--max-invalid",
      "1",
      "--store",
      store,
    ]);
    expect(r.code).toBe(0);
    const records = await exported(store, runIdOf(r.out));
    const invalid = records.filter((x) => x.endReason === "invalid");
    expect(invalid.length).toBeGreaterThan(3);
    expect(r.out).toMatch(new RegExp(`non-responses this time: ${invalid.length} \\(`));
    for (const x of invalid) {
      expect(x.nonResponse?.reason).toMatch(/^1 invalid calls in a row \(last: listing ".*" is not among/);
      expect(x.trajectory.filter((t) => t.step !== null).at(-1)!.ok).toBe(false);
    }
  });
});
