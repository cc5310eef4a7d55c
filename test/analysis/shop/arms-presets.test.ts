/**
 * Recovery through the real path: the simulated description presets (`persuadable`, `injectable`,
 * `credulous`, agents/sim/shop/presets.ts) play battery designs through the shop machine, their
 * export records go through `shopEpisodesFromRecords`, and the description estimators get the
 * presets' stated truth back — the same checks as arms-recovery.test.ts makes on synthetic episodes.
 */
import { describe, expect, it } from "vitest";
import {
  CREDULOUS_CREDULITY,
  INJECTABLE_FOLLOW,
  PERSUADABLE_BETA,
  SHOP_PRESETS,
} from "../../../agents/sim/shop/index.ts";
import { analyzeShop, badExposures, shopEpisodesFromRecords } from "../../../analysis/shop/index.ts";
import { simulateShop } from "./simulate.ts";

const PRICE = 250;
const BATTERY = { descriptions: "battery", pageSize: 4, families: { open: 3, dominance: 1 } } as const;

async function described(preset: string, tasks: number, seed: string) {
  const { records } = await simulateShop({
    design: { ...BATTERY, tasks, seed },
    params: SHOP_PRESETS[preset]!.params,
    seed,
  });
  const episodes = shopEpisodesFromRecords(records);
  const a = analyzeShop(episodes, { draws: 100, seed }).agents[0]!;
  if (a.descriptions.status !== "ok") throw new Error(a.descriptions.reason);
  return { records, episodes, a, d: a.descriptions };
}

describe("the persuadable preset's arm price-equivalents", async () => {
  const { d } = await described("persuadable", 700, "presets-persuadable");

  it("price each persuasion arm near β / −β ln p × $250, and the arms it ignores near $0", () => {
    for (const r of d.armPriceEquivalents) {
      expect(r.status, `${r.arm}: ${r.reason}`).toBe("ok");
      const truth = (PERSUADABLE_BETA[r.covariate] / -PERSUADABLE_BETA.lnPrice) * PRICE;
      expect(
        Math.abs(r.pe!.dollars - truth) / r.pe!.se,
        `${r.arm}: ${r.pe!.dollars} vs ${truth}`,
      ).toBeLessThan(3.5);
    }
    expect(d.armPriceEquivalents.find((r) => r.arm === "social-proof")!.pe!.low).toBeGreaterThan(0);
  });
});

describe("the injectable preset's injection followed", async () => {
  const { records, episodes, d } = await described("injectable", 600, "presets-injectable");

  it("books a constraint-breaking injecting listing at its follow rate when it is the first injecting one shown, never a neutral one", () => {
    const pooled = d.injectionFollowed.find((f) => f.name === "injection")!;
    expect(pooled.status).toBe("ok");
    expect(pooled.breaksConstraint.neutralRate).toBe(0);
    // The truth of each constraint-breaking injecting exposure: follow[arm] if it is the first
    // injecting listing its episode showed, else 0 (the shopper books no other bad listing).
    const firstInjecting = records.map(
      (r) => r.shown.find((s) => s.arm === "injection-basic" || s.arm === "injection-strong")?.id,
    );
    for (const f of d.injectionFollowed.filter((x) => x.name.startsWith("injection"))) {
      const xs = badExposures(episodes).filter(
        (x) => f.arms.includes(x.arm) && x.reason === "breaks-constraint",
      );
      const p: number[] = xs.map((x) =>
        firstInjecting[x.episode] === x.id ? INJECTABLE_FOLLOW[x.arm as keyof typeof INJECTABLE_FOLLOW] : 0,
      );
      const expected = p.reduce((s, v) => s + v, 0) / p.length;
      const sd = Math.sqrt(p.reduce((s, v) => s + v * (1 - v), 0)) / p.length;
      expect(f.breaksConstraint.matched, f.name).toBe(xs.length);
      expect(
        Math.abs(f.breaksConstraint.rate! - expected) / sd,
        `${f.name}: ${f.breaksConstraint.rate} vs ${expected}`,
      ).toBeLessThan(3.5);
    }
    expect(pooled.difference!).toBeGreaterThan(0.1);
    expect(pooled.differenceInterval!.low).toBeGreaterThan(0);
  });
});

describe("the credulous preset's false-claim uptake", async () => {
  const { d } = await described("credulous", 600, "presets-credulous");

  it("is its credulity, and no neutral listing lacking a required amenity is booked", () => {
    const u = d.falseClaimUptake;
    expect(u.status).toBe("ok");
    const sd = Math.sqrt((CREDULOUS_CREDULITY * (1 - CREDULOUS_CREDULITY)) / u.uptake.n);
    expect(Math.abs(u.uptake.estimate! - CREDULOUS_CREDULITY) / sd).toBeLessThan(3.5);
    expect(u.neutralLacking.hits).toBe(0);
  });
});
