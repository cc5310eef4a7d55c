import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { CueAnalysis } from "../../analysis/cue/index.ts";
import { DEFAULT_PRODUCT_PAIRS } from "../../datasets/products/index.ts";
import { runCli, runInProcess, tempDir } from "../helpers/cli.ts";

const inProcess = runInProcess;

interface RunJson {
  runId: string;
  stored: number;
  total: number;
}

async function run(cwd: string, args: string[]): Promise<RunJson> {
  const r = await inProcess(["run", "cue", ...args, "--store", path.join(cwd, "bazaar.db"), "--json"]);
  if (r.code !== 0) throw new Error(`run failed (${r.code}): ${r.err}`);
  return JSON.parse(r.out) as RunJson;
}

describe("bazaar run cue, then bazaar analyze (as a user runs them)", () => {
  it("the full offline battery reproduces the paper's pattern on the paper-configured shopper", async () => {
    const cwd = tempDir();
    const r = await run(cwd, []);
    const store = path.join(cwd, "bazaar.db");
    // 15 conditions and the 8-cell factorial, 12 pairs, 24 trials per (pair, premium) cell.
    expect(r.stored).toBe(r.total);
    expect(r.total).toBe(15 * 12 * 8 * 24 + 8 * 12 * 11 * 24);
    const a = await inProcess([
      "analyze",
      r.runId,
      "--store",
      store,
      "--json",
      "--report",
      path.join(cwd, "report"),
    ]);
    expect(a.code, a.err).toBe(0);
    const analysis = JSON.parse(a.out) as CueAnalysis;
    const agent = analysis.agents[0]!;
    expect(agent.agent).toBe("sim:paper");
    expect(agent.excluded).toBe(false);
    for (const cat of agent.categories) {
      const pe = (name: string) => {
        const c = cat.conditions.find((x) => x.condition === name)!;
        return c.pe.kind === "point" ? c.pe.value : Number.NaN;
      };
      const base = (name: string) => cat.conditions.find((x) => x.condition === name)!.baseRate!;
      // Several cues sit at the equal-price ceiling, yet their prices differ by an order of magnitude.
      expect(cat.ceiling.conditions.length, cat.category).toBeGreaterThanOrEqual(5);
      expect(cat.ceiling.conditions).toEqual(
        expect.arrayContaining(["social-proof-strong", "social-proof-very-strong", "authority", "neutral"]),
      );
      expect(cat.ceiling.lowestPe!).toBeLessThan(0.03);
      expect(cat.ceiling.highestPe!).toBeGreaterThan(0.18);
      // The dose-response of social proof: weak and moderate near zero, a step at strong.
      expect(pe("social-proof-weak")).toBeLessThan(pe("social-proof-moderate"));
      expect(pe("social-proof-moderate")).toBeLessThan(0.03);
      expect(pe("social-proof-strong")).toBeGreaterThan(0.1);
      expect(pe("social-proof-very-strong")).toBeGreaterThan(pe("social-proof-strong"));
      // Scarcity wins more often at equal price than gain/loss framing, yet is worth far less.
      expect(base("scarcity")).toBeGreaterThan(base("framing-gain-loss"));
      expect(pe("framing-gain-loss")).toBeGreaterThan(5 * pe("scarcity"));
      // Number-preserving reformatting is (close to) free; the price-only control is unbiased.
      for (const name of ["reformat-rating", "reformat-percent"]) {
        const c = cat.conditions.find((x) => x.condition === name)!;
        expect(c.pe.kind === "floor" || (c.pe.kind === "point" && c.pe.value < 0.01), name).toBe(true);
      }
      expect(Math.abs(cat.priceSensitivity!.equalPriceRate! - 0.5)).toBeLessThan(0.08);
      expect(cat.priceSensitivity!.keepDearerAt10!).toBeLessThan(0.01);
      // Additive on the price scale.
      const f = cat.additivity!.test;
      expect(f.status).toBe("ok");
      if (f.status === "ok") expect(f.priceAdditive).toBe(true);
    }
    const headphones = agent.categories.find((c) => c.category === "headphones")!;
    expect(headphones.ceiling.conditions.length).toBeGreaterThanOrEqual(6);
    const report = readFileSync(path.join(cwd, "report", "report.md"), "utf8");
    expect(report).toMatch(/^# Cue price-equivalents — run cue-/);
    expect(report).toMatch(/Equal-price rate vs price-equivalent/);
    const svg = readFileSync(path.join(cwd, "report", "curves-sim-paper-headphones.svg"), "utf8");
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("social-proof-strong");
    expect(existsSync(path.join(cwd, "report", "additivity-sim-paper-coffee-machines.svg"))).toBe(true);

    const text = await inProcess(["analyze", r.runId, "--store", store, "--bootstrap", "0"]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(
      /conditions by price-equivalent \(‡ PE ≤ 0, † no crossing in the sweep, n\.i\. not identified\)/,
    );
    expect(text.out).toMatch(/conditions have an equal-price rate ≥ 0\.95 .*the price sweep can\./);
  });

  it("runs user pairs and cues picked by a glob, and prints censoring marks for a skeptic", async () => {
    const cwd = tempDir();
    const pairs = DEFAULT_PRODUCT_PAIRS.filter((p) => p.category === "headphones").slice(0, 3);
    writeFileSync(path.join(cwd, "pairs.json"), JSON.stringify({ pairs }));
    writeFileSync(
      path.join(cwd, "cues.json"),
      JSON.stringify([
        { name: "scarcity", family: "scarcity", cue: "Only 2 units remain in stock." },
        {
          name: "social-proof-very-strong",
          family: "social-proof",
          intensity: "very-strong",
          cue: "Over 80,000 shoppers picked this model, more than any other.",
        },
        {
          name: "social-proof-strong",
          family: "social-proof",
          intensity: "strong",
          cue: "More than 10,000 shoppers have bought this model.",
        },
      ]),
    );
    const r = await run(cwd, [
      "--pairs",
      path.join(cwd, "pairs.json"),
      "--cues",
      path.join(cwd, "cues.json"),
      "--conditions",
      "social-proof-*,scarcity",
      "--agent",
      "sim:skeptic",
    ]);
    expect(r.total).toBe(3 * 3 * 8 * 24);
    const a = await inProcess([
      "analyze",
      r.runId,
      "--store",
      path.join(cwd, "bazaar.db"),
      "--bootstrap",
      "100",
    ]);
    expect(a.code).toBe(0);
    expect(a.out).toMatch(/social-proof-very-strong .*>26% †/);
    expect(a.out).toMatch(/scarcity .*≤0 ‡/);
    expect(a.out).toMatch(/price sensitivity: no price-only control in this run/);
  });

  it("refuses bad input with exit code 2 and says what to do", async () => {
    const cwd = tempDir();
    const bad = path.join(cwd, "bad.json");
    writeFileSync(bad, JSON.stringify([{ ...DEFAULT_PRODUCT_PAIRS[0], pairId: "Bad" }]));
    const cases: [string[], RegExp][] = [
      [["--n-per-cell", "10"], /--n-per-cell must be a multiple of 4/],
      [["--grid", "2,4,6"], /--grid must start at 0/],
      [["--grid", "0,4,2"], /increasing order/],
      [["--conditions", "nothing-*"], /no condition matches "nothing-\*"\n {2}conditions: social-proof-weak/],
      [["--pairs", bad], /bad\.json, row 0, pairId: pairId must be lower-case/],
      [["--pairs", path.join(cwd, "missing.json")], /missing\.json does not exist/],
      [["--agent", "sim:nope"], /unknown agent "sim:nope" for cue runs/],
      [["--blocks", "main,extra"], /unknown block "extra"/],
      [["--pool", "x.json"], /--pool is an option of `run choice` and `run shop`, not of `run cue`/],
    ];
    const store = path.join(cwd, "bazaar.db");
    for (const [args, message] of cases) {
      const r = await inProcess(["run", "cue", ...args, "--store", store]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err, args.join(" ")).toMatch(message);
    }
    const spawned = await runCli(["run", "cue", "--n-per-cell", "6"], { cwd });
    expect(spawned.code).toBe(2);
    expect(spawned.stderr).toMatch(/^bazaar: --n-per-cell must be a multiple of 4/);
    expect(existsSync(store)).toBe(false);
  });
});
