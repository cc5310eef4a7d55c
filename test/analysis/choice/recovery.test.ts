/**
 * Simulation recovery: simulated shoppers with known parameters (agents/sim presets) on the
 * full default design; every estimator must find its truth.
 */
import { describe, expect, it } from "vitest";
import { CHOICE_PRESETS, logitChoiceProbabilities } from "../../../agents/sim/index.ts";
import {
  analyzeChoice,
  coefficient,
  DEFAULT_CONVENTION,
  REFERENCE_CONVENTION,
} from "../../../analysis/choice/index.ts";
import type { LogitFit } from "../../../analysis/logit/index.ts";
import { presetAgents, simulateChoiceTrials } from "./simulate.ts";

const trials = simulateChoiceTrials(
  presetAgents("steep", "budget", "quality", "primacy", "noisy", "locked", "locked-last"),
  {},
  "recovery",
);
const analysis = analyzeChoice(trials, { bootstrapDraws: 60, seed: "recovery" });
const agent = (name: string) => analysis.agents.find((a) => a.agent === `sim:${name}`)!;
const params = (name: string) => CHOICE_PRESETS[name]!.params!;

function within(fit: LogitFit | undefined, name: string, truth: number, k = 4): void {
  const c = fit ? coefficient(fit, name) : undefined;
  expect(c, `${name} estimated`).toBeDefined();
  expect(Math.abs(c!.estimate - truth), `${name}: ${c!.estimate} vs ${truth} (se ${c!.se})`).toBeLessThan(
    k * c!.se,
  );
}

describe("triage recovers the position policy", () => {
  it("engaged shoppers sit near 50%, primacy above, locked ones are locked (both directions)", () => {
    expect(Math.abs(agent("steep").triage.firstShownRate! - 0.5)).toBeLessThan(0.03);
    expect(agent("primacy").triage.firstShownRate!).toBeGreaterThan(0.6);
    expect(agent("primacy").status).toBe("engaged");
    expect(agent("locked").triage.verdict).toBe("locked-primacy");
    expect(agent("locked").triage.firstShownRate!).toBeGreaterThan(0.97);
    expect(agent("locked").triage.orderDecidedShare!).toBeGreaterThan(0.94);
    expect(agent("locked-last").triage.verdict).toBe("locked-recency");
    expect(agent("steep").triage.orderDecidedShare!).toBeLessThan(0.06);
    // Slot shares: the five-option tasks rotate every option through every slot.
    expect(agent("locked").triage.slotShares.five!.shares[0]).toBeGreaterThan(0.95);
    expect(agent("locked-last").triage.slotShares.five!.shares[4]).toBeGreaterThan(0.9);
  });

  it("locked agents get no preference estimates, only triage and booking", () => {
    for (const name of ["locked", "locked-last"]) {
      const a = agent(name);
      expect(a.status).toBe("locked");
      expect(a.binary).toBeNull();
      expect(a.wtp).toBeNull();
      expect(a.brand).toBeNull();
      expect(a.booking.meanPrice).toBeGreaterThan(0);
    }
    expect(analysis.bootstrap!.agents.map((b) => b.agent)).not.toContain("sim:locked");
  });

  it("the reference convention fits locked agents as its table does, labelled, and keeps them out of every cross-agent figure", () => {
    const ref = analyzeChoice(trials, {
      convention: REFERENCE_CONVENTION,
      bootstrapDraws: 20,
      seed: "recovery",
    });
    const locked = ref.agents.filter((a) => a.status === "locked");
    expect(locked.map((a) => a.agent).sort()).toEqual(["sim:locked", "sim:locked-last"]);
    for (const a of locked) {
      expect(a.lockedFit).toBe(true);
      expect(a.binary!.log.status).toBe("ok");
      expect(a.wellIdentified).toBe(false);
      expect(a.brand).toBeNull();
      expect(a.ternary).toBeNull();
    }
    for (const a of ref.agents.filter((x) => x.status === "engaged")) expect(a.lockedFit).toBe(false);
    const cross = new Set([
      ...ref.bootstrap!.agents.map((b) => b.agent),
      ...ref.multiplicity.tests.map((t) => t.agent),
      ...ref.formatAgreement.agents,
      ...ref.crossModel.negativePriceResponse.agents,
    ]);
    for (const a of locked) expect(cross.has(a.agent), a.agent).toBe(false);
    expect(ref.crossModel.locked.map((l) => l.agent).sort()).toEqual(["sim:locked", "sim:locked-last"]);
  });
});

