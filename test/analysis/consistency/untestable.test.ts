import { describe, expect, it } from "vitest";
import { RESPONDENT_PRESETS } from "../../../agents/sim/respondent.ts";
import {
  type AgentData,
  auditAgent,
  decideGroups,
  exceedTolerance,
  fittedNullTest,
  fitUtilities,
  type GroupData,
  type QueryData,
} from "../../../analysis/consistency/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { simulateAgent } from "./simulate.ts";

const FAST = { draws: 200 };

const item = (id: string, values: number[], nonFinite = 0): QueryData => ({
  queryId: `q-${id}`,
  queryType: "item",
  item: id,
  uses: [],
  values,
  nonFinite,
});

const pair = (
  id: string,
  source: [string, number],
  target: [string, number],
  values: number[],
  nonFinite = 0,
): QueryData => ({
  queryId: id,
  queryType: "offer-pair",
  source: { item: source[0], price: source[1] },
  target: { item: target[0], price: target[1] },
  uses: [{ kind: "direct", comparison: id }],
  values,
  nonFinite,
});

const group = (name: string, queries: QueryData[]): GroupData => ({
  group: `hotels/${name}/s/main`,
  domain: "hotels",
  utterance: name,
  itemSet: "s",
  collection: "main",
  queries,
});

const agent = (...groups: GroupData[]): AgentData => ({ agent: "m", groups, nonFiniteReasons: {} });

/** Offer-pair answers consistent with U: Δ(a→b) = U(y) − q − (U(x) − p). */
const U: Record<string, number> = { a: 632.625, b: 417.3, c: 251.1 };
const delta = (x: string, p: number, y: string, q: number) => (U[y] as number) - q - ((U[x] as number) - p);

describe("the fitted-null bootstrap's T* ≥ T comparison", () => {
  it("treats rounding noise as no misfit: a deterministic consistent respondent gets p = 1, not 0", () => {
    const queries = [
      item("a", []),
      item("b", []),
      item("c", []),
      pair("ab", ["a", 199.99], ["b", 259.49], []),
      pair("bc", ["b", 259.49], ["c", 180.1], []),
    ];
    const means = [U.a!, U.b!, U.c!, delta("a", 199.99, "b", 259.49), delta("b", 259.49, "c", 180.1)];
    const fit = fitUtilities(queries, means);
    expect(fit.rmse).toBeGreaterThan(0); // float noise of an exact fit
    expect(fit.rmse).toBeLessThan(1e-9);
    const test = fittedNullTest(
      fit.design,
      means.map((m) => [m, m, m]),
      fit.rmse,
      { draws: 100, rng: createRng("tol"), smallSampleCorrection: true },
    );
    expect(test.pValue).toBe(1);
  });

  it("the tolerance is relative above $1 and never hides a real misfit", () => {
    expect(exceedTolerance(0)).toBe(1e-9);
    expect(exceedTolerance(1e-13)).toBe(1e-9);
    expect(exceedTolerance(250)).toBeCloseTo(2.5e-7, 15);
  });

  it("gives no p for a NaN T", () => {
    const fit = fitUtilities([item("a", [])], [100]);
    const test = fittedNullTest(fit.design, [[100, 101]], Number.NaN, {
      draws: 10,
      rng: createRng("nan"),
      smallSampleCorrection: true,
    });
    expect(test.pValue).toBeNaN();
  });
});

