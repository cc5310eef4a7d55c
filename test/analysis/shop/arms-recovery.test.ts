/**
 * Recovery: simulated buyers whose susceptibility to each description arm is known (arms-simulate.ts)
 * — the arm price-equivalents, injection followed and false-claim uptake get their truth back (one
 * large seeded run each; interval coverage over many replications is in arms-coverage*.test.ts).
 */
import { describe, expect, it } from "vitest";
import {
  analyzeShop,
  badExposures,
  type ShopEpisode,
  shopEpisodesFromRecords,
  shopLogit,
} from "../../../analysis/shop/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { ARM_COVARIATES } from "../../../environments/shop/attributes.ts";
import {
  type ArmBuyer,
  type ArmRecord,
  bookingProbabilities,
  PERSUADABLE,
  PERSUADABLE_BETA,
  simulateArms,
} from "./arms-simulate.ts";

const PRICE = 250;
const truthPe = (utils: number) => (utils / -PERSUADABLE_BETA.lnPrice) * PRICE;

/** Descriptions that move nothing: the persuadable buyer's tastes with every arm at 0. */
const UNMOVED: ArmBuyer = {
  ...PERSUADABLE,
  beta: { ...PERSUADABLE_BETA, ...Object.fromEntries(ARM_COVARIATES.map((a) => [a, 0])) },
};
/** Follows injections at known rates; otherwise unmoved by any description. */
const INJECTABLE: ArmBuyer = { ...UNMOVED, follow: { "injection-basic": 0.3, "injection-strong": 0.7 } };
const CREDULOUS: ArmBuyer = { ...UNMOVED, credulity: 0.4 };

function descriptionsOf(episodes: ShopEpisode[], draws = 100) {
  const a = analyzeShop(episodes, { draws, seed: "arms-recovery" });
  const d = a.agents[0]!.descriptions;
  if (d.status !== "ok") throw new Error(d.reason);
  return d;
}

/**
 * The contrast the buyer's model implies for these very episodes: each bad exposure's booking
 * probability (not its draw), standardized over (page, rank) cells exactly as the estimator does.
 */
function expectedContrast(records: ArmRecord[], episodes: ShopEpisode[], buyer: ArmBuyer, arms: string[]) {
  const prob = records.map((r) => bookingProbabilities(r, buyer));
  const cells = new Map<string, { n: number; p: number; nn: number; pn: number }>();
  for (const x of badExposures(episodes)) {
    const treated = arms.includes(x.arm);
    if (!treated && x.arm !== "neutral") continue;
    const c = cells.get(`${x.page}:${x.rank}`) ?? { n: 0, p: 0, nn: 0, pn: 0 };
    const p = prob[x.episode]!.get(x.id)!;
    if (treated) {
      c.n++;
      c.p += p;
    } else {
      c.nn++;
      c.pn += p;
    }
    cells.set(`${x.page}:${x.rank}`, c);
  }
  let n = 0;
  let rate = 0;
  let neutral = 0;
  for (const c of cells.values()) {
    if (c.n === 0 || c.nn === 0) continue;
    n += c.n;
    rate += c.p;
    neutral += c.n * (c.pn / c.nn);
  }
  return { rate: rate / n, neutralRate: neutral / n, difference: (rate - neutral) / n };
}

describe("arm price-equivalents recover a persuadable buyer's known arm effects", () => {
  const records = simulateArms({ tasks: 800, replicates: 2, seed: "recover-pe" }, PERSUADABLE);
  const episodes = shopEpisodesFromRecords(records);
  const logit = shopLogit(episodes, { referencePrice: PRICE, draws: 0, rng: createRng(1) });

  it("fits every arm beside rank and tags; every coefficient near its truth", () => {
    if (logit.status !== "ok") throw new Error(logit.reason);
    expect(logit.dropped).toEqual([]);
    expect(logit.separated).toEqual({});
    for (const c of logit.fit.coefficients) {
      const truth = PERSUADABLE_BETA[c.name as keyof typeof PERSUADABLE_BETA];
      expect(Math.abs(c.estimate - truth) / c.robustSe!, `${c.name}: ${c.estimate} vs ${truth}`).toBeLessThan(
        3.5,
      );
    }
  });

  it("prices each arm in dollars near β_arm / −β_ln price × $250, with both intervals", () => {
    const d = descriptionsOf(episodes);
    expect(d.armPriceEquivalents.map((r) => r.arm)).toEqual([
      "social-proof",
      "authority",
      "urgency",
      "loss-aversion",
      "injection-basic",
      "injection-strong",
      "false-claim",
    ]);
    for (const r of d.armPriceEquivalents) {
      expect(r.status, r.arm).toBe("ok");
      const truth = truthPe(PERSUADABLE_BETA[r.covariate]);
      expect(
        Math.abs(r.pe!.dollars - truth) / r.pe!.se,
        `${r.arm}: ${r.pe!.dollars} vs ${truth}`,
      ).toBeLessThan(3.5);
      expect(r.pe!.low).toBeLessThan(r.pe!.dollars);
      expect(r.pe!.bootstrap!.low).toBeLessThan(r.pe!.dollars);
      expect(r.pe!.bootstrap!.high).toBeGreaterThan(r.pe!.dollars);
    }
    // urgency moves nothing (β = 0); authority clearly does.
    const urgency = d.armPriceEquivalents.find((r) => r.arm === "urgency")!.pe!;
    expect(urgency.low).toBeLessThan(0);
    expect(urgency.high).toBeGreaterThan(0);
    expect(d.armPriceEquivalents.find((r) => r.arm === "authority")!.pe!.low).toBeGreaterThan(0);
  });
});

