/** Small, hand-checked cases of the choice building blocks. */
import { describe, expect, it } from "vitest";
import {
  binaryDesign,
  type ChoiceTrial,
  choiceTrialsFromRecords,
  chooseForm,
  DEFAULT_CONVENTION,
  fitBinaryChoice,
  formatAgreement,
  pooledOptionPrices,
  priceDecile,
  priceDecileEdges,
  providerBrandTest,
  REFERENCE_CONVENTION,
  reviewWtp,
  triageAgent,
  WeightedBinaryLogit,
} from "../../../analysis/choice/index.ts";
import { fitBinaryLogit, type LogitFitOk } from "../../../analysis/logit/index.ts";
import type { ChoiceOption } from "../../../environments/choice/types.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { presetAgents, simulateChoiceTrials } from "./simulate.ts";

function option(price: number, extra: Partial<ChoiceOption> = {}): ChoiceOption {
  return {
    hotelId: Math.round(price),
    name: `H${price}`,
    stars: 3,
    neighborhood: "Midtown",
    chain: "Independent",
    price,
    roomType: "King Room",
    freeCancellation: false,
    breakfast: false,
    reviewScore: 8,
    reviewCount: 1000,
    ...extra,
  };
}

function trial(
  kind: ChoiceTrial["kind"],
  order: number[],
  chosenSlot: number | null,
  prices: number[],
): ChoiceTrial {
  return {
    agent: "a",
    taskId: `${kind}-${order.join("")}`,
    cluster: `${kind}1`,
    kind,
    appearance: 1,
    order,
    options: order.map((i) => option(prices[i]!)),
    chosenSlot,
  };
}

