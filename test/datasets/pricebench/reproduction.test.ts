/**
 * Reproduction: the real PriceBench release (../shared/datasets/pricebench, 11 of the paper's 28
 * response sets) imported and analysed by bazaar against the reference's own per-model outputs
 * (outputs/data/*.csv, read at run time — nothing of the release is copied into the repository).
 * Skips with a notice when the folder is absent.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  analyzeChoice,
  type ChoiceTrial,
  coefficient,
  fitBinaryForms,
  fitBrandPremiums,
  fitConditionalChoice,
  pooledOptionPrices,
  priceDecileEdges,
  REFERENCE_CONVENTION,
} from "../../../analysis/choice/index.ts";
import type { LogitFit } from "../../../analysis/logit/index.ts";
import { parseCsv } from "../../../datasets/hotels/index.ts";
import { type ImportedRun, importedRuns, readPriceBenchRelease } from "../../../datasets/pricebench/index.ts";
import type { ChoiceOutcome } from "../../../environments/choice/machine.ts";

const DIR = path.resolve(import.meta.dirname, "../../../../shared/datasets/pricebench");
const exists = existsSync(path.join(DIR, "conjoint_tasks.csv")) && existsSync(path.join(DIR, "outputs/data"));
if (!exists)
  console.warn(`[skip] PriceBench release not found at ${DIR}; the reproduction tests are skipped.`);

/** The reference's display names of the 11 released response sets. */
const NAMES: Record<string, string> = {
  "gpt-5_4": "GPT-5.4",
  "gpt-5_4-mini": "GPT-5.4 Mini",
  "gpt-5_4-nano": "GPT-5.4 Nano",
  "gpt-4_1-mini": "GPT-4.1 Mini",
  "gpt-4_1-nano": "GPT-4.1 Nano",
  "claude-haiku-4-5": "Claude Haiku 4.5",
  gemma3_27b: "Gemma3 27B",
  gemma2_9b: "Gemma2 9B",
  "mistral-nemo": "Mistral-Nemo 12B",
  llama3_2_1b: "Llama3.2 1B",
  llama3_1_8b: "Llama3.1 8B",
};

function table(file: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(readFileSync(path.join(DIR, "outputs/data", file), "utf8"));
  return rows
    .filter((r) => r.fields.length === header!.fields.length)
    .map((r) => Object.fromEntries(header!.fields.map((h, i) => [h, r.fields[i]!])));
}

function load(): { byModel: Map<string, ChoiceTrial[]>; runs: ImportedRun[] } {
  const by = new Map<string, ChoiceTrial[]>();
  const runs = importedRuns(readPriceBenchRelease(DIR));
  for (const run of runs) {
    if (!(run.model in NAMES)) continue;
    by.set(
      run.model,
      run.trials.map((t, i) => {
        const task = run.tasks[i]!;
        const { outcome } = JSON.parse(t.resultJson) as { outcome: ChoiceOutcome };
        return {
          agent: run.agent,
          taskId: task.taskId,
          cluster: task.setId,
          kind: task.kind,
          appearance: task.appearance,
          order: task.order,
          options: task.options,
          chosenSlot: outcome.chosenSlot,
        };
      }),
    );
  }
  return { byModel: by, runs };
}

/** Relative agreement, with an absolute floor for values that are numerically zero. */
function expectNear(
  actual: number,
  expected: string | undefined,
  what: string,
  rel = 1e-6,
  abs = 1e-9,
): void {
  const e = Number(expected);
  expect(Number.isFinite(e), `${what}: reference value ${expected}`).toBe(true);
  expect(Math.abs(actual - e) <= rel * Math.abs(e) + abs, `${what}: ${actual} vs ${e}`).toBe(true);
}

function coef(fit: LogitFit | null, name: string) {
  const c = fit ? coefficient(fit, name) : undefined;
  if (!c) throw new Error(`no ${name} in ${fit?.status === "not-identified" ? fit.reason : "the fit"}`);
  return c;
}