describe("the cross-agent summary reads the per-agent results", () => {
  it("negative price responders, their range and AIC verdicts; WTP and booked-price ranges", () => {
    const cm = analysis.crossModel;
    const engaged = analysis.agents.filter((a) => a.status === "engaged");
    expect(cm.engaged).toBe(engaged.length);
    // Every engaged preset has a negative price weight; the noisy one (β ln p = −0.4) too.
    expect(cm.negativePriceResponse.agents.sort()).toEqual(engaged.map((a) => a.agent).sort());
    const lnp = engaged.map((a) => coefficient(a.binary!.log, "lnPrice")!.estimate);
    expect(cm.negativePriceResponse.lnPrice!.min.value).toBe(Math.min(...lnp));
    expect(cm.negativePriceResponse.lnPrice!.min.agent).toBe("sim:steep");
    expect(cm.negativePriceResponse.lnPrice!.max.value).toBe(Math.max(...lnp));
    const forms = cm.negativePriceResponse.forms;
    expect(forms.linear + forms.log + forms.tie + forms.insignificant).toBe(engaged.length);
    // The linear-price shopper is told apart by AIC; the log-price steep one too.
    expect(agent("budget").binary!.formChoice).toBe("linear");
    expect(agent("steep").binary!.formChoice).toBe("log");
    const well = engaged.filter((a) => a.wellIdentified).map((a) => a.wtp!.log!.estimate);
    expect(cm.wtpLog!.agents).toBe(well.length);
    expect(cm.wtpLog!.max.value / cm.wtpLog!.min.value).toBeCloseTo(cm.wtpLog!.spread!, 12);
    expect(cm.wtpLog!.spread).toBeCloseTo(Math.max(...well) / Math.min(...well), 12);
    const booked = engaged.map((a) => a.booking.meanPrice!);
    expect(cm.bookedPrice!.min.value).toBe(Math.min(...booked));
    expect(cm.bookedPrice!.max.value).toBe(Math.max(...booked));
  });
});

describe("binary logits recover the true weights", () => {
  it("steep (log truth): β_ln p = −7 and the quality weights; no first-slot tendency", () => {
    const p = params("steep");
    const fit = agent("steep").binary!.log;
    within(fit, "lnPrice", p.betaPrice);
    within(fit, "review", p.betaReview);
    within(fit, "stars", p.betaStars);
    within(fit, "cancellation", p.betaCancellation);
    within(fit, "breakfast", p.betaBreakfast);
    within(fit, "bed", p.betaBed);
    within(fit, "firstSlot", 0);
    expect(agent("steep").binary!.formChoice).toBe("log");
  });

  it("budget (linear truth): β_price per dollar, and AIC picks the linear form", () => {
    const p = params("budget");
    within(agent("budget").binary!.linear, "price", p.betaPrice);
    within(agent("budget").binary!.linear, "review", p.betaReview);
    expect(agent("budget").binary!.formChoice).toBe("linear");
  });

  it("primacy: the first-shown form puts the +1 slot bias in the intercept and keeps the weights", () => {
    const p = params("primacy");
    const fit = agent("primacy").binary!.log;
    within(fit, "firstSlot", p.firstSlot);
    within(fit, "lnPrice", p.betaPrice);
    within(fit, "review", p.betaReview);
  });

  it("the reference's label form leaves the position effect in the noise: attenuated weights", () => {
    const label = analyzeChoice(
      trials.filter((t) => t.agent === "sim:primacy"),
      { convention: REFERENCE_CONVENTION, bootstrapDraws: 0 },
    ).agents[0]!;
    const labelPrice = coefficient(label.binary!.log, "lnPrice")!;
    const firstPrice = coefficient(agent("primacy").binary!.log, "lnPrice")!;
    expect(Math.abs(labelPrice.estimate)).toBeLessThan(Math.abs(firstPrice.estimate));
    within(label.binary!.log, "labelA", 0);
  });

  it("deciles: the steep shopper's utility falls with every price decile", () => {
    const fit = agent("steep").binary!.deciles;
    const d = [0, ...Array.from({ length: 9 }, (_, i) => coefficient(fit, `priceD${i + 2}`)!.estimate)];
    for (let i = 1; i < d.length; i++) expect(d[i]!).toBeLessThan(d[i - 1]!);
  });
});

