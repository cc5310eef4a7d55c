/**
 * Reference values (issue #25's bar): the shop logit with description arms, and each arm's price-
 * equivalent with its delta-method SE, on a fixed fixture agree to 1e-6 with statsmodels'
 * ConditionalLogit — computed once by test/fixtures/shop-arms/statsmodels_reference.py (which builds
 * the situations and covariates itself) and stored in reference.json with a note of how. The
 * fixture holds descriptions in every stored form (text plus the listing's own arm; the catalog's
 * description object; none at all, as records before descriptions), so parsing is checked too.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { shopChoiceData, shopEpisodesFromRecords, shopLogit } from "../../../analysis/shop/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

const dir = path.resolve(import.meta.dirname, "../../fixtures/shop-arms");
const records = readFileSync(path.join(dir, "episodes.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const ref = JSON.parse(readFileSync(path.join(dir, "reference.json"), "utf8")) as {
  situations: number;
  clusters: number;
  names: string[];
  varying: Record<string, number>;
  params: number[];
  bse: number[];
  bse_cluster: number[];
  llf: number;
  reference_price: number;
  arm_price_equivalents: Record<string, { value: number; se: number }>;
};

function expectRel(actual: number, expected: number, what: string): void {
  expect(Math.abs(actual - expected) / Math.abs(expected), `${what}: ${actual} vs ${expected}`).toBeLessThan(
    1e-6,
  );
}

describe("arm price-equivalents against statsmodels' conditional logit", () => {
  const episodes = shopEpisodesFromRecords(records);
  const fit = shopLogit(episodes, { referencePrice: ref.reference_price, draws: 0, rng: createRng(1) });

  it("reads the arms of every stored form, and builds the same choice sets", () => {
    const forms = { own: 0, object: 0, none: 0 };
    for (const r of records)
      for (const s of r.shown as Record<string, unknown>[])
        forms[
          "arm" in s
            ? "own"
            : s.description !== undefined && typeof s.description === "object"
              ? "object"
              : "none"
        ]++;
    expect(forms.own).toBeGreaterThan(0);
    expect(forms.object).toBeGreaterThan(0);
    expect(forms.none).toBeGreaterThan(0);
    // Records before descriptions read as neutral; the object form gives its arm.
    const task2 = episodes.find((e) => e.taskId === "task-2")!;
    expect(task2.shown.every((s) => s.arm === "neutral")).toBe(true);
    const task1 = episodes.find((e) => e.taskId === "task-1")!;
    const raw1 = records.find((r) => r.taskId === "task-1")!.shown as { description: { arm: string } }[];
    expect(task1.shown.map((s) => s.arm)).toEqual(raw1.map((s) => s.description.arm));
    const data = shopChoiceData(episodes);
    expect(data.chosen.length).toBe(ref.situations);
    expect(new Set(data.clusters).size).toBe(ref.clusters);
    expect(data.varying).toEqual(ref.varying);
  });

  it("matches estimates, model-based and cluster-robust SEs and the log-likelihood to 1e-6", () => {
    if (fit.status !== "ok") throw new Error(fit.reason);
    expect(fit.fit.names).toEqual(ref.names);
    ref.names.forEach((name, j) => {
      const c = fit.fit.coefficients[j]!;
      expectRel(c.estimate, ref.params[j]!, `${name} estimate`);
      expectRel(c.se, ref.bse[j]!, `${name} se`);
      expectRel(c.robustSe!, ref.bse_cluster[j]!, `${name} cluster se`);
    });
    expectRel(fit.fit.logLik, ref.llf, "log-likelihood");
  });

  it("matches every arm's price-equivalent and its delta-method SE to 1e-6", () => {
    if (fit.status !== "ok") throw new Error(fit.reason);
    expect(fit.armEquivalents.map((p) => p.name)).toEqual(Object.keys(ref.arm_price_equivalents));
    for (const [name, r] of Object.entries(ref.arm_price_equivalents)) {
      const pe = fit.armEquivalents.find((p) => p.name === name)!;
      expectRel(pe.dollars, r.value, `${name} dollars`);
      expectRel(pe.se, r.se, `${name} se`);
    }
  });
});
