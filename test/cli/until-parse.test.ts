/**
 * `--until <estimand>±<half-width>` as the user writes it (cli/run/until.ts): the forms each
 * environment takes, and the refusals, each saying what was wrong and what to write (the command's
 * exit 2 before anything is stored: until-run.test.ts).
 */
import { describe, expect, it } from "vitest";
import { BARGAIN_ESTIMANDS } from "../../analysis/bargain/estimands.ts";
import { CHOICE_ESTIMANDS } from "../../analysis/choice/estimands.ts";
import { CUE_ESTIMANDS } from "../../analysis/cue/estimands.ts";
import { SHOP_ESTIMANDS } from "../../analysis/shop/estimands.ts";
import { estimandsOf, parseTargets } from "../../cli/run/until.ts";
import { targetDone } from "../../cli/run/until-rule.ts";
import { UserError } from "../../environments/kernel/errors.ts";

const target = (estimand: string, halfWidth: number, written: string) => ({ estimand, halfWidth, written });

describe("parseTargets", () => {
  it("reads ±, '+-' and '+/-', each estimand in its unit", () => {
    expect(parseTargets(["beta-lnp±1.0"], CHOICE_ESTIMANDS)).toEqual([target("beta-lnp", 1, "beta-lnp±1.0")]);
    expect(parseTargets(["beta-lnp+-0.6"], CHOICE_ESTIMANDS)).toEqual([
      target("beta-lnp", 0.6, "beta-lnp+-0.6"),
    ]);
    expect(parseTargets(["beta-lnp +/- .5"], CHOICE_ESTIMANDS)[0]!.halfWidth).toBe(0.5);
    expect(parseTargets(["first-shown±5pts"], CHOICE_ESTIMANDS)[0]!.halfWidth).toBeCloseTo(0.05, 15);
    expect(parseTargets(["wtp±$10"], CHOICE_ESTIMANDS)[0]!.halfWidth).toBe(10);
    expect(parseTargets(["wtp±12.5usd"], CHOICE_ESTIMANDS)[0]!.halfWidth).toBe(12.5);
    expect(parseTargets(["success±5pts"], SHOP_ESTIMANDS)).toEqual([target("success", 0.05, "success±5pts")]);
    expect(parseTargets(["regret±$3"], SHOP_ESTIMANDS)[0]!.halfWidth).toBe(3);
    expect(parseTargets(["deal-rate±5pts"], BARGAIN_ESTIMANDS)[0]!.halfWidth).toBeCloseTo(0.05, 15);
    expect(parseTargets(["snp±2"], BARGAIN_ESTIMANDS)[0]!.halfWidth).toBe(2);
    expect(parseTargets(["pe±2pts"], CUE_ESTIMANDS)[0]!.halfWidth).toBeCloseTo(0.02, 15);
  });

  it("takes several targets, repeated or comma-separated", () => {
    const targets = parseTargets(["beta-lnp±1.0, first-shown±5pts", "wtp±$20"], CHOICE_ESTIMANDS);
    expect(targets.map((t) => [t.estimand, t.halfWidth])).toEqual([
      ["beta-lnp", 1],
      ["first-shown", 0.05],
      ["wtp", 20],
    ]);
    expect(parseTargets([], CHOICE_ESTIMANDS)).toEqual([]);
  });

  const refusal = (values: string[], catalogue = CHOICE_ESTIMANDS) => {
    try {
      parseTargets(values, catalogue);
    } catch (e) {
      if (e instanceof UserError) return `${e.message} | ${e.hint}`;
      throw e;
    }
    throw new Error(`${values.join(" ")} was accepted`);
  };

  it("refuses an empty --until (it would play the whole design), naming what to write", () => {
    for (const empty of [[""], [","], [" , "]])
      expect(refusal(empty)).toMatch(/--until names no target.*beta-lnp/s);
  });

  it("refuses an unknown estimand, naming the environment's", () => {
    const m = refusal(["beta±1"]);
    expect(m).toMatch(/`run choice` has no estimand "beta"/);
    for (const name of ["beta-lnp", "wtp", "first-shown"]) expect(m).toContain(name);
    expect(refusal(["success±5pts"], BARGAIN_ESTIMANDS)).toMatch(/deal-rate.*snp/);
  });

  it("refuses a half-width in the wrong unit, missing, zero or the whole range, and a target named twice", () => {
    expect(refusal(["first-shown±5"])).toMatch(/percentage points \| write it as first-shown±5pts/);
    expect(refusal(["wtp±10pts"])).toMatch(/in dollars/);
    expect(refusal(["beta-lnp±$1"])).toMatch(/bare number/);
    expect(refusal(["beta-lnp±"])).toMatch(/gives no half-width/);
    expect(refusal(["beta-lnp±0"])).toMatch(/must be above 0/);
    expect(refusal(["first-shown±50pts"])).toMatch(/spans the whole range/);
    expect(refusal(["beta-lnp"])).toMatch(/not <estimand>±<half-width> \| say how tight, e.g. beta-lnp±1.0/);
    expect(refusal(["beta-lnp±1", "beta-lnp±0.5"])).toMatch(/names beta-lnp twice/);
  });

  it("elicitation has no estimands, and says why", async () => {
    await expect(estimandsOf("elicit")).rejects.toThrow(/consistency tests over every query group/);
  });
});

describe("targetDone: what ends an agent's target", () => {
  const interval = { estimate: 0.5, low: 0.45, high: 0.55, halfWidth: 0.05, units: 40 };
  it("an interval as tight as asked, and not provisional", () => {
    expect(targetDone({ interval }, 0.05)).toBe(true);
    expect(targetDone({ interval }, 0.049)).toBe(false);
    expect(targetDone({ interval: { ...interval, provisional: "12 of the 30 units a mean needs" } }, 1)).toBe(
      false,
    );
  });
  it("no interval: done only when the estimand cannot apply (settled), not while it has too few data", () => {
    expect(targetDone({ interval: null, why: "position-locked", settled: true }, 0.05)).toBe(true);
    expect(targetDone({ interval: null, why: "no binary answers yet" }, 0.05)).toBe(false);
  });
});