describe("WTP, brand premiums, conditional logits and booking", () => {
  it("WTP per review point: log form at $250 and linear form, intervals cover the truth", () => {
    const steep = agent("steep").wtp!.log!;
    const truthLog = (-params("steep").betaReview / params("steep").betaPrice) * 250;
    expect(Math.abs(steep.estimate - truthLog)).toBeLessThan(4 * steep.se);
    const budget = agent("budget").wtp!.linear!;
    const truthLin = -params("budget").betaReview / params("budget").betaPrice;
    expect(Math.abs(budget.estimate - truthLin)).toBeLessThan(4 * budget.se);
    const boot = analysis.bootstrap!.agents.find((b) => b.agent === "sim:steep")!;
    expect(boot.wtpLog!.low).toBeLessThan(truthLog);
    expect(boot.wtpLog!.high).toBeGreaterThan(truthLog);
    expect(boot.lnPrice!.low).toBeLessThan(-7);
    expect(boot.lnPrice!.high).toBeGreaterThan(-7);
  });

  it("brand premiums recover the chain utilities (decile price controls)", () => {
    const premiums = agent("quality").brand!.premiums!;
    const truth = params("quality").chain;
    for (const p of premiums)
      expect(Math.abs(p.estimate - (truth[p.chain] ?? 0)), p.chain).toBeLessThan(4 * (p.robustSe ?? p.se));
  });

  it("ternary and five-option conditional logits recover β and the slot constants", () => {
    const steep = agent("steep");
    within(steep.ternary!.log, "lnPrice", -7);
    within(steep.five!.log, "lnPrice", -7);
    // Primacy: slot 0 carries +1, so slots 1 and 2 sit 1 below it.
    within(agent("primacy").ternary!.log, "slot1", -1);
    within(agent("primacy").ternary!.log, "slot2", -1);
  });

  it("five-option hit rate beats chance and matches the true model's expected hit rate", () => {
    const hr = agent("steep").fiveHitRate!;
    expect(hr.chance).toBeCloseTo(0.2, 10);
    expect(hr.hitRate).toBeGreaterThan(0.4);
    const five = trials.filter((t) => t.agent === "sim:steep" && t.kind === "five");
    const expected =
      five.reduce((s, t) => s + Math.max(...logitChoiceProbabilities(t.options, params("steep"))), 0) /
      five.length;
    const se = Math.sqrt((expected * (1 - expected)) / five.length);
    expect(Math.abs(hr.hitRate - expected)).toBeLessThan(4 * se + 0.02);
  });

  it("mean booked price matches the price expected under the true choice probabilities", () => {
    for (const name of ["steep", "quality"]) {
      const binary = trials.filter((t) => t.agent === `sim:${name}` && t.kind === "binary");
      const probs = binary.map((t) => logitChoiceProbabilities(t.options, params(name)));
      const expected = binary.reduce(
        (s, t, i) => s + t.options.reduce((u, o, j) => u + o.price * probs[i]![j]!, 0),
        0,
      );
      const variance = binary.reduce((s, t, i) => {
        const m = t.options.reduce((u, o, j) => u + o.price * probs[i]![j]!, 0);
        return s + t.options.reduce((u, o, j) => u + (o.price - m) ** 2 * probs[i]![j]!, 0);
      }, 0);
      const n = binary.length;
      expect(Math.abs(agent(name).booking.meanPrice! - expected / n)).toBeLessThan(
        4 * (Math.sqrt(variance) / n),
      );
    }
    // The steep shopper books cheaper than the quality seeker on identical tasks.
    expect(agent("steep").booking.meanPrice!).toBeLessThan(agent("quality").booking.meanPrice!);
  });

  it("non-responses: dropped by default, coded B in the reference convention", () => {
    const noisy = trials.filter((t) => t.agent === "sim:noisy");
    const dropped = agent("noisy");
    expect(dropped.triage.nonResponses).toBeGreaterThan(100);
    const binaryNon = noisy.filter((t) => t.kind === "binary" && t.chosenSlot === null).length;
    expect(dropped.binary!.n).toBe(noisy.filter((t) => t.kind === "binary").length - binaryNon);
    const coded = analyzeChoice(noisy, { convention: REFERENCE_CONVENTION, bootstrapDraws: 0 }).agents[0]!;
    expect(coded.binary!.n).toBe(noisy.filter((t) => t.kind === "binary").length);
    expect(coded.binary!.nonResponses).toBe(binaryNon);
    expect(DEFAULT_CONVENTION.nonResponses).toBe("drop");
  });
});

describe("cross-agent summaries", () => {
  it("rank stability is high and the WTP spread interval brackets the full-sample spread", () => {
    const b = analysis.bootstrap!;
    expect(b.priceRank.meanSpearman!).toBeGreaterThan(0.9);
    const s = b.wtpSpreadLog;
    expect(s.point).not.toBeNull();
    expect(s.interval!.low).toBeLessThan(s.point!);
    expect(s.interval!.high).toBeGreaterThan(s.point!);
  });

  it("binary and ternary price coefficients rank agents alike", () => {
    expect(analysis.formatAgreement.agents.length).toBeGreaterThanOrEqual(4);
    expect(analysis.formatAgreement.spearmanLog!).toBeGreaterThan(0.7);
  });

  it("multiplicity: every strong price effect survives both corrections", () => {
    const m = analysis.multiplicity;
    expect(m.tests.length).toBe(8 * analysis.agents.filter((a) => a.binary).length);
    expect(m.strongLostBonferroni).toBe(0);
    expect(m.survivesBh).toBeGreaterThanOrEqual(m.survivesBonferroni);
  });
});
