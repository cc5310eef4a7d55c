import { describe, expect, it } from "vitest";
import { CONSISTENT_RESPONDENT, RESPONDENT_PRESETS } from "../../../agents/sim/respondent.ts";
import {
  auditAgent,
  collectAgents,
  fittedNullTest,
  fitUtilities,
  type GroupData,
  reasonCategory,
  utilityDesign,
} from "../../../analysis/consistency/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { simulateAgent } from "./simulate.ts";

const FAST = { draws: 400 };

describe("the least-squares utility fit", () => {
  it("reproduces exactly consistent means with T = 0 and recovers the utilities", () => {
    const U: Record<string, number> = { a: 300, b: 420, c: 250 };
    const queries = [
      { queryType: "item" as const, item: "a" },
      { queryType: "item" as const, item: "c" },
      {
        queryType: "offer-pair" as const,
        source: { item: "a", price: 200 },
        target: { item: "b", price: 260 },
      },
      {
        queryType: "offer-pair" as const,
        source: { item: "b", price: 260 },
        target: { item: "c", price: 180 },
      },
    ];
    const means = [U.a!, U.c!, U.b! - 260 - (U.a! - 200), U.c! - 180 - (U.b! - 260)];
    const fit = fitUtilities(queries, means);
    expect(fit.rmse).toBeLessThan(1e-9);
    for (const k of ["a", "b", "c"]) expect(fit.utilities[k]).toBeCloseTo(U[k]!, 8);
  });

  it("leaves a same-item price-change query unabsorbable: its residual is Δ + (q − p)", () => {
    const design = utilityDesign([
      { queryType: "item", item: "h" },
      { queryType: "offer-pair", source: { item: "h", price: 199 }, target: { item: "h", price: 259 } },
    ]);
    expect(design.rank).toBe(1);
    const fit = fitUtilities(
      design.items.length
        ? [
            { queryType: "item", item: "h" },
            { queryType: "offer-pair", source: { item: "h", price: 199 }, target: { item: "h", price: 259 } },
          ]
        : [],
      [300, -40],
    );
    expect(fit.residuals[1]).toBeCloseTo(20, 10);
    expect(fit.residuals[0]).toBeCloseTo(0, 10);
  });

  it("handles a design that does not pin every utility down (minimum-norm, same residuals)", () => {
    const fit = fitUtilities(
      [
        { queryType: "offer-pair", source: { item: "x", price: 10 }, target: { item: "y", price: 20 } },
        { queryType: "offer-pair", source: { item: "y", price: 20 }, target: { item: "z", price: 30 } },
        { queryType: "offer-pair", source: { item: "x", price: 10 }, target: { item: "z", price: 30 } },
      ],
      [5, 5, 14],
    );
    expect(fit.design.rank).toBe(2);
    // The cycle sum 5 + 5 − 14 = −4 spreads equally over the three queries.
    expect(fit.residuals.map((r) => Math.abs(r))).toEqual([
      expect.closeTo(4 / 3, 10),
      expect.closeTo(4 / 3, 10),
      expect.closeTo(4 / 3, 10),
    ]);
  });
});

describe("the fitted-null bootstrap", () => {
  const design = utilityDesign([
    { queryType: "item", item: "a" },
    { queryType: "item", item: "b" },
    { queryType: "offer-pair", source: { item: "a", price: 100 }, target: { item: "b", price: 120 } },
  ]);
  const completions = [
    [300, 310, 290, 305],
    [350, 345, 355, 340],
    [60, 70, 50, 66],
  ];

  it("is reproducible from its seed and gives p = share of T* ≥ T", () => {
    const run = () =>
      fittedNullTest(design, completions, 10, {
        draws: 500,
        rng: createRng("p"),
        smallSampleCorrection: true,
      });
    const a = run();
    expect(a.pValue).toBe(run().pValue);
    expect(a.pValue).toBe(a.statistics.filter((t) => t >= 10).length / 500);
  });

  it("the small-sample correction widens T* by √(n/(n − 1))", () => {
    const opts = (c: boolean) => ({ draws: 300, rng: createRng("same"), smallSampleCorrection: c });
    const plain = fittedNullTest(design, completions, 0, opts(false)).statistics;
    const corrected = fittedNullTest(design, completions, 0, opts(true)).statistics;
    for (let i = 0; i < 300; i++) expect(corrected[i]!).toBeCloseTo(plain[i]! * Math.sqrt(4 / 3), 9);
  });
});

