/**
 * Reference values: every choice estimator against an independent computation (statsmodels, numpy,
 * scipy; scripts/reference/choice_reference.py) on the fixture run, to 1e-6 relative.
 */
import { describe, expect, it } from "vitest";
import {
  analyzeChoice,
  type ChoiceConvention,
  DEFAULT_CONVENTION,
  fitBrandPremiums,
  multiplicityAudit,
  REFERENCE_CONVENTION,
} from "../../../analysis/choice/index.ts";
import type { LogitFit } from "../../../analysis/logit/index.ts";
import { choiceReference, fixtureTrials, type RefFit, relClose } from "./fixture.ts";

const trials = fixtureTrials();
const ref = choiceReference();
const analyses: Record<string, ReturnType<typeof analyzeChoice>> = {
  "first-shown": analyzeChoice(trials, { convention: DEFAULT_CONVENTION, bootstrapDraws: 0 }),
  // The fixture's label-form brand fit was computed on the pooled cut points; the reference
  // convention's own (binary-task cut points, as brand.py) is checked against the release's
  // brand_coefs.csv in test/datasets/pricebench/reproduction.test.ts.
  label: analyzeChoice(trials, {
    convention: { ...REFERENCE_CONVENTION, brandDeciles: "pooled" },
    bootstrapDraws: 0,
  }),
};

function expectClose(actual: readonly number[], expected: readonly number[], what: string, rel = 1e-6): void {
  expect(actual.length, what).toBe(expected.length);
  actual.forEach((a, i) => {
    expect(relClose(a, expected[i]!, rel), `${what}[${i}]: ${a} vs ${expected[i]}`).toBe(true);
  });
}

function expectFit(fit: LogitFit, r: RefFit, what: string): void {
  if (!r.converged) {
    // statsmodels ran into its iteration limit: a separated fit, which must be "not identified".
    expect(fit.status, `${what}: statsmodels did not converge`).toBe("not-identified");
    return;
  }
  if (fit.status !== "ok") throw new Error(`${what}: ${fit.reason}`);
  expectClose(
    fit.coefficients.map((c) => c.estimate),
    r.params,
    `${what} params`,
  );
  expectClose(
    fit.coefficients.map((c) => c.se),
    r.bse,
    `${what} bse`,
  );
  if (r.bse_cluster)
    expectClose(
      fit.coefficients.map((c) => c.robustSe as number),
      r.bse_cluster,
      `${what} cluster bse`,
    );
  expect(relClose(fit.logLik, r.llf), `${what} llf`).toBe(true);
  if (r.llnull !== undefined) expect(relClose(fit.nullLogLik, r.llnull), `${what} llnull`).toBe(true);
  if (r.aic !== undefined) expect(relClose(fit.aic, r.aic), `${what} aic`).toBe(true);
  if (r.prsquared !== undefined) expect(relClose(fit.pseudoR2, r.prsquared), `${what} R²`).toBe(true);
}

describe("choice estimators agree with statsmodels on the fixture run", () => {
  it("price decile cut points (numpy percentiles, bottom edge − 0.5)", () => {
    expectClose(analyses["first-shown"]!.decileEdges, ref.edges, "edges", 1e-12);
  });

  for (const [agent, r] of Object.entries(ref.agents)) {
    it(`${agent}: triage, booking, and the locked verdict`, () => {
      const a = analyses["first-shown"]!.agents.find((x) => x.agent === agent)!;
      expect(relClose(a.triage.firstShownRate!, r.firstShownRate, 1e-12)).toBe(true);
      expect(relClose(a.triage.binaryFirstSlotRate!, r.binaryFirstSlotRate, 1e-12)).toBe(true);
      expect(a.triage.nonResponses).toBe(r.nonResponses);
      expect(relClose(a.booking.meanPrice!, r.meanBookedPrice, 1e-12)).toBe(true);
      expect(a.status).toBe(r.locked ? "locked" : "engaged");
      if (r.locked) expect(a.binary).toBeNull();
    });
    if (r.locked) continue;

    for (const key of ["first-shown", "label"] as const) {
      it(`${agent}: binary logits in the ${key} form (linear, log, deciles), WTP and brand`, () => {
        const a = analyses[key]!.agents.find((x) => x.agent === agent)!;
        const rf = r[key]!;
        expectFit(a.binary!.linear, rf.linear, `${key} linear`);
        expectFit(a.binary!.log, rf.log, `${key} log`);
        expectFit(a.binary!.deciles, rf.deciles, `${key} deciles`);
        expect(a.binary!.n).toBe(rf.log.n);
        for (const form of ["linear", "log"] as const) {
          const w = a.wtp![form]!;
          expect(relClose(w.estimate, rf[form].wtp!.estimate), `${form} WTP`).toBe(true);
          expect(relClose(w.se, rf[form].wtp!.se), `${form} WTP se`).toBe(true);
          expect(relClose(w.robustSe!, rf[form].wtp_robust_se!), `${form} WTP robust se`).toBe(true);
        }
        expectFit(a.brand!.fit, rf.brand, `${key} brand`);
      });
    }

    it(`${agent}: conditional logits with slot constants and the five-option hit rate`, () => {
      const a = analyses["first-shown"]!.agents.find((x) => x.agent === agent)!;
      expectFit(a.ternary!.log, r.ternary!, "ternary");
      expectFit(a.five!.log, r.five!, "five");
      expect(a.fiveHitRate!.situations).toBe(r.fiveHitRate!.situations);
      expect(relClose(a.fiveHitRate!.hitRate, r.fiveHitRate!.hitRate, 1e-12)).toBe(true);
      expect(relClose(a.fiveHitRate!.meanRank, r.fiveHitRate!.meanRank, 1e-12)).toBe(true);
    });
  }

  it("multiplicity audit: Bonferroni and Benjamini–Hochberg as statsmodels' multipletests", () => {
    const m = multiplicityAudit(ref.tests);
    expectClose(
      m.tests.map((t) => t.bonferroni),
      ref.multiplicity.bonferroni,
      "bonferroni",
      1e-12,
    );
    expectClose(
      m.tests.map((t) => t.bh),
      ref.multiplicity.bh,
      "bh",
      1e-12,
    );
    expect(m.survivesBonferroni).toBe(ref.multiplicity.survivesBonferroni);
    expect(m.survivesBh).toBe(ref.multiplicity.survivesBh);
    // And the audit over the analysis's own tests uses the same p-values in the same order.
    expectClose(
      analyses["first-shown"]!.multiplicity.tests.map((t) => t.p),
      ref.tests.map((t) => t.p),
      "p-values",
    );
  });

  it("brand premiums report the five chain coefficients of the brand fit", () => {
    const conv: ChoiceConvention = DEFAULT_CONVENTION;
    const steep = trials.filter((t) => t.agent === "sim:budget" && t.kind === "binary");
    const b = fitBrandPremiums(steep, conv, ref.edges);
    const r = ref.agents["sim:budget"]!["first-shown"]!.brand;
    if (!r.converged) expect(b.premiums).toBeNull();
    else
      expectClose(
        b.premiums!.map((p) => p.estimate),
        r.params.slice(7, 12),
        "chain premiums",
      );
  });
});
