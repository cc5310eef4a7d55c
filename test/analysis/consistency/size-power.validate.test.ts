/**
 * The correctness bars for the self-consistency audit, over seeded replications of the full
 * default design (9 audit groups, 300 main queries, 15 completions, B = 2,000):
 * - size: a self-consistent respondent is rejected at the nominal rate (≤ 6% of group tests at
 *   α = 0.05; ≤ 6% of agents after Bonferroni), and P1/P2 Wald intervals exclude zero about 5%;
 * - power: a query-type bias of 10% of the mean listed price is rejected in ≥ 90% of replications.
 * Also measured and printed: the size of the literal protocol without the small-sample correction.
 * Run by `npm run validate` only.
 */
import { describe, expect, it } from "vitest";
import {
  CONSISTENT_RESPONDENT,
  RESPONDENT_PRESETS,
  type RespondentParams,
} from "../../../agents/sim/respondent.ts";
import { auditAgent, type ConsistencyOptions } from "../../../analysis/consistency/index.ts";
import { simulateAgent } from "./simulate.ts";

const REPLICATIONS = 200;

interface Rates {
  groupRate05: number;
  groupRateBonferroni: number;
  agentRate: number;
  p1: number;
  p2: number;
  reversals: number;
}

function study(params: RespondentParams, label: string, options: Partial<ConsistencyOptions> = {}): Rates {
  let tests = 0;
  let at05 = 0;
  let bonferroni = 0;
  let agents = 0;
  let p1 = 0;
  let p1n = 0;
  let p2 = 0;
  let p2n = 0;
  let reversals = 0;
  const started = Date.now();
  for (let r = 0; r < REPLICATIONS; r++) {
    const audit = auditAgent(simulateAgent(params, `${label}-${r}`), {
      draws: 2000,
      seed: `${label}-${r}`,
      ...options,
    });
    for (const g of audit.groups) {
      tests++;
      if (g.pValue <= 0.05) at05++;
      if (g.rejected) bonferroni++;
    }
    if (audit.verdict.rejectsJointConsistency) agents++;
    p1 += audit.p1.rejections;
    p1n += audit.p1.testable;
    p2 += audit.p2.rejections;
    p2n += audit.p2.testable;
    reversals += audit.p2.reversals;
  }
  const rates = {
    groupRate05: at05 / tests,
    groupRateBonferroni: bonferroni / tests,
    agentRate: agents / REPLICATIONS,
    p1: p1 / p1n,
    p2: p2 / p2n,
    reversals,
  };
  console.log(
    `${label}: ${REPLICATIONS} replications in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    rates,
  );
  return rates;
}

describe(`self-consistency audit over ${REPLICATIONS} seeded replications`, () => {
  it("size: a consistent respondent is rejected at the nominal rate", () => {
    const r = study(CONSISTENT_RESPONDENT, "size");
    expect(r.groupRate05).toBeLessThanOrEqual(0.06);
    expect(r.groupRate05).toBeGreaterThanOrEqual(0.03);
    expect(r.agentRate).toBeLessThanOrEqual(0.06);
    expect(r.p1).toBeGreaterThan(0.035);
    expect(r.p1).toBeLessThan(0.07);
    expect(r.p2).toBeGreaterThan(0.035);
    expect(r.p2).toBeLessThan(0.07);
  });

  it("size holds when 2% of answers are non-finite and dropped", () => {
    const r = study(RESPONDENT_PRESETS["consistent-varied"]!.params, "size-varied");
    expect(r.groupRate05).toBeLessThanOrEqual(0.06);
    expect(r.agentRate).toBeLessThanOrEqual(0.06);
  });

  it("measures the literal protocol (no small-sample correction): it over-rejects at 15 completions", () => {
    const r = study(CONSISTENT_RESPONDENT, "size-literal", { smallSampleCorrection: false });
    expect(r.groupRate05).toBeGreaterThan(0.06);
  });

  it("power: a 10% query-type bias is rejected in ≥ 90% of replications at 15 completions", () => {
    const r = study(RESPONDENT_PRESETS.biased!.params, "power");
    expect(r.groupRateBonferroni).toBeGreaterThanOrEqual(0.9);
    expect(r.agentRate).toBeGreaterThanOrEqual(0.9);
  });
});