describe("price deciles", () => {
  it("cut points are numpy's linear percentiles with the bottom edge lowered by 0.5", () => {
    // np.percentile(range(1, 12), range(0, 110, 10)) = 1, 2, …, 11.
    const edges = priceDecileEdges(Array.from({ length: 11 }, (_, i) => i + 1));
    expect(edges).toEqual([0.5, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // np.percentile([10, 20, 40, 80], 50) = 30; 10th percentile = 13.
    expect(priceDecileEdges([10, 20, 40, 80])[5]).toBeCloseTo(30, 12);
    expect(priceDecileEdges([10, 20, 40, 80])[1]).toBeCloseTo(13, 12);
  });

  it("bins are closed on the right, and out-of-range prices go to the end deciles", () => {
    const edges = [0.5, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
    expect(priceDecile(1, edges)).toBe(1);
    expect(priceDecile(2, edges)).toBe(1);
    expect(priceDecile(2.01, edges)).toBe(2);
    expect(priceDecile(11, edges)).toBe(10);
    expect(priceDecile(500, edges)).toBe(10);
    expect(priceDecile(0.1, edges)).toBe(1);
  });

  it("pooled prices count each drawn option once, whatever the display orders", () => {
    const trials = [trial("binary", [0, 1], 0, [100, 200]), trial("binary", [1, 0], 1, [100, 200])];
    expect(pooledOptionPrices(trials)).toEqual([100, 200]);
    expect(pooledOptionPrices([...trials, trial("five", [0, 1, 2, 3, 4], 0, [1, 2, 3, 4, 5])])).toEqual([
      100, 200,
    ]);
  });
});

describe("triage", () => {
  it("counts the earlier-shown of options A and B, as the reference (original A + swap B)", () => {
    const t = [
      trial("binary", [0, 1], 0, [1, 2]), // A shown first, booked: first-shown
      trial("binary", [1, 0], 0, [1, 2]), // swap: B shown first, booked B: first-shown
      trial("ternary", [2, 1, 0], 1, [1, 2, 3]), // swap ternary: B in the middle, before A: first-shown
      trial("ternary", [2, 1, 0], 2, [1, 2, 3]), // booked A, shown after B: not first-shown
      trial("ternary", [2, 1, 0], 0, [1, 2, 3]), // booked C: not in the statistic
      trial("binary", [0, 1], null, [1, 2]), // non-response
    ];
    const r = triageAgent(t);
    expect(r.pairAnswers).toBe(4);
    expect(r.firstShownRate).toBe(0.75);
    expect(r.binaryFirstSlotRate).toBe(1);
    expect(r.nonResponses).toBe(1);
    expect(r.verdict).toBe("engaged");
    expect(r.orderDecidedShare).toBeCloseTo(0.5, 12);
    expect(r.slotShares.ternary!.shares).toEqual([1 / 3, 1 / 3, 1 / 3]);
  });

  it("locks above |rate − 0.5| > 0.35 in both directions; no answers is no data", () => {
    const primacy = Array.from({ length: 20 }, (_, i) => trial("binary", [0, 1], i < 18 ? 0 : 1, [1, 2]));
    expect(triageAgent(primacy).verdict).toBe("locked-primacy"); // 90%
    const recency = Array.from({ length: 20 }, (_, i) => trial("binary", [0, 1], i < 2 ? 0 : 1, [1, 2]));
    expect(triageAgent(recency).verdict).toBe("locked-recency"); // 10%
    const edge = Array.from({ length: 20 }, (_, i) => trial("binary", [0, 1], i < 17 ? 0 : 1, [1, 2]));
    expect(triageAgent(edge).verdict).toBe("engaged"); // exactly 85% is not beyond the cut-off
    expect(triageAgent([trial("binary", [0, 1], null, [1, 2])]).verdict).toBe("no-data");
  });
});

describe("the functional-form rule (reference: AIC_lin − AIC_log against ±2, both p > 0.05 ⇒ insignificant)", () => {
  const mockFit = (aic: number, name: string, p: number): LogitFitOk =>
    ({
      status: "ok",
      aic,
      names: [name],
      coefficients: [{ name, estimate: -1, se: 1, z: -1, p, ciLow: 0, ciHigh: 0 }],
    }) as unknown as LogitFitOk;
  it("picks linear, log, tie or insignificant", () => {
    expect(chooseForm(mockFit(100, "price", 0.01), mockFit(103, "lnPrice", 0.01))).toBe("linear");
    expect(chooseForm(mockFit(103, "price", 0.01), mockFit(100, "lnPrice", 0.01))).toBe("log");
    expect(chooseForm(mockFit(101, "price", 0.01), mockFit(100, "lnPrice", 0.01))).toBe("tie");
    expect(chooseForm(mockFit(100, "price", 0.2), mockFit(110, "lnPrice", 0.06))).toBe("insignificant");
    expect(chooseForm(mockFit(100, "price", 0.2), mockFit(110, "lnPrice", 0.04))).toBe("linear");
  });
});

describe("WTP", () => {
  it("is −β_review/β_price (× P_ref in the log form) with the delta-method SE of the ratio", () => {
    const vcov = [
      [0.04, 0.01],
      [0.01, 0.09],
    ];
    const fit = {
      status: "ok",
      names: ["review", "lnPrice"],
      coefficients: [{ estimate: 1.2 }, { estimate: -6 }],
      vcov,
      level: 0.95,
    } as unknown as LogitFitOk;
    const w = reviewWtp(fit, "log", 250)!;
    expect(w.estimate).toBeCloseTo(50, 12);
    // g = (−250/β_p, 250·β_r/β_p²) = (41.667, 8.333); var = gᵀVg
    const g = [250 / 6, (250 * 1.2) / 36];
    const v = g[0]! ** 2 * 0.04 + 2 * g[0]! * g[1]! * 0.01 + g[1]! ** 2 * 0.09;
    expect(w.se).toBeCloseTo(Math.sqrt(v), 10);
    expect(w.priceDecreasesUtility).toBe(true);
    expect(reviewWtp(fit, "linear")).toBeNull(); // no `price` coefficient in this fit
  });
});

describe("the bootstrap refit", () => {
  it("a fit with integer weights equals the fit on the expanded resample", () => {
    const trials = simulateChoiceTrials(presetAgents("quality"), { pairs: 120, triples: 0, fives: 0 }, 5);
    const d = binaryDesign(trials, { priceForm: "log" }, DEFAULT_CONVENTION);
    const rng = createRng("weights");
    const weights = Float64Array.from(d.y, () => rng.int(3));
    const rows = d.X.flatMap((x, i) => Array.from({ length: weights[i]! }, () => x));
    const ys = d.y.flatMap((y, i) => Array.from({ length: weights[i]! }, () => y));
    const full = fitBinaryLogit({ X: rows, y: ys, names: d.names });
    if (full.status !== "ok") throw new Error(full.reason);
    const start = new Array(d.names.length).fill(0);
    const beta = new WeightedBinaryLogit(d.X, d.y).fit(weights, start, { tolerance: 1e-10 })!;
    full.coefficients.forEach((c, j) => {
      expect(beta[j]).toBeCloseTo(c.estimate, 8);
    });
  });

  it("returns null for a separated resample instead of a huge coefficient", () => {
    const X = [
      [1, -1],
      [1, -2],
      [1, 1],
      [1, 2],
    ];
    const y: (0 | 1)[] = [0, 0, 1, 1];
    expect(new WeightedBinaryLogit(X, y).fit(Float64Array.from([1, 1, 1, 1]), [0, 0])).toBeNull();
  });
});

describe("other pieces", () => {
  it("label form: A − B differences whatever the display order; non-responses coded B", () => {
    const t = [trial("binary", [1, 0], 0, [100, 200]), trial("binary", [0, 1], null, [100, 200])];
    const d = binaryDesign(t, { priceForm: "linear" }, REFERENCE_CONVENTION);
    expect(d.y).toEqual([0, 0]);
    expect(d.X.map((r) => r.at(-1))).toEqual([-100, -100]);
    expect(d.names[0]).toBe("labelA");
    expect(() =>
      binaryDesign(t, { priceForm: "linear" }, { ...DEFAULT_CONVENTION, nonResponses: "as-B" }),
    ).toThrow(/label form/);
  });

  it("a locked agent's binary fit is 'not identified' when every answer is the first slot", () => {
    const t = Array.from({ length: 30 }, (_, i) => ({
      ...trial("binary", [0, 1], 0, [100 + i, 300 - i]),
      cluster: `b${i}`,
    }));
    const fit = fitBinaryChoice(t, { priceForm: "log" }, DEFAULT_CONVENTION);
    expect(fit.status).toBe("not-identified");
  });

  it("format agreement needs three agents; the provider test needs pairs within and across", () => {
    expect(
      formatAgreement([{ agent: "a", binaryLog: 1, ternaryLog: 1, binaryLinear: 1, ternaryLinear: 1 }])
        .spearmanLog,
    ).toBeNull();
    // Ranks of the price sensitivities |β|, as the reference's figure code: the sign does not count.
    const rows = [1, 2, 3, 4].map((v) => ({
      agent: `a${v}`,
      binaryLog: -v,
      ternaryLog: -v * v,
      binaryLinear: v,
      ternaryLinear: -1 / v,
    }));
    expect(formatAgreement(rows).spearmanLog).toBeCloseTo(1, 12);
    expect(formatAgreement(rows).spearmanLinear).toBeCloseTo(-1, 12);
    // A sign change moves a model's sensitivity rank only through |β| (Gemma3 1B's +0.13).
    const flipped = rows.map((r, i) => (i === 0 ? { ...r, binaryLog: 0.5 } : r));
    expect(formatAgreement(flipped).spearmanLog).toBeCloseTo(1, 12);
    const rng = createRng(1);
    expect(providerBrandTest([{ provider: "x", premiums: [1, 2, 3] }], rng)).toBeNull();
    const agents = [
      { provider: "x", premiums: [1, 2, 3, 4, 5] },
      { provider: "x", premiums: [1, 2, 3, 4, 6] },
      { provider: "y", premiums: [5, 4, 3, 2, 1] },
      { provider: "y", premiums: [5, 4, 3, 1, 1] },
    ];
    const test = providerBrandTest(agents, rng, 500)!;
    expect(test.withinMeanR).toBeGreaterThan(0.9);
    expect(test.acrossMeanR).toBeLessThan(-0.8);
    expect(test.p).toBeLessThan(0.5);
  });

  it("records from an export become trials; a foreign record names its index and field", () => {
    const rec = {
      env: "choice",
      agent: "a",
      taskId: "t",
      cluster: "b1",
      kind: "binary",
      appearance: 1,
      order: [0, 1],
      options: [option(1), option(2)],
      chosenSlot: 1,
    };
    expect(choiceTrialsFromRecords([rec])[0]!.chosenSlot).toBe(1);
    expect(() => choiceTrialsFromRecords([rec, { ...rec, env: "cue" }])).toThrow(/record 1: env/);
    expect(() => choiceTrialsFromRecords([{ ...rec, chosenSlot: 2 }])).toThrow(/chosenSlot/);
  });
});