describe("auditing simulated respondents (fast seeded versions of the validation)", () => {
  it("does not reject a consistent respondent, and P1/P2 intervals rarely exclude zero", () => {
    const audit = auditAgent(simulateAgent(CONSISTENT_RESPONDENT, "fast-1"), FAST);
    expect(audit.verdict.groups).toBe(9);
    expect(audit.verdict.threshold).toBeCloseTo(0.05 / 9, 12);
    expect(audit.verdict.rejectsJointConsistency).toBe(false);
    expect(audit.p1.count).toBe(96);
    expect(audit.p2.count).toBe(48);
    expect(audit.p1.rejectionRate).toBeLessThan(0.12);
    expect(audit.p2.rejectionRate).toBeLessThan(0.12);
    expect(audit.p2.reversals).toBe(0);
    for (const g of audit.groups) expect(g.relativeRmse).toBeLessThan(0.04);
    expect(audit.pathLength.map((p) => p.steps)).toEqual([2, 8, 16]);
    expect(audit.pathLength.every((p) => p.paths === 4)).toBe(true);
  });

  it("rejects every group of a respondent with a 10% query-type bias, and sees the bias in P1, P2 and paths", () => {
    const audit = auditAgent(simulateAgent(RESPONDENT_PRESETS.biased!.params, "fast-2"), FAST);
    expect(audit.verdict.rejected).toBe(9);
    // R2 ≈ +bias·s: the P2 residuals sit near +10% of the mean endpoint price.
    const mean = audit.p2Residuals.reduce((a, r) => a + r.relative.estimate, 0) / audit.p2Residuals.length;
    expect(mean).toBeGreaterThan(0.07);
    expect(mean).toBeLessThan(0.13);
    expect(audit.p2.rejectionRate).toBeGreaterThan(0.5);
    const [k2, k8, k16] = audit.pathLength;
    expect(k8!.meanError).toBeGreaterThan(k2!.meanError);
    expect(k16!.meanError).toBeGreaterThan(k8!.meanError);
  });

  it("compression breaks P2 but not P1; drift grows with path length", () => {
    const compressed = auditAgent(simulateAgent(RESPONDENT_PRESETS.compressed!.params, "fast-3"), FAST);
    expect(compressed.p2.rejectionRate).toBeGreaterThan(0.25);
    expect(compressed.p1.rejectionRate).toBeLessThan(0.12);
    const drifting = auditAgent(simulateAgent(RESPONDENT_PRESETS.drifting!.params, "fast-3"), FAST);
    const consistent = auditAgent(simulateAgent(CONSISTENT_RESPONDENT, "fast-3"), FAST);
    expect(drifting.pathLength[2]!.meanError).toBeGreaterThan(consistent.pathLength[2]!.meanError + 0.03);
  });

  it("counts non-finite outputs and drops queries without any finite answer", () => {
    const data = simulateAgent({ ...CONSISTENT_RESPONDENT, nonFiniteRate: 0.1 }, "fast-4", 6, {
      seed: 1,
      domains: ["hotels"],
      collections: ["main"],
    });
    const group = data.groups[0] as GroupData;
    group.queries[0]!.nonFinite += group.queries[0]!.values.length;
    group.queries[0]!.values = [];
    const audit = auditAgent(data, FAST);
    const nonFinite = data.groups.reduce((a, g) => a + g.queries.reduce((b, q) => b + q.nonFinite, 0), 0);
    expect(audit.nonFinite.nonFinite).toBe(nonFinite);
    expect(audit.nonFinite.completions).toBe(3 * 23 * 6);
    expect(audit.groups[0]!.droppedQueries).toBe(1);
    expect(audit.groups[0]!.queries).toBe(22);
  });
});

describe("collecting exported records", () => {
  const record = (over: Record<string, unknown>) => ({
    agent: "m",
    group: "hotels/u/s/main",
    domain: "hotels",
    utterance: "u",
    itemSet: "s",
    collection: "main",
    queryId: "q1",
    queryType: "item",
    item: "h1",
    source: null,
    target: null,
    uses: [],
    completion: 0,
    value: 100,
    nonFinite: null,
    ...over,
  });

  it("groups by agent, group and query, in completion order, and counts reasons by category", () => {
    const agents = collectAgents([
      record({ completion: 2, value: 120 }),
      record({ completion: 0, value: 100 }),
      record({ completion: 1, value: null, nonFinite: { reason: "range: $1 to $2" } }),
      record({ agent: "n", completion: 0, value: 5 }),
    ]);
    expect(agents.map((a) => a.agent)).toEqual(["m", "n"]);
    expect(agents[0]!.groups[0]!.queries[0]!.values).toEqual([100, 120]);
    expect(agents[0]!.groups[0]!.queries[0]!.nonFinite).toBe(1);
    expect(agents[0]!.nonFiniteReasons).toEqual({ range: 1 });
    expect(reasonCategory("agent error: timeout")).toBe("agent error");
  });

  it("names the record and field that is missing", () => {
    expect(() => collectAgents([record({}), record({ queryType: "other" })])).toThrow(
      /elicit record 2: queryType/,
    );
  });
});