describe("audit groups without usable data are untestable, never rejected", () => {
  it("a group whose every answer is a non-response: untestable, no T, no p, no verdict", () => {
    const audit = auditAgent(agent(group("u", [pair("ab", ["a", 100], ["b", 120], [], 4)])), FAST);
    const g = audit.groups[0]!;
    expect(g).toMatchObject({ queries: 0, droppedQueries: 1, status: "untestable", rejected: null });
    expect(g.untestableReason).toBe("none of its 1 query has a finite answer");
    expect(g.rmse).toBeNaN();
    expect(g.pValue).toBeNaN();
    expect(g.adjustedP).toBeNaN();
    expect(audit.verdict).toMatchObject({
      status: "untestable",
      groups: 1,
      testable: 0,
      untestable: 1,
      rejected: 0,
      rejectsJointConsistency: null,
    });
    expect(audit.verdict.threshold).toBeNaN();
    expect(audit.verdict.reason).toMatch(
      /no audit group has more queries with a finite answer than its rank/,
    );
  });

  it("one query of rank 1 (no degrees of freedom): untestable, T not reported as ≈ 1e-13", () => {
    const audit = auditAgent(
      agent(group("u", [pair("ab", ["a", 2100], ["b", 2300], [-150, -140, -160, -155])])),
      FAST,
    );
    const g = audit.groups[0]!;
    expect(g.rank).toBe(1);
    expect(g.status).toBe("untestable");
    expect(g.untestableReason).toMatch(/1 query with a finite answer for rank 1: .*no degrees of freedom/);
    expect(g.rmse).toBeNaN();
    expect(audit.verdict.status).toBe("untestable");
  });

  it("a same-item price change is rank 0, so one such query is testable (Δ must equal p − q)", () => {
    const audit = auditAgent(
      agent(group("u", [pair("aa", ["a", 199], ["a", 259], [-20, -22, -18, -21])])),
      FAST,
    );
    const g = audit.groups[0]!;
    expect(g.rank).toBe(0);
    expect(g.untestableReason).toBeNull();
    expect(g.rmse).toBeCloseTo(39.75, 10);
    expect(g.status).toBe("rejected");
    expect(audit.verdict.status).toBe("rejects");
  });

  it("no query with 2+ finite answers: no within-query spread, so untestable rather than p = 0", () => {
    const queries = [item("a", [600]), item("b", [400]), pair("ab", ["a", 200], ["b", 260], [-300])];
    const audit = auditAgent(agent(group("u", queries)), FAST);
    const g = audit.groups[0]!;
    expect(g.rmse).toBeGreaterThan(0); // a real misfit, but nothing to compare it with
    expect(g.status).toBe("untestable");
    expect(g.untestableReason).toMatch(/no within-query spread/);
  });

  it("Bonferroni counts the testable groups only; the verdict says how many were untestable", () => {
    const biased = simulateAgent(RESPONDENT_PRESETS.biased!.params, "untestable-1", 15, {
      seed: 1,
      domains: ["hotels"],
      collections: ["main"],
    });
    const empty = group("empty", [pair("ab", ["a", 100], ["b", 120], [], 15)]);
    const audit = auditAgent(agent(biased.groups[0]!, empty), FAST);
    const [tested, untested] = audit.groups;
    expect(audit.verdict).toMatchObject({
      status: "rejects",
      groups: 2,
      testable: 1,
      untestable: 1,
      rejected: 1,
      rejectsJointConsistency: true,
    });
    expect(audit.verdict.threshold).toBe(0.05);
    expect(tested!.adjustedP).toBe(tested!.pValue);
    expect(untested!.status).toBe("untestable");
  });
});

describe("decideGroups", () => {
  const testable = (p: number) => ({ pValue: p, untestableReason: null });
  const untestable = { pValue: Number.NaN, untestableReason: "why" };

  it("adjusts over testable groups and leaves the untestable ones without a decision", () => {
    const { decisions, verdict } = decideGroups([testable(0.01), untestable, testable(0.2)], 0.05);
    expect(decisions.map((d) => d.status)).toEqual(["rejected", "untestable", "not-rejected"]);
    expect(decisions[0]!.adjustedP).toBeCloseTo(0.02, 12);
    expect(decisions[1]!.rejected).toBeNull();
    expect(verdict).toMatchObject({ status: "rejects", testable: 2, untestable: 1, threshold: 0.025 });
  });

  it("no groups, or none testable, is no verdict at all", () => {
    expect(decideGroups([], 0.05).verdict).toMatchObject({
      status: "no-groups",
      rejectsJointConsistency: null,
    });
    expect(decideGroups([untestable, untestable], 0.05).verdict).toMatchObject({
      status: "untestable",
      rejectsJointConsistency: null,
    });
  });
});