describe.skipIf(!exists)("PriceBench reproduction (11 released response sets)", () => {
  const loaded = exists ? load() : { byModel: new Map<string, ChoiceTrial[]>(), runs: [] };
  const byModel = loaded.byModel;
  const all = [...byModel.values()].flat();
  const reference = exists
    ? analyzeChoice(all, { convention: REFERENCE_CONVENTION, bootstrapDraws: 0 })
    : null;
  const row = (file: string, model: string) => {
    const r = table(file).find((x) => x.model === NAMES[model]);
    if (!r) throw new Error(`${file} has no row for ${NAMES[model]}`);
    return r;
  };
  const binaryEdges = exists ? priceDecileEdges(pooledOptionPrices(all, ["binary"])) : [];

  it("imports every response set, and sets apart the unoffset block of Mistral 7B's swap file", () => {
    expect(loaded.runs.length).toBeGreaterThanOrEqual(28);
    const mistral = loaded.runs.find((r) => r.model === "mistral_7b-instruct-fp16");
    expect(mistral?.summary.oddRows).toEqual([
      {
        file: "conjoint_results_mistral_7b-instruct-fp16_swap.csv",
        count: 3600,
        rows: "3,600 rows (rows 1–3,600, ids 1,001–4,600)",
        why: expect.stringMatching(/offset/),
      },
    ]);
    expect(mistral?.trials).toHaveLength(7200);
    for (const r of loaded.runs) if (r !== mistral) expect(r.summary.oddRows, r.model).toEqual([]);
  });

  it("imports all 11 models: 7,200 answers each (Claude: binary only; Llama 3.1 8B's swap file ends at 13310)", () => {
    expect([...byModel.keys()].sort()).toEqual(Object.keys(NAMES).sort());
    expect(byModel.get("gpt-5_4")).toHaveLength(7200);
    expect(byModel.get("claude-haiku-4-5")).toHaveLength(3600);
    expect(byModel.get("llama3_1_8b")).toHaveLength(6910);
  });

  it("triage.csv: first-shown rate, its denominator and the verdict, exactly", () => {
    for (const model of Object.keys(NAMES)) {
      const r = row("triage.csv", model);
      const a = reference!.agents.find((x) => x.agent === `pricebench:${model}`)!;
      expectNear(a.triage.firstShownRate!, r.first_rate, `${model} first_rate`, 1e-12, 0);
      expect(a.triage.pairAnswers, model).toBe(Number(r.n));
      expect(a.triage.verdict, model).toBe(r.verdict);
    }
  });

  it("personality.csv: both binary logits, every coefficient, SE and p, R², AIC, WTP and the AIC verdict", () => {
    const attrs: [string, string][] = [
      ["stars", "b_d_stars"],
      ["bed", "b_d_bed"],
      ["cancellation", "b_d_cancel"],
      ["breakfast", "b_d_breakfast"],
      ["review", "b_d_review_score"],
      ["reviewCount100", "b_d_review_count_100"],
    ];
    for (const model of Object.keys(NAMES)) {
      if (model === "llama3_2_1b") continue; // the reference's fit there is numerical noise around 0
      const r = row("personality.csv", model);
      const binary = byModel.get(model)!.filter((t) => t.kind === "binary");
      const forms = fitBinaryForms(binary, REFERENCE_CONVENTION, binaryEdges);
      expect(forms.n, model).toBe(Number(r.n));
      const lnp = coef(forms.log, "lnPrice");
      const lin = coef(forms.linear, "price");
      expectNear(lnp.estimate, r.b_logp, `${model} b_logp`);
      expectNear(lnp.se, r.b_logp_se, `${model} b_logp_se`);
      expectNear(lnp.p, r.b_logp_p, `${model} b_logp_p`, 1e-5, 1e-300);
      expectNear(lin.estimate, r.b_linp, `${model} b_linp`);
      expectNear(lin.se, r.b_linp_se, `${model} b_linp_se`);
      for (const [name, col] of attrs) {
        const c = coef(forms.log, name);
        expectNear(c.estimate, r[col], `${model} ${col}`, 1e-6, 1e-9);
        expectNear(c.se, r[`${col}_se`], `${model} ${col}_se`);
      }
      if (forms.log.status !== "ok" || forms.linear.status !== "ok") throw new Error("fits");
      expectNear(forms.log.pseudoR2, r.r2_log, `${model} r2_log`);
      expectNear(forms.linear.pseudoR2, r.r2_lin, `${model} r2_lin`);
      expectNear(forms.log.aic, r.aic_log, `${model} aic_log`, 1e-9);
      expectNear(forms.linear.aic, r.aic_lin, `${model} aic_lin`, 1e-9);
      expectNear(-coef(forms.linear, "review").estimate / lin.estimate, r.wtp_review, `${model} wtp_review`);
      expect(forms.formChoice, model).toBe(r.fit_form);
    }
  });

  it("booking_outcomes.csv: mean and median booked price, stars and chain shares", () => {
    for (const model of Object.keys(NAMES)) {
      const r = row("booking_outcomes.csv", model);
      const b = reference!.agents.find((x) => x.agent === `pricebench:${model}`)!.booking;
      expect(b.answers, model).toBe(Number(r.n_obs));
      expectNear(b.meanPrice!, r.mean_price, `${model} mean_price`, 1e-12);
      expectNear(b.medianPrice!, r.median_price, `${model} median_price`, 1e-12);
      expectNear(b.meanStars!, r.mean_stars, `${model} mean_stars`, 1e-12);
      for (const chain of ["Independent", "Hilton", "Marriott", "IHG", "Hyatt", "Wyndham"] as const)
        expectNear(100 * b.chainShares![chain], r[`pct_${chain}`], `${model} ${chain}`, 1e-9);
    }
  });

  it("brand_coefs.csv: chain premiums (binary-task decile edges, as brand.py uses)", () => {
    const coefs = table("brand_coefs.csv");
    for (const model of Object.keys(NAMES)) {
      const rows = coefs.filter((r) => r.model === NAMES[model]);
      if (rows.length === 0) continue; // locked models have no brand row
      const binary = byModel.get(model)!.filter((t) => t.kind === "binary");
      const brand = fitBrandPremiums(binary, REFERENCE_CONVENTION, binaryEdges);
      for (const r of rows) {
        const p = brand.premiums!.find((x) => x.chain === r.brand)!;
        expectNear(p.estimate, r.coef, `${model} ${r.brand}`, 1e-5, 1e-7);
        expectNear(p.se, r.se, `${model} ${r.brand} se`, 1e-5);
      }
    }
  });

  it("personality_ternary.csv and decile_pooled.csv: conditional logits without slot constants (BFGS there: 1e-3)", () => {
    const pooledEdges = priceDecileEdges(pooledOptionPrices(all));
    const decile = table("decile_pooled.csv");
    for (const model of Object.keys(NAMES)) {
      const trials = byModel.get(model)!;
      const tern = table("personality_ternary.csv").find((x) => x.model === NAMES[model]);
      if (tern) {
        const ternary = trials.filter((t) => t.kind === "ternary");
        const fit = fitConditionalChoice(ternary, { priceForm: "log" }, false)!;
        expectNear(coef(fit, "lnPrice").estimate, tern.b_logp, `${model} ternary b_logp`, 1e-3, 1e-6);
        expectNear(coef(fit, "lnPrice").se, tern.b_logp_se, `${model} ternary se`, 1e-3);
        expectNear(fit.status === "ok" ? fit.logLik : Number.NaN, tern.llf_log, `${model} ternary llf`, 1e-7);
      }
      const rows = decile.filter((r) => r.model === NAMES[model] && r.decile !== "1");
      if (rows.length === 0) continue;
      const both = trials.filter((t) => t.kind !== "five");
      const fit = fitConditionalChoice(both, { priceForm: "deciles", edges: pooledEdges }, false)!;
      for (const r of rows)
        expectNear(coef(fit, `priceD${r.decile}`).estimate, r.coef, `${model} D${r.decile}`, 1e-3, 1e-3);
    }
  });

  it("the paper's headline per-model figures", () => {
    const a = (m: string) => reference!.agents.find((x) => x.agent === `pricebench:${m}`)!;
    expect(coef(a("gpt-5_4").binary!.log, "lnPrice").estimate.toFixed(2)).toBe("-7.02");
    expect(a("gpt-5_4").booking.meanPrice!.toFixed(2)).toBe("247.07");
    expect(a("llama3_2_1b").status).toBe("locked");
    expect(a("llama3_1_8b").status).toBe("locked");
    expect(a("mistral-nemo").status).toBe("engaged");
    const engaged = reference!.agents.filter((x) => x.status === "engaged").map((x) => x.booking.meanPrice!);
    expect(Math.min(...engaged)).toBeGreaterThanOrEqual(243); // Gemma2 9B, $243.31 (the paper's $247 is among 20)
    expect(Math.max(...engaged)).toBeLessThanOrEqual(393);
  });
});
