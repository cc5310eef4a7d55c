/**
 * Recovery: simulated shoppers whose parameters are known play the shop through the real machine,
 * and every shop estimator gets its truth back (one large seeded run each; the coverage of the
 * intervals over many replications is in coverage.validate.test.ts).
 */
import { describe, expect, it } from "vitest";
import {
  CAREFUL_BETA,
  logitProbabilities,
  SHOP_PRESETS,
  type ShopShopperParams,
  shopUtility,
} from "../../../agents/sim/shop/index.ts";
import { analyzeShop, shopEpisodesFromRecords, shopLogit } from "../../../analysis/shop/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { ARM_COVARIATES, TREATMENT_COVARIATES } from "../../../environments/shop/attributes.ts";
import type { ShopTrialRecord } from "../../../environments/shop/index.ts";
import { simulateShop } from "./simulate.ts";

const PRICE = 250;
const trueBeta = CAREFUL_BETA as Record<string, number>;

/** The probability of each shown listing under the shopper's true logit (what it opened). */
function trueProbabilities(opened: ShopTrialRecord["shown"]): Map<string, number> {
  const u = opened.map((s) => shopUtility(CAREFUL_BETA, { ...s, ...s.treatments }, s.rank, s.page));
  const p = logitProbabilities(u);
  return new Map(opened.map((s, i) => [s.id, p[i]!]));
}

describe("shop estimators recover a careful shopper's known tastes", async () => {
  const { records } = await simulateShop({
    design: { tasks: 700, seed: 17, pageSize: 4, families: { open: 3, dominance: 1 } },
    params: SHOP_PRESETS.careful!.params,
    seed: "recovery",
  });
  const episodes = shopEpisodesFromRecords(records);
  const logit = shopLogit(episodes, { referencePrice: PRICE, draws: 0, rng: createRng(1) });
  const analysis = analyzeShop(episodes, { draws: 0 }).agents[0]!;

  it("fits the conditional logit over the admissible listings shown: every coefficient near its truth", () => {
    if (logit.status !== "ok") throw new Error(logit.reason);
    expect(logit.situations).toBe(700);
    // Every description is neutral in this design: the arm indicators never vary, so none enters.
    expect(logit.dropped).toEqual(["rank5", "rank6plus", ...ARM_COVARIATES]);
    for (const c of logit.fit.coefficients) {
      const z = (c.estimate - trueBeta[c.name]!) / c.robustSe!;
      expect(Math.abs(z), `${c.name}: ${c.estimate} vs ${trueBeta[c.name]}`).toBeLessThan(3.5);
    }
  });

  it("prices each tag, rank 1 and WTP per review point in dollars near the true coefficient ratios", () => {
    if (logit.status !== "ok") throw new Error(logit.reason);
    const truth = (utils: number) => (utils / -trueBeta.lnPrice!) * PRICE;
    for (const t of TREATMENT_COVARIATES) {
      const pe = logit.priceEquivalents.find((p) => p.name === t)!;
      expect(Math.abs(pe.dollars - truth(trueBeta[t]!)) / pe.se, t).toBeLessThan(3.5);
    }
    const rank1 = logit.priceEquivalents.find((p) => p.name === "rank1")!;
    expect(Math.abs(rank1.dollars - truth(-trueBeta.rank2!)) / rank1.se).toBeLessThan(3.5);
    for (const r of logit.rankCurve)
      expect(Math.abs(r.dollars - truth(trueBeta[r.name]!)) / r.se, r.name).toBeLessThan(3.5);
    const wtp = logit.wtpReview!;
    expect(Math.abs(wtp.estimate - truth(trueBeta.review!)) / wtp.robustSe!).toBeLessThan(3.5);
  });

  it("its success is total, it never breaks a constraint, and it views everything it was shown", () => {
    const a = analysis;
    expect(a.outcomes.success.estimate).toBe(1);
    for (const v of Object.values(a.outcomes.violations)) expect(v.hits).toBe(0);
    for (const r of a.funnel.byRank) expect(r.rate).toBe(1);
    expect(a.behaviour.sorts.recommended).toBe(1);
    // It filters on exactly the constraints each request has.
    const share = (f: (r: ShopTrialRecord) => boolean) => records.filter(f).length / records.length;
    expect(a.behaviour.filters.minStars).toBe(share((r) => r.request.constraints.minStars !== null));
    expect(a.behaviour.filters.amenities).toBe(share((r) => r.request.constraints.amenities.length > 0));
    expect(a.behaviour.filters.area).toBe(1);
    expect(a.behaviour.parallelMessageShare).toBeGreaterThan(0.3);
    expect(a.money.meanOverCheapest).toBeGreaterThan(0);
  });

  it("books the designed dominated listing about as often as its logit says", () => {
    const dom = records.filter((r) => r.family === "dominance");
    const expected = dom.map((r) => trueProbabilities(r.shown).get(r.dominance!.dominated)!);
    const observed = dom.filter((r) => r.booked!.id === r.dominance!.dominated).length;
    const mean = expected.reduce((a, b) => a + b, 0);
    const sd = Math.sqrt(expected.reduce((a, p) => a + p * (1 - p), 0));
    const a = analysis;
    expect(a.dominance.bookedDominated.hits).toBe(observed);
    expect(Math.abs(observed - mean)).toBeLessThan(4 * sd);
  });
});

describe("violation rates recover a constraint-ignoring shopper's known behaviour", async () => {
  const params: ShopShopperParams = { ...SHOP_PRESETS.careful!.params, ignoreShare: 0.4 };
  const { records } = await simulateShop({ design: { tasks: 500, seed: 5 }, params, seed: "ignore" });
  const a = analyzeShop(shopEpisodesFromRecords(records), { draws: 0 }).agents[0]!;

  it("each constraint's violation rate matches the shopper's own chance of breaking it", () => {
    for (const type of ["price", "stars", "area", "amenities"] as const) {
      // Per booking: the chance, under the shopper's logit over what it opened, that it broke `type`.
      let expected = 0;
      let variance = 0;
      let n = 0;
      for (const r of records) {
        if (!r.booked || !(type in (r.constraints ?? {}))) continue;
        n++;
        const opened = r.shown.filter((s) => s.viewed);
        const p = trueProbabilities(opened);
        const breaks = opened.filter((s) => !s.admissible && violates(r, s, type));
        const q = breaks.reduce((acc, s) => acc + p.get(s.id)!, 0);
        expected += q;
        variance += q * (1 - q);
      }
      const v = a.outcomes.violations[type];
      expect(v.n).toBe(n);
      expect(Math.abs(v.hits - expected), type).toBeLessThan(4 * Math.sqrt(variance) + 1e-9);
    }
    expect(a.outcomes.violations.price.hits).toBeGreaterThan(0);
  });
});

function violates(r: ShopTrialRecord, s: ShopTrialRecord["shown"][number], type: string): boolean {
  const c = r.request.constraints;
  if (type === "price") return s.price > c.maxPrice!;
  if (type === "stars") return c.minStars !== null && s.stars < c.minStars;
  if (type === "area") return c.areas !== null && !c.areas.includes(s.area);
  return c.amenities.some((x) => (x === "breakfast" ? !s.breakfast : !s.freeCancellation));
}
