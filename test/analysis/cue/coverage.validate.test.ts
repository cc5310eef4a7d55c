/**
 * The cue estimators' replication study at the paper's N (6 pairs per category, 8 premiums, 24
 * trials per cell, 2,000 pair-clustered resamples): across seeded replications of a simulated
 * shopper with known PEs, how often the reported 95% interval holds the truth, the estimator's bias
 * and spread; that censoring marks appear exactly when the truth lies outside the grid; and that a
 * position-locked shopper is never given a PE. Run by `npm run validate`.
 */
import { describe, expect, it } from "vitest";
import { CUE_PRESETS, type CueShopperParams } from "../../../agents/sim/index.ts";
import { analyzeCue, intervalCovers } from "../../../analysis/cue/index.ts";
import { DEFAULT_CUE_LIBRARY, DEFAULT_PRODUCT_PAIRS } from "../../../datasets/products/index.ts";
import { buildCueTasks } from "../../../environments/cue/index.ts";
import { simulateCue } from "./simulate.ts";

const REPLICATIONS = 200;
const BOOTSTRAP = 2000;

interface Tally {
  covered: number;
  percentileCovered: number;
  errors: number[];
  n: number;
}

function study(preset: string, conditions: string[], category: string) {
  const params: CueShopperParams = CUE_PRESETS[preset]!.params;
  const tasks = buildCueTasks(
    { conditions, blocks: ["main"], categories: [category] },
    DEFAULT_PRODUCT_PAIRS,
    DEFAULT_CUE_LIBRARY,
  );
  const tally = new Map<string, Tally>(
    conditions.map((c) => [c, { covered: 0, percentileCovered: 0, errors: [], n: 0 }]),
  );
  for (let r = 0; r < REPLICATIONS; r++) {
    const analysis = analyzeCue(simulateCue(params, tasks, 6, `${preset}/${category}/${r}`), {
      bootstrap: BOOTSTRAP,
      seed: r,
    });
    for (const c of analysis.agents[0]!.categories[0]!.conditions) {
      const truth = params.pulls[c.condition]!.mean / params.priceSensitivity;
      const t = tally.get(c.condition)!;
      t.n++;
      if (intervalCovers(c.interval!.pooled, truth)) t.covered++;
      if (intervalCovers({ ...c.interval!.pooled, ...c.interval!.pooled.percentile }, truth))
        t.percentileCovered++;
      t.errors.push(c.pe.kind === "point" ? c.pe.value - truth : Number.NaN);
    }
  }
  const rows = [...tally.entries()].map(([condition, t]) => {
    const finite = t.errors.filter(Number.isFinite);
    const mean = finite.reduce((a, b) => a + b, 0) / finite.length;
    const sd = Math.sqrt(finite.reduce((a, b) => a + (b - mean) ** 2, 0) / (finite.length - 1));
    return {
      condition,
      truth: params.pulls[condition]!.mean / params.priceSensitivity,
      coverage: t.covered / t.n,
      percentileCoverage: t.percentileCovered / t.n,
      bias: mean,
      sd,
    };
  });
  const pct = (x: number, d = 1) => `${(100 * x).toFixed(d)}%`;
  console.log(
    `\n${preset} shopper, ${category}, ${REPLICATIONS} replications, B = ${BOOTSTRAP}:\n` +
      rows
        .map(
          (r) =>
            `  ${r.condition.padEnd(26)} truth ${pct(r.truth).padStart(6)}  coverage ${pct(r.coverage)} (plain percentile ${pct(r.percentileCoverage)})  bias ${(100 * r.bias).toFixed(2)} pt  sd ${(100 * r.sd).toFixed(2)} pt`,
        )
        .join("\n"),
  );
  const all = [...tally.values()];
  const coverage = all.reduce((a, t) => a + t.covered, 0) / all.reduce((a, t) => a + t.n, 0);
  console.log(`  overall coverage ${pct(coverage)}`);
  return { rows, coverage };
}

describe("cue estimators: replication study at the paper's N", () => {
  it("95% intervals hold the true PE = pull / sensitivity 90–98% of the time (smooth shopper)", () => {
    const conditions = [
      "social-proof-moderate",
      "scarcity",
      "framing-gain-loss",
      "social-proof-strong",
      "authority",
      "social-proof-very-strong",
    ];
    for (const category of ["headphones", "coffee-machines"]) {
      const { rows, coverage } = study("moderate", conditions, category);
      expect(coverage).toBeGreaterThanOrEqual(0.9);
      expect(coverage).toBeLessThanOrEqual(0.98);
      for (const r of rows) {
        expect(r.coverage, r.condition).toBeGreaterThanOrEqual(0.85);
        expect(Math.abs(r.bias), r.condition).toBeLessThan(0.004);
      }
    }
  });

  it("reports coverage for the paper-configured shopper (steep curves between coarse grid points)", () => {
    const { rows } = study(
      "paper",
      ["scarcity", "neutral", "social-proof-strong", "authority", "social-proof-very-strong"],
      "headphones",
    );
    // Steep curves make linear interpolation between 12, 18 and 26% biased by up to a couple of
    // points; the study prints it, and the PE still lands within 3 points of the truth on average.
    for (const r of rows) expect(Math.abs(r.bias), r.condition).toBeLessThan(0.03);
  });

  it("marks ‡ and † exactly when the truth lies outside the grid, and never for truths well inside", () => {
    const params = CUE_PRESETS.skeptic!.params;
    const conditions = [
      "scarcity",
      "social-proof-very-strong",
      "social-proof-strong",
      "authority",
      "social-proof-moderate",
    ];
    const tasks = buildCueTasks(
      { conditions, blocks: ["main"], categories: ["headphones"] },
      DEFAULT_PRODUCT_PAIRS,
      DEFAULT_CUE_LIBRARY,
    );
    const wrong: string[] = [];
    for (let r = 0; r < REPLICATIONS; r++) {
      const cat = analyzeCue(simulateCue(params, tasks, 6, `censor/${r}`), { bootstrap: 0 }).agents[0]!
        .categories[0]!;
      for (const c of cat.conditions) {
        const truth = params.pulls[c.condition]!.mean / params.priceSensitivity;
        const expected = truth < 0 ? "floor" : truth > 0.26 ? "right" : "point";
        if (c.pe.kind !== expected) wrong.push(`${r}/${c.condition}: ${c.pe.kind}`);
      }
    }
    console.log(`\ncensoring marks: ${wrong.length} wrong of ${REPLICATIONS * conditions.length}`);
    expect(wrong).toEqual([]);
  });

  it("the locked shopper is 'not identified' in every replication", () => {
    const tasks = buildCueTasks(
      {
        conditions: ["social-proof-strong", "scarcity", "price-only"],
        blocks: ["main"],
        categories: ["headphones"],
      },
      DEFAULT_PRODUCT_PAIRS,
      DEFAULT_CUE_LIBRARY,
    );
    for (let r = 0; r < 50; r++) {
      const cat = analyzeCue(simulateCue(CUE_PRESETS.locked!.params, tasks, 6, `locked/${r}`), {
        bootstrap: 0,
      }).agents[0]!.categories[0]!;
      for (const c of cat.conditions) expect(c.pe.kind).toBe("not-identified");
    }
  });
});
