/**
 * The paper's cross-model figures, reproduced the way a user would: `bazaar import pricebench <dir>`
 * on the real release (../shared/datasets/pricebench, all 28 response sets), then one
 * `bazaar analyze … --with-runs 'pricebench-*'` in the reference convention. Every figure is checked
 * to the paper's printed precision; figures that rest on random draws (the cluster bootstrap, the
 * brand permutation test) come from bazaar's own seeded generator, not numpy's, and are checked
 * within their Monte Carlo error — which the analysis estimates itself, by resampling its draws.
 * Skips with a notice when the folder is absent. datasets/pricebench/README.md says which figures
 * reproduce exactly and why one (the lower end of the booked-price range) does not.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ChoiceAnalysis } from "../../../analysis/choice/index.ts";
import { runInProcess, tempDir } from "../../helpers/cli.ts";

const DIR = path.resolve(import.meta.dirname, "../../../../shared/datasets/pricebench");
const exists = existsSync(path.join(DIR, "conjoint_tasks.csv"));
if (!exists)
  console.warn(`[skip] PriceBench release not found at ${DIR}; the paper-figure tests are skipped.`);

const pb = (tag: string) => `pricebench:${tag}`;

/**
 * A figure from random draws against the paper's: the difference of two independent Monte Carlo
 * estimates has SD √2·se (ours estimates both), so allow three of those plus half the printed unit.
 */
function expectWithinMonteCarlo(ours: number, paper: number, se: number | null, unit: number, what: string) {
  expect(se, `${what}: Monte Carlo error`).not.toBeNull();
  const tolerance = unit / 2 + 3 * Math.SQRT2 * (se as number);
  expect(
    Math.abs(ours - paper),
    `${what}: ${ours} vs the paper's ${paper} (± ${tolerance})`,
  ).toBeLessThanOrEqual(tolerance);
}

