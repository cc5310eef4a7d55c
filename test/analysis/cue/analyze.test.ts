import { describe, expect, it } from "vitest";
import { CUE_PRESETS, type CueShopperParams } from "../../../agents/sim/index.ts";
import { analyzeCue, type CategoryCueAnalysis, intervalCovers } from "../../../analysis/cue/index.ts";
import { DEFAULT_CUE_LIBRARY, DEFAULT_PRODUCT_PAIRS } from "../../../datasets/products/index.ts";
import { buildCueTasks, type CueDesignInput } from "../../../environments/cue/index.ts";
import { simulateCue } from "./simulate.ts";

function run(params: CueShopperParams, design: CueDesignInput, seed: string | number, bootstrap = 300) {
  const tasks = buildCueTasks(
    { categories: ["headphones"], ...design },
    DEFAULT_PRODUCT_PAIRS,
    DEFAULT_CUE_LIBRARY,
  );
  return analyzeCue(simulateCue(params, tasks, 6, seed), { bootstrap, seed });
}

function category(a: ReturnType<typeof analyzeCue>): CategoryCueAnalysis {
  const c = a.agents[0]?.categories[0];
  if (!c) throw new Error("no category");
  return c;
}

const truthOf = (params: CueShopperParams, name: string) =>
  (params.pulls[name]?.mean ?? 0) / params.priceSensitivity;

describe("recovery on the simulated shopper (paper N: 6 pairs × 8 premiums × 24)", () => {
  const params = CUE_PRESETS.moderate!.params;
  const names = ["social-proof-strong", "authority", "scarcity", "social-proof-moderate"];
  const cat = category(
    run(params, { conditions: [...names, "neutral", "vacuous", "price-only"], blocks: ["main"] }, 2026),
  );

  it("recovers each PE = pull / sensitivity, mostly inside its bootstrap interval", () => {
    let covered = 0;
    for (const name of names) {
      const c = cat.conditions.find((x) => x.condition === name)!;
      const truth = truthOf(params, name);
      expect(c.pe.kind, name).toBe("point");
      // The PE's sampling SD at this N is about half a point (validate: cue coverage study).
      expect(Math.abs((c.pe as { value: number }).value - truth), name).toBeLessThan(0.015);
      if (intervalCovers(c.interval!.pooled, truth)) covered++;
      expect(c.logistic.status).toBe("ok");
      if (c.logistic.status === "ok") expect(Math.abs(c.logistic.difference ?? 1)).toBeLessThan(0.03);
    }
    expect(covered).toBeGreaterThanOrEqual(3);
    expect(new Set(cat.ranking.slice(0, 2))).toEqual(new Set(["authority", "social-proof-strong"]));
    expect(new Set(cat.ranking.slice(2, 4))).toEqual(new Set(["scarcity", "social-proof-moderate"]));
  });

  it("reads price sensitivity and the price of the first slot from the price-only control", () => {
    const s = cat.priceSensitivity!;
    // ½[σ(−0.1·30 + 0.4) + σ(−0.1·30 − 0.4)] = 0.0512.
    expect(s.keepDearerAt10).toBeGreaterThan(0.01);
    expect(s.keepDearerAt10).toBeLessThan(0.11);
    expect(s.equalPriceRate).toBeGreaterThan(0.4);
    expect(s.equalPriceRate).toBeLessThan(0.6);
    expect(Math.abs(s.slope!.estimate + 30)).toBeLessThan(3.5 * s.slope!.se);
    expect(s.positionPrice.kind).toBe("point");
    expect(Math.abs((s.positionPrice as { value: number }).value - 0.4 / 30)).toBeLessThan(0.01);
    expect(s.priceInsensitive).toBe(false);
    // A first-slot lean of b = 0.4: σ(0.4) ≈ 0.60 of the answers where little else pulls.
    expect(cat.primacy.lowSignal.conditions).toEqual(expect.arrayContaining(["neutral", "vacuous"]));
    expect(cat.primacy.lowSignal.firstOptionRate).toBeGreaterThan(0.54);
    expect(cat.primacy.firstOptionRate).toBeLessThan(cat.primacy.lowSignal.firstOptionRate!);
  });
});

