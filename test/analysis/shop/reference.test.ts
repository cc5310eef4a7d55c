/**
 * Reference values: the shop logit on a fixed fixture of episodes agrees to 1e-6 with an
 * independent implementation (test/fixtures/shop/independent-logit.ts: hand-coded covariates, its
 * own Newton–Raphson and sandwich, numeric delta-method gradients), whose numbers are stored in
 * reference.json with a note on how they were made. The conditional-logit core itself is checked
 * against statsmodels in test/analysis/logit/reference.test.ts.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { shopChoiceData, shopEpisodesFromRecords, shopLogit } from "../../../analysis/shop/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { handBuiltSituations } from "../../fixtures/shop/independent-logit.ts";

const dir = path.resolve(import.meta.dirname, "../../fixtures/shop");
const records = readFileSync(path.join(dir, "episodes.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const ref = JSON.parse(readFileSync(path.join(dir, "reference.json"), "utf8")) as {
  situations: number;
  clusters: number;
  names: string[];
  params: number[];
  bse: number[];
  bse_cluster: number[];
  llf: number;
  priced: Record<string, { value: number; se: number }>;
};

function expectRel(actual: number, expected: number, what: string): void {
  expect(Math.abs(actual - expected) / Math.abs(expected), `${what}: ${actual} vs ${expected}`).toBeLessThan(
    1e-6,
  );
}

describe("the shop logit against an independent implementation", () => {
  const episodes = shopEpisodesFromRecords(records);
  const careful = episodes.filter((e) => e.agent === "sim:careful");

  it("builds the same design matrix as the hand-coded one, situations and exclusions alike", () => {
    const mine = shopChoiceData(careful);
    const hand = handBuiltSituations(careful as never);
    expect(mine.names).toEqual(hand.names);
    expect(mine.alternatives).toEqual(hand.X);
    expect(mine.chosen).toEqual(hand.chosen);
    expect(mine.clusters).toEqual(hand.clusters);
    const ignoring = shopChoiceData(episodes.filter((e) => e.agent !== "sim:careful"));
    const handIgnoring = handBuiltSituations(episodes.filter((e) => e.agent !== "sim:careful") as never);
    expect(ignoring.chosen.length).toBe(handIgnoring.chosen.length);
    expect(ignoring.excluded.bookedInadmissible).toBeGreaterThan(0);
  });

  it("matches estimates, model-based and cluster-robust SEs and the log-likelihood to 1e-6", () => {
    const fit = shopLogit(careful, { referencePrice: 250, draws: 0, rng: createRng(1) });
    if (fit.status !== "ok") throw new Error(fit.reason);
    expect(fit.situations).toBe(ref.situations);
    expect(fit.tasks).toBe(ref.clusters);
    expect(fit.fit.names).toEqual(ref.names);
    ref.names.forEach((name, j) => {
      const c = fit.fit.coefficients[j]!;
      expectRel(c.estimate, ref.params[j]!, `${name} estimate`);
      expectRel(c.se, ref.bse[j]!, `${name} se`);
      expectRel(c.robustSe!, ref.bse_cluster[j]!, `${name} cluster se`);
    });
    expectRel(fit.fit.logLik, ref.llf, "log-likelihood");
  });

  it("matches every price-equivalent, WTP per review point and their delta-method SEs to 1e-6", () => {
    const fit = shopLogit(careful, { referencePrice: 250, draws: 0, rng: createRng(1) });
    if (fit.status !== "ok") throw new Error(fit.reason);
    const all = [...fit.priceEquivalents, ...fit.rankCurve];
    for (const [name, r] of Object.entries(ref.priced)) {
      if (name === "wtpReview") {
        expectRel(fit.wtpReview!.estimate, r.value, "WTP");
        expectRel(fit.wtpReview!.robustSe!, r.se, "WTP se");
        continue;
      }
      const pe = all.find((p) => p.name === name)!;
      expect(pe, name).toBeDefined();
      expectRel(pe.dollars, r.value, `${name} dollars`);
      expectRel(pe.se, r.se, `${name} se`);
    }
  });
});
