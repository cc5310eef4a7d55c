import { describe, expect, it } from "vitest";
import {
  CONSISTENT_RESPONDENT,
  expectedAnswer,
  RESPONDENT_PRESETS,
  SimRespondent,
  trueAnswer,
  writeAmount,
} from "../../../agents/sim/index.ts";
import { buildElicitTasks, parseDollarAmount, viewOf } from "../../../environments/elicit/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

const tasks = buildElicitTasks({ seed: 1 });
const itemValue = (t: (typeof tasks)[number], id: string) => {
  const q = tasks.find((x) => x.group === t.group && x.queryType === "item" && x.item.id === id)!;
  return trueAnswer(viewOf(q));
};

describe("the simulated respondent's truth", () => {
  it("answers offer pairs with [U(y) − q] − [U(x) − p] from its item utilities", () => {
    for (const t of tasks) {
      if (t.queryType !== "offer-pair" || t.collection !== "main") continue;
      const expected =
        itemValue(t, t.target.item.id) - t.target.price - (itemValue(t, t.source.item.id) - t.source.price);
      expect(trueAnswer(viewOf(t))).toBeCloseTo(expected, 9);
    }
  });

  it("values every item above nothing and differently per utterance", () => {
    const items = tasks.filter((t) => t.queryType === "item");
    for (const t of items) expect(trueAnswer(viewOf(t))).toBeGreaterThan(0);
    const f1 = items
      .filter((t) => t.queryType === "item" && t.item.id === "f1")
      .map((t) => trueAnswer(viewOf(t)));
    expect(new Set(f1).size).toBe(3);
  });

  it("applies each distortion as documented", () => {
    const t = tasks.find((x) => x.queryType === "offer-pair" && x.collection === "main")!;
    if (t.queryType !== "offer-pair") throw new Error("no pair");
    const v = viewOf(t);
    const truth = trueAnswer(v);
    const s = (t.source.price + t.target.price) / 2;
    const at = (p: Partial<typeof CONSISTENT_RESPONDENT>) =>
      expectedAnswer(v, { ...CONSISTENT_RESPONDENT, ...p }).mean;
    expect(at({})).toBeCloseTo(truth, 9);
    expect(at({ queryTypeBias: 0.1 })).toBeCloseTo(truth + 0.1 * s, 9);
    expect(at({ compression: 0.6 })).toBeCloseTo(0.6 * truth, 9);
    expect(at({ pathDrift: 0.01 })).toBeCloseTo(truth + Math.sign(truth) * 0.01 * s, 9);
    expect(expectedAnswer(v, CONSISTENT_RESPONDENT).sd).toBeCloseTo(0.08 * s, 9);
    const item = tasks.find((x) => x.queryType === "item")!;
    expect(expectedAnswer(viewOf(item), { ...CONSISTENT_RESPONDENT, itemScale: 1.1 }).mean).toBeCloseTo(
      1.1 * trueAnswer(viewOf(item)),
      9,
    );
  });
});

describe("the simulated respondent's answers", () => {
  it("writes numbers only in forms the strict parser reads back exactly", () => {
    const rng = createRng("forms");
    for (const value of [0, 7, -7, 450, -450, 1250, -1250, 23456, -98765]) {
      for (let i = 0; i < 20; i++) {
        const text = writeAmount(value, "varied", rng);
        expect(parseDollarAmount(text, { signed: true }), text).toEqual({ ok: true, value });
      }
      expect(writeAmount(value, "plain", rng)).toBe(String(value));
    }
  });

  it("is seeded: the same rng gives the same answer, and answers scatter around the truth", () => {
    const t = tasks.find((x) => x.queryType === "item")!;
    const agent = new SimRespondent("sim:consistent", CONSISTENT_RESPONDENT);
    const obs = { messages: [], view: viewOf(t) };
    const ask = (seed: string) => agent.act(obs, { rng: createRng(seed), trialKey: seed, replicate: 0 });
    expect(ask("a")).toEqual(ask("a"));
    const values = Array.from({ length: 400 }, (_, i) => {
      const a = ask(`s${i}`).action;
      return Number(a.type === "reply" ? a.text : Number.NaN);
    });
    const mean = values.reduce((x, y) => x + y, 0) / values.length;
    const { sd } = expectedAnswer(viewOf(t), CONSISTENT_RESPONDENT);
    expect(Math.abs(mean - trueAnswer(viewOf(t)))).toBeLessThan((4 * sd) / Math.sqrt(400));
  });

  it("gives non-finite answers at its rate, which the parser flags", () => {
    const agent = RESPONDENT_PRESETS["consistent-varied"]!.make("x");
    const t = tasks.find((x) => x.queryType === "offer-pair")!;
    let nonFinite = 0;
    for (let i = 0; i < 2000; i++) {
      const a = agent.act(
        { messages: [], view: viewOf(t) },
        { rng: createRng(`n${i}`), trialKey: "k", replicate: 0 },
      ).action;
      if (a.type === "reply" && !parseDollarAmount(a.text, { signed: true }).ok) nonFinite++;
    }
    expect(nonFinite / 2000).toBeGreaterThan(0.01);
    expect(nonFinite / 2000).toBeLessThan(0.03);
  });

  it("has a consistent default and inconsistent presets, all with known parameters", () => {
    expect(RESPONDENT_PRESETS.consistent!.params).toEqual(CONSISTENT_RESPONDENT);
    for (const name of ["biased", "compressed", "drifting", "inconsistent"])
      expect(RESPONDENT_PRESETS[name]!.params).not.toEqual(CONSISTENT_RESPONDENT);
    expect(RESPONDENT_PRESETS.biased!.params.queryTypeBias).toBe(0.1);
  });
});
