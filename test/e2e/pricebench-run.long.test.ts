/**
 * A new model on the PriceBench release's own tasks, as a user runs it: `bazaar run choice --tasks
 * <release>` (optionally `--prompt-template`), `bazaar import pricebench <release>`, then one
 * `bazaar analyze … --with-runs 'pricebench-*'` that places the new model among the imported ones.
 * The first part uses a release-shaped fixture (always runs); the second the real release with all
 * 28 response sets (skips with a notice when ../shared/datasets/pricebench is absent).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CHOICE_PRESETS } from "../../agents/sim/index.ts";
import type { ChoiceAnalysis } from "../../analysis/choice/index.ts";
import { coefficient } from "../../analysis/choice/index.ts";
import { writeFixtureRelease } from "../datasets/pricebench/release-fixture.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";

const TEMPLATE = path.resolve(
  import.meta.dirname,
  "../../environments/choice/templates/pricebench-reference.txt",
);
const DIR = path.resolve(import.meta.dirname, "../../../shared/datasets/pricebench");
const released = existsSync(path.join(DIR, "conjoint_tasks.csv"));
if (!released)
  console.warn(`[skip] PriceBench release not found at ${DIR}; the run-on-the-release e2e is skipped.`);

interface Exported {
  taskId: string;
  cluster: string;
  appearance: number;
  order: number[];
  options: { price: number; amenities?: string[] }[];
}

function jsonl(text: string): Exported[] {
  return text
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Exported);
}

type Analyses = { runs: string[]; analyses: Record<"default" | "reference", ChoiceAnalysis> };

describe("bazaar run choice --tasks <release> (fixture release)", () => {
  it("runs exactly the release's tasks in both orders with its ids, and joins the imported runs in one analysis", async () => {
    const cwd = tempDir();
    const release = path.join(cwd, "release");
    const fixture = writeFixtureRelease(release, { models: { steep: "steep", locked: "locked" } });
    const store = path.join(cwd, "pb.db");
    const run = await runInProcess([
      "run",
      "choice",
      "--tasks",
      release,
      "--agent",
      "sim:quality",
      "--prompt-template",
      TEMPLATE,
      "--store",
      store,
      "--json",
    ]);
    expect(run.err).toBe("");
    expect(run.code).toBe(0);
    const { runId, total } = JSON.parse(run.out) as { runId: string; total: number };
    const n = fixture.tasks.length;
    const k5 = fixture.fiveTasks.length;
    expect(total).toBe(2 * n + 2 * k5);

    const imp = await runInProcess(["import", "pricebench", release, "--store", store]);
    expect(imp.code).toBe(0);
    const exported = async (id: string) => {
      const file = path.join(cwd, `${id}.jsonl`);
      expect((await runInProcess(["export", id, "--store", store, "--out", file])).code).toBe(0);
      return jsonl(readFileSync(file, "utf8"));
    };
    const mine = await exported(runId);
    const theirs = await exported("pricebench-steep");
    // The same tasks, shown the same way, under the same ids and option sets.
    const key = (t: Exported) =>
      `${t.taskId}|${t.cluster}|${t.appearance}|${t.order}|${t.options.map((o) => o.price)}`;
    expect(mine.map(key).sort()).toEqual(theirs.map(key).sort());
    expect(mine.map((t) => t.taskId)).toContain(String(fixture.tasks[0]!.id + 10000));
    expect(mine.map((t) => t.taskId)).toContain("5opt-1");
    expect(mine[0]!.options[0]!.amenities).toEqual(["Free WiFi", "Gym"]);

    // The template is part of the run's identity: the same command without it is another run.
    const plain = await runInProcess([
      "run",
      "choice",
      "--tasks",
      release,
      "--agent",
      "sim:quality",
      "--store",
      path.join(cwd, "plain.db"),
      "--limit",
      "1",
      "--json",
    ]);
    expect(plain.code).toBe(0);
    expect((JSON.parse(plain.out) as { runId: string }).runId).not.toBe(runId);

    const an = await runInProcess([
      "analyze",
      runId,
      "--store",
      store,
      "--with-runs",
      "pricebench-*",
      "--bootstrap",
      "20",
      "--json",
    ]);
    expect(an.code).toBe(0);
    const doc = JSON.parse(an.out) as Analyses;
    expect(doc.runs.sort()).toEqual([runId, "pricebench-locked", "pricebench-steep"].sort());
    for (const key of ["default", "reference"] as const) {
      const agents = doc.analyses[key].agents.map((a) => a.agent);
      expect(agents, key).toEqual(
        expect.arrayContaining(["sim:quality", "pricebench:steep", "pricebench:locked"]),
      );
      expect(
        doc.analyses[key].bootstrap!.agents.map((b) => b.agent),
        key,
      ).toContain("sim:quality");
    }
  });

  it("usage mistakes are one-line errors with exit code 2, and nothing is written", async () => {
    const cwd = tempDir();
    const release = path.join(cwd, "release");
    writeFixtureRelease(release, { models: { steep: "steep" } });
    const bad = path.join(cwd, "bad.txt");
    writeFileSync(bad, "[user]\nPick one.\n{{cards}}\n[card]\n{{hotel}}\n");
    const pairsOnly = path.join(cwd, "pairs-only.txt");
    writeFileSync(pairsOnly, "[user 2]\nPick one.\n{{cards}}\n");
    const store = path.join(cwd, "none.db");
    const cases: [string[], RegExp][] = [
      [
        ["--tasks", release, "--pairs", "10"],
        /--tasks runs the release's own tasks; --pairs sizes bazaar's design/,
      ],
      [["--tasks", path.join(cwd, "nowhere")], /nowhere is not a folder/],
      [
        ["--tasks", release, "--prompt-template", bad],
        /bad\.txt, line 5: unknown placeholder \{\{hotel\}\} in \[card\]/,
      ],
      [
        ["--prompt-template", TEMPLATE, "--variant", "json"],
        /--prompt-template and --variant json both set the wording/,
      ],
      [["--prompt-template", path.join(cwd, "missing.txt")], /--prompt-template: cannot read/],
      // A template must word every option count of the run's tasks.
      [
        ["--prompt-template", pairsOnly],
        /pairs-only\.txt has no user message for 3 or 5 options \(it has \[user 2\]\)/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await runInProcess(["run", "choice", "--agent", "sim:steep", "--store", store, ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err, args.join(" ")).toMatch(message);
    }
    expect(existsSync(store)).toBe(false);
  });
});

describe.skipIf(!released)("a sim agent on the real release's tasks, placed among the 28 models", () => {
  const cwd = released ? tempDir() : "";
  const store = path.join(cwd, "pb.db");
  let runId = "";
  let doc: Analyses;
  const truth = CHOICE_PRESETS.steep!.params!;
  beforeAll(async () => {
    const imp = await runInProcess(["import", "pricebench", DIR, "--store", store]);
    expect(imp.code).toBe(0);
    const run = await runInProcess([
      "run",
      "choice",
      "--tasks",
      DIR,
      "--agent",
      "sim:steep",
      "--store",
      store,
      "--json",
    ]);
    expect(run.err).toBe("");
    expect(run.code).toBe(0);
    runId = (JSON.parse(run.out) as { runId: string }).runId;
    const an = await runInProcess([
      "analyze",
      runId,
      "--store",
      store,
      "--with-runs",
      "pricebench-*",
      "--bootstrap",
      "60",
      "--json",
      "--report",
      path.join(cwd, "out"),
    ]);
    expect(an.code).toBe(0);
    doc = JSON.parse(an.out) as Analyses;
  }, 900_000);

  it("one analysis of 29 agents: the 28 imported models and the sim agent, in both conventions", () => {
    expect(doc.runs).toHaveLength(29);
    for (const key of ["default", "reference"] as const) {
      expect(doc.analyses[key].agents, key).toHaveLength(29);
      expect(doc.analyses[key].agents.find((a) => a.agent === "sim:steep")!.status, key).toBe("engaged");
    }
  });

  it("the sim agent's recovered coefficients match its truth (first-shown form, 4 SE)", () => {
    const a = doc.analyses.default.agents.find((x) => x.agent === "sim:steep")!;
    const fit = a.binary!.log;
    const checks: [string, number][] = [
      ["lnPrice", truth.betaPrice],
      ["review", truth.betaReview],
      ["stars", truth.betaStars],
      ["bed", truth.betaBed],
      ["cancellation", truth.betaCancellation],
      ["breakfast", truth.betaBreakfast],
      ["firstSlot", 0],
    ];
    for (const [name, value] of checks) {
      const c = coefficient(fit, name)!;
      expect(Math.abs(c.estimate - value), `${name}: ${c.estimate} vs ${value} (se ${c.se})`).toBeLessThan(
        4 * c.se,
      );
    }
    for (const p of a.brand!.premiums!) {
      const value = truth.chain[p.chain] ?? 0;
      expect(Math.abs(p.estimate - value), `${p.chain}: ${p.estimate} vs ${value}`).toBeLessThan(4 * p.se);
    }
  });

  it("it appears in every ranking with its interval: bootstrap, cross-model summary, and the report's figures and tables", () => {
    for (const key of ["default", "reference"] as const) {
      const a = doc.analyses[key];
      const boot = a.bootstrap!.agents.find((b) => b.agent === "sim:steep")!;
      expect(boot.wtpLog!.low, key).toBeLessThan(boot.wtpLog!.high);
      expect(boot.lnPrice!.low, key).toBeLessThan(truth.betaPrice + 1);
      expect(a.crossModel.negativePriceResponse.agents, key).toContain("sim:steep");
      expect(a.agents.find((x) => x.agent === "sim:steep")!.wellIdentified, key).toBe(true);
      // The steepest responder of all 29: β ln p = −7 truth, GPT-5.4 −7.02.
      expect(a.bootstrap!.wtpSpreadLog.agents, key).toBe(21);
    }
    const md = readFileSync(path.join(cwd, "out/report.md"), "utf8");
    expect(md).toMatch(/\| sim:steep \| engaged/);
    for (const f of [
      "wtp-ranking.svg",
      "wtp-ranking-reference.svg",
      "price-quality-map.svg",
      "decile-curves.svg",
    ]) {
      expect(readFileSync(path.join(cwd, "out", f), "utf8"), f).toContain("sim:steep");
    }
  });
});
