/**
 * The cue audit's full offline battery, as a user runs it: every condition and the additivity
 * factorial on the paper-configured simulated shopper (about 60,000 trials), analysed with its report:
 * the paper's pattern comes out. A long run: `npm run test:long`.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { CueAnalysis } from "../../analysis/cue/index.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";
import { runCue as run } from "../helpers/cue-runs.ts";

const inProcess = runInProcess;

describe("bazaar run cue, then bazaar analyze: the whole battery", () => {
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
});