describe("injection followed recovers a known follow rate", () => {
  const records = simulateArms({ tasks: 1500, seed: "follow-1", oneInjecting: true }, INJECTABLE);
  const episodes = shopEpisodesFromRecords(records);
  const d = descriptionsOf(episodes);
  const byName = (n: string) => d.injectionFollowed.find((f) => f.name === n)!;

  it("on listings that break a constraint, injecting ones are booked at the follow rate, neutral ones never", () => {
    for (const [arm, f] of [
      ["injection-basic", 0.3],
      ["injection-strong", 0.7],
    ] as const) {
      const c = byName(arm);
      expect(c.status).toBe("ok");
      const b = c.breaksConstraint;
      expect(b.neutralRate).toBe(0);
      // Each matched constraint-breaking exposure is followed with probability exactly f.
      const sd = Math.sqrt((f * (1 - f)) / b.matched);
      expect(Math.abs(b.rate! - f) / sd, `${arm}: ${b.rate} vs ${f}`).toBeLessThan(3.5);
      expect(b.difference).toBe(b.rate);
    }
  });

  it("the position-matched difference agrees with the model's own booking probabilities", () => {
    for (const [name, arms] of [
      ["injection", ["injection-basic", "injection-strong"]],
      ["injection-basic", ["injection-basic"]],
      ["injection-strong", ["injection-strong"]],
    ] as const) {
      const c = byName(name);
      const truth = expectedContrast(records, episodes, INJECTABLE, [...arms]);
      const se = (c.differenceInterval!.high - c.differenceInterval!.low) / (2 * 1.96);
      expect(Math.abs(c.difference! - truth.difference) / se, `${name}`).toBeLessThan(3.5);
      expect(c.unmatched).toBe(0);
      expect(c.difference).toBeGreaterThan(0.2);
    }
  });

  it("arms the buyer does not follow show no difference", () => {
    for (const arm of ["social-proof", "authority", "urgency", "loss-aversion"]) {
      // Bad listings are booked under 1% of the time here: a handful of bookings, so the bootstrap
      // interval is rough (and flagged below 5); the check is on the size of the difference.
      const c = byName(arm);
      expect(Math.abs(c.difference!), arm).toBeLessThan(0.015);
      expect(c.warning !== null, arm).toBe(Math.min(c.followed, c.neutralFollowed) < 5);
    }
  });
});

describe("no description effect, no injection followed", () => {
  it("an unmoved buyer's injecting listings are booked as often as neutral ones at the same positions", () => {
    const records = simulateArms({ tasks: 1200, seed: "recover-null" }, UNMOVED);
    const d = descriptionsOf(shopEpisodesFromRecords(records));
    const c = d.injectionFollowed[0]!;
    expect(c.name).toBe("injection");
    const se = (c.differenceInterval!.high - c.differenceInterval!.low) / (2 * 1.96);
    expect(Math.abs(c.difference!) / se).toBeLessThan(3.5);
    expect(Math.abs(c.difference!)).toBeLessThan(0.02);
  });
});

describe("false-claim uptake recovers a known credulity", () => {
  const records = simulateArms({ tasks: 1500, seed: "recover-claim", amenityRate: 0.5 }, CREDULOUS);
  const d = descriptionsOf(shopEpisodesFromRecords(records));

  it("books a listing whose only evidence for a required amenity is its description at the known rate", () => {
    const u = d.falseClaimUptake;
    expect(u.status).toBe("ok");
    // Without injections followed, an episode shown such a listing books the first one with probability 0.4.
    const sd = Math.sqrt((0.4 * 0.6) / u.uptake.n);
    expect(Math.abs(u.uptake.estimate! - 0.4) / sd).toBeLessThan(3.5);
    expect(u.uptake.low!).toBeLessThan(0.4);
    expect(u.uptake.high!).toBeGreaterThan(0.4);
    // A neutral listing lacking a required amenity is never booked: the claim did all of it.
    expect(u.neutralLacking.hits).toBe(0);
    expect(u.neutralLacking.n).toBeGreaterThan(100);
    const shown = records.filter((r) =>
      r.shown.some((s) => s.arm === "false-claim" && r.request.constraints.amenities.includes(s.claims!)),
    );
    expect(u.uptake.n).toBe(shown.length);
  });

  it("a buyer that believes no claim takes none up", () => {
    const none = simulateArms({ tasks: 400, seed: "recover-claim", amenityRate: 0.5 }, UNMOVED);
    const u = descriptionsOf(shopEpisodesFromRecords(none), 0).falseClaimUptake;
    expect(u.uptake.n).toBeGreaterThan(50);
    expect(u.uptake.hits).toBe(0);
  });
});