describe("censoring and identification", () => {
  it("marks ‡ and † exactly where the true PE lies outside the grid", () => {
    const params = CUE_PRESETS.skeptic!.params;
    for (const seed of [1, 2, 3]) {
      const cat = category(
        run(
          params,
          {
            conditions: ["scarcity", "social-proof-very-strong", "social-proof-strong", "authority"],
            blocks: ["main"],
          },
          seed,
          0,
        ),
      );
      const kind = (n: string) => cat.conditions.find((c) => c.condition === n)?.pe.kind;
      expect(kind("scarcity")).toBe("floor");
      expect(kind("social-proof-very-strong")).toBe("right");
      expect(kind("social-proof-strong")).toBe("point");
      expect(kind("authority")).toBe("point");
      expect(new Set(cat.ranking)).toEqual(new Set(["authority", "social-proof-strong"]));
    }
  });

  it("the locked shopper yields 'not identified', not a null", () => {
    const cat = category(
      run(
        CUE_PRESETS.locked!.params,
        { conditions: ["social-proof-strong", "scarcity", "price-only"], blocks: ["main"] },
        1,
        0,
      ),
    );
    for (const c of cat.conditions) {
      expect(c.pe.kind, c.condition).toBe("not-identified");
      expect(c.equalPriceFirstRate).toBe(1);
    }
    expect(cat.primacy.firstOptionRate).toBe(1);
    expect(cat.primacy.orderFollowing.sort()).toEqual(["price-only", "scarcity", "social-proof-strong"]);
    expect(cat.ranking).toEqual([]);
  });

  it("a price-blind shopper is flagged, and its curves that never cross are not read as cue strength", () => {
    const cat = category(
      run(
        CUE_PRESETS["price-blind"]!.params,
        { conditions: ["social-proof-strong", "price-only"], blocks: ["main"] },
        1,
        0,
      ),
    );
    expect(cat.priceSensitivity?.priceInsensitive).toBe(true);
    expect(cat.priceSensitivity?.keepDearerAt10).toBeGreaterThan(0.4);
    const sp = cat.conditions.find((c) => c.condition === "social-proof-strong")!;
    expect(sp.crossing.kind).toBe("right");
    expect(sp.pe.kind).toBe("not-identified");
    expect((sp.pe as { reason: string }).reason).toMatch(/^price-insensitive/);
  });

  it("excludes an agent whose non-response rate passes the threshold, and says why", () => {
    const a = run(CUE_PRESETS.evasive!.params, { conditions: ["scarcity"], blocks: ["main"] }, 1, 0)
      .agents[0]!;
    // 0.6³ = 21.6% of trials stay unanswered after two re-asks.
    expect(a.nonResponseRate).toBeGreaterThan(0.17);
    expect(a.nonResponseRate).toBeLessThan(0.26);
    expect(a.excluded).toBe(true);
    expect(a.exclusionNote).toMatch(
      /excluded from cross-model claims: \d+\.\d% of its trials are non-responses \(threshold 10%\)/,
    );
    expect(a.nonResponseReasons[0]?.reason).toBe("off-format");
  });
});

describe("the additivity factorial", () => {
  it("finds an additive shopper additive on both scales and recovers each cue's price", () => {
    const params = CUE_PRESETS.moderate!.params;
    const cat = category(run(params, { blocks: ["additivity"] }, 4, 0));
    const t = cat.additivity!.test;
    if (t.status !== "ok") throw new Error(t.reason);
    expect(t.logOddsAdditive).toBe(true);
    expect(t.priceAdditive).toBe(true);
    for (const m of t.mainEffects) {
      const truth = truthOf(params, m.term);
      expect(Math.abs((m.price.value ?? 1) - truth), m.term).toBeLessThan(0.01);
    }
    expect(cat.additivity!.cells).toHaveLength(8);
  });

  it("detects an interaction when combining two cues is worth less than their sum", () => {
    const params = CUE_PRESETS.moderate!.params;
    const tasks = buildCueTasks(
      { blocks: ["additivity"], categories: ["headphones"] },
      DEFAULT_PRODUCT_PAIRS,
      DEFAULT_CUE_LIBRARY,
    );
    // Cells holding both social proof and authority lose their pull beyond a 12% premium.
    const obs = simulateCue(params, tasks, 6, 4).map((o) =>
      o.factors?.["social-proof-strong"] && o.factors.authority && o.premium >= 0.12 && o.choseCued !== null
        ? { ...o, choseCued: false, chosenSlot: o.cuedFirst ? 1 : 0 }
        : o,
    );
    const t = category(analyzeCue(obs, { bootstrap: 0 })).additivity!.test;
    if (t.status !== "ok") throw new Error(t.reason);
    const spXau = t.interactions.find((i) => i.term === "social-proof-strong × authority")!;
    expect(spXau.holmP).toBeLessThan(0.05);
    expect(spXau.price.value).toBeLessThan(-0.01);
    expect(t.logOddsAdditive).toBe(false);
  });
});

describe("instruction paraphrases", () => {
  it("estimates each paraphrased condition under every instruction and compares the rankings", () => {
    const cat = category(
      run(
        CUE_PRESETS.moderate!.params,
        {
          blocks: ["paraphrases"],
          paraphrases: { conditions: ["social-proof-strong", "authority", "scarcity", "neutral"] },
        },
        2,
        0,
      ),
    );
    const p = cat.paraphrases!;
    expect(p.instructions).toEqual([0, 1, 2, 3]);
    expect(p.table.every((r) => r.byInstruction.every((e) => e?.pe.kind === "point"))).toBe(true);
    for (const r of p.rankCorrelation) expect(r.rho).toBeGreaterThan(0.7);
    expect(p.maxDrift!.drift).toBeLessThan(0.03);
  });
});