describe.skipIf(!exists)(
  "the paper's cross-model figures over its 28 models (import, then one analysis)",
  () => {
    let a: ChoiceAnalysis;
    let importOut = "";
    beforeAll(async () => {
      const db = path.join(tempDir(), "pb.db");
      const imp = await runInProcess(["import", "pricebench", DIR, "--store", db]);
      expect(imp.err).toBe("");
      expect(imp.code).toBe(0);
      importOut = imp.out;
      const an = await runInProcess([
        "analyze",
        "pricebench-gpt-5_4",
        "--store",
        db,
        "--with-runs",
        "pricebench-*",
        "--convention",
        "reference",
        "--bootstrap",
        "500",
        "--json",
      ]);
      expect(an.err).toBe("");
      expect(an.code).toBe(0);
      a = (JSON.parse(an.out) as { analyses: { reference: ChoiceAnalysis } }).analyses.reference;
    }, 900_000);

    it("the import reports Mistral 7B's set-apart rows (file, rows, why)", () => {
      expect(importOut).toMatch(
        /set apart in conjoint_results_mistral_7b-instruct-fp16_swap\.csv: 3,600 rows \(rows 1–3,600, ids 1,001–4,600\) — id without the \+10000 offset/,
      );
    });

    it("28 models; five position-locked (first-shown 88.2–100%; binary first slot 92.6–100%)", () => {
      expect(a.agents).toHaveLength(28);
      const locked = a.crossModel.locked.map((l) => l.agent).sort();
      expect(locked).toEqual(
        [
          "llama3_1_8b",
          "llama3_2_1b",
          "llama3_8b-instruct-fp16",
          "mistral_7b-instruct-fp16",
          "qwen3_0_6b",
        ].map(pb),
      );
      expect(a.crossModel.engaged).toBe(23);
      const rates = a.crossModel.locked.map((l) => l.value);
      expect((100 * Math.min(...rates)).toFixed(1)).toBe("88.2");
      expect((100 * Math.max(...rates)).toFixed(1)).toBe("100.0");
      const binary = a.agents.filter((x) => x.status === "locked").map((x) => x.triage.binaryFirstSlotRate!);
      expect((100 * Math.min(...binary)).toFixed(1)).toBe("92.6");
      expect((100 * Math.max(...binary)).toFixed(1)).toBe("100.0");
    });

    it("β ln p from −7.02 (GPT-5.4) to −0.40 (Qwen3 30B-A3B) among 21 with a negative price response; AIC 10 linear, 10 log, 1 tie", () => {
      const neg = a.crossModel.negativePriceResponse;
      expect(neg.agents).toHaveLength(21);
      expect(neg.lnPrice!.min.agent).toBe(pb("gpt-5_4"));
      expect(neg.lnPrice!.min.value.toFixed(2)).toBe("-7.02");
      expect(neg.lnPrice!.max.agent).toBe(pb("qwen3_30b-a3b-instruct-2507-q4_K_M"));
      expect(neg.lnPrice!.max.value.toFixed(2)).toBe("-0.40");
      expect(neg.forms).toEqual({ linear: 10, log: 10, tie: 1, insignificant: 0 });
    });

    it("WTP per review point $68–$1,071, median $269, over 20 well-identified models: 15.6× (16×); linear form 31.4×", () => {
      const w = a.crossModel.wtpLog!;
      expect(w.agents).toBe(20);
      expect([w.min.agent, Math.round(w.min.value)]).toEqual([pb("gemma2_9b"), 68]);
      expect([w.max.agent, Math.round(w.max.value)]).toEqual([pb("phi4-mini"), 1071]);
      expect(Math.round(w.median)).toBe(269);
      expect(w.spread!.toFixed(1)).toBe("15.6");
      expect(Math.round(w.spread!)).toBe(16);
      expect(a.crossModel.wtpLinear!.spread!.toFixed(1)).toBe("31.4");
      // The bootstrap's spread is over the same 20 models, from the same point estimates.
      expect(a.bootstrap!.wtpSpreadLog.agents).toBe(20);
      expect(a.bootstrap!.wtpSpreadLog.point).toBeCloseTo(w.spread!, 12);
    });

    it("mean booked price: $393 at the top (Phi-4 Mini), GPT-5.4 $247.07 — but the release's own table puts Gemma2 9B lower, at $243.31", () => {
      const b = a.crossModel.bookedPrice!;
      expect(b.agents).toBe(23);
      expect([b.max.agent, Math.round(b.max.value)]).toEqual([pb("phi4-mini"), 393]);
      const gpt = a.agents.find((x) => x.agent === pb("gpt-5_4"))!.booking.meanPrice!;
      expect(gpt.toFixed(2)).toBe("247.07");
      // Not the paper's $247: Gemma2 9B is engaged and well identified, and books $243.31 a night in
      // the release's booking_outcomes.csv too (see datasets/pricebench/README.md).
      expect([b.min.agent, b.min.value.toFixed(2)]).toEqual([pb("gemma2_9b"), "243.31"]);
      const second = a.agents
        .filter((x) => x.status === "engaged" && x.agent !== b.min.agent)
        .reduce((m, x) => Math.min(m, x.booking.meanPrice!), Number.POSITIVE_INFINITY);
      expect(second).toBe(gpt);
    });

    it("brand correlation within providers +0.079 vs across +0.090, permutation p = 0.48", () => {
      const brand = a.providerBrand!;
      expect(brand.withinPairs).toBe(34);
      expect(brand.acrossPairs).toBe(219);
      expect(brand.withinMeanR.toFixed(3)).toBe("0.079");
      expect(brand.acrossMeanR.toFixed(3)).toBe("0.090");
      expectWithinMonteCarlo(brand.p, 0.48, brand.monteCarloSe, 0.01, "permutation p");
    });

    it("184 coefficient tests: 138 survive Bonferroni, 155 Benjamini–Hochberg; none of the 40 claimed at p < 0.001 is lost", () => {
      const m = a.multiplicity;
      expect(m.tests).toHaveLength(184);
      expect(m.survivesBonferroni).toBe(138);
      expect(m.survivesBh).toBe(155);
      expect(m.claimed).toBe(40);
      expect(m.claimedLostBonferroni).toBe(0);
      expect(m.claimedLostBh).toBe(0);
    });

    it("binary vs ternary price sensitivity over the 22 engaged models with ternary answers: Spearman ρ 0.88 (log) and 0.90 (linear)", () => {
      const fa = a.formatAgreement;
      expect(fa.agents).toHaveLength(22); // Claude Haiku 4.5 ran the binary tasks only
      expect(fa.spearmanLog!.toFixed(2)).toBe("0.88");
      expect(fa.spearmanLinear!.toFixed(2)).toBe("0.90");
    });

    it("bootstrap (500 shared draws over 450 pairs): rank correlations 0.996 and 0.991; spread interval [11.7×, 23.7×]; 148 of 190 WTP pairs separable", () => {
      const boot = a.bootstrap!;
      expect(boot.draws).toBe(500);
      expect(boot.clusters).toBe(450);
      expect(boot.agents.every((x) => x.failedLog === 0)).toBe(true);
      expect(boot.priceRank.agents).toBe(23);
      expect(boot.priceRank.usableDraws).toBe(500);
      expectWithinMonteCarlo(
        boot.priceRank.meanSpearman!,
        0.996,
        boot.priceRank.monteCarloSe,
        0.001,
        "ρ price",
      );
      expect(boot.wtpRank.agents).toBe(20);
      expectWithinMonteCarlo(boot.wtpRank.meanSpearman!, 0.991, boot.wtpRank.monteCarloSe, 0.001, "ρ WTP");
      const s = boot.wtpSpreadLog;
      expect(s.nonPositiveDraws).toBe(0);
      expectWithinMonteCarlo(s.interval!.low, 11.7, s.monteCarlo!.intervalLowSe, 0.1, "spread low");
      expectWithinMonteCarlo(s.interval!.high, 23.7, s.monteCarlo!.intervalHighSe, 0.1, "spread high");
      expect(s.pairs).toBe(190);
      expectWithinMonteCarlo(s.separablePairs, 148, s.monteCarlo!.separablePairsSe, 1, "separable pairs");
    });
  },
);
