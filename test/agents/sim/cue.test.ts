import { describe, expect, it } from "vitest";
import {
  CUE_PRESETS,
  CueShopper,
  type CueShopperParams,
  equalPriceRate,
  expectedLogistic,
  firstCardProbability,
  SentenceMatcher,
  sdForRate,
  truePriceEquivalent,
} from "../../../agents/sim/index.ts";
import { DEFAULT_CUE_LIBRARY, DEFAULT_PRODUCT_PAIRS } from "../../../datasets/products/index.ts";
import { buildCueTasks, type CueTask, shownCard } from "../../../environments/cue/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

const matcher = new SentenceMatcher(DEFAULT_CUE_LIBRARY);
const moderate = CUE_PRESETS.moderate!.params;

function tasksOf(condition: string, grid: number[], category = "headphones"): CueTask[] {
  return buildCueTasks(
    { conditions: [condition], blocks: ["main"], categories: [category], grid },
    DEFAULT_PRODUCT_PAIRS,
    DEFAULT_CUE_LIBRARY,
  );
}

/** The counterbalanced S(g) of the shopper at one premium, exactly: the mean over the four states. */
function exactS(params: CueShopperParams, tasks: readonly CueTask[]): number {
  const ps = tasks.map((t) => {
    const cards = [shownCard(t.options[0]), shownCard(t.options[1])] as const;
    const first = firstCardProbability(cards, t.category, params, matcher);
    return t.cuedFirst ? first : 1 - first;
  });
  return ps.reduce((a, b) => a + b, 0) / ps.length;
}

describe("expectedLogistic", () => {
  it("is σ(μ) without noise, ½ at μ = 0 for any sd, and matches a Monte Carlo mean", () => {
    expect(expectedLogistic(1.3, 0)).toBeCloseTo(1 / (1 + Math.exp(-1.3)), 12);
    for (const sd of [0.3, 2, 40]) expect(expectedLogistic(0, sd)).toBeCloseTo(0.5, 9);
    expect(expectedLogistic(2, 3) + expectedLogistic(-2, 3)).toBeCloseTo(1, 9);
    const rng = createRng("mc");
    for (const [mu, sd] of [
      [1.5, 0.7],
      [-3, 4],
      [20, 12],
    ] as const) {
      let sum = 0;
      const n = 200_000;
      for (let i = 0; i < n; i++) sum += 1 / (1 + Math.exp(-(mu + sd * rng.normal())));
      expect(expectedLogistic(mu, sd)).toBeCloseTo(sum / n, 2);
    }
  });
});

describe("the cue shopper's true price-equivalent", () => {
  it("is pull / sensitivity, and the exact counterbalanced curve crosses ½ there whatever b and sd", () => {
    const params: CueShopperParams = {
      ...moderate,
      firstSlot: 0.9,
      pulls: { ...moderate.pulls, scarcity: { mean: 1.5, sd: 2.5 } },
    };
    const truth = 1.5 / params.priceSensitivity;
    const [t] = tasksOf("scarcity", [0, truth]).filter((x) => x.premium === truth && x.cuedFirst);
    if (!t) throw new Error("no task");
    expect(
      truePriceEquivalent(shownCard(t.options[0]), shownCard(t.options[1]), "headphones", params, matcher),
    ).toBeCloseTo(truth, 12);
    const atTruth = tasksOf("scarcity", [0, truth]).filter((x) => x.premium === truth);
    // Prices are rounded to cents, which moves the realised premium by < 0.01 percentage points.
    expect(exactS(params, atTruth)).toBeCloseTo(0.5, 3);
    const below = tasksOf("scarcity", [0, 0.02]).filter((x) => x.premium === 0.02);
    const above = tasksOf("scarcity", [0, 0.08]).filter((x) => x.premium === 0.08);
    expect(exactS(params, below)).toBeGreaterThan(0.5);
    expect(exactS(params, above)).toBeLessThan(0.5);
  });

  it("nets the other sentence of a two-sided condition, and counts a shared text under its first entry", () => {
    const t = tasksOf("control-length", [0, 0.02]).find((x) => x.cuedFirst)!;
    const cards = [shownCard(t.options[0]), shownCard(t.options[1])] as const;
    expect(matcher.keysIn(cards[0], "headphones")).toEqual(["social-proof-strong"]);
    expect(matcher.keysIn(cards[1], "headphones")).toEqual(["control-length.other"]);
    expect(truePriceEquivalent(cards[0], cards[1], "headphones", moderate, matcher)).toBeCloseTo(
      0.08 - 0.01,
      12,
    );
  });

  it("tells the domain-matched expert from the off-domain one by the category", () => {
    const onCoffee = tasksOf("authority-off-domain", [0, 0.02], "coffee-machines").find((x) => x.cuedFirst)!;
    expect(matcher.keysIn(shownCard(onCoffee.options[0]), "coffee-machines")).toEqual([
      "authority-off-domain",
    ]);
    const onPhones = tasksOf("authority", [0, 0.02]).find((x) => x.cuedFirst)!;
    expect(matcher.keysIn(shownCard(onPhones.options[0]), "headphones")).toEqual(["authority"]);
  });
});

describe("the shopper's answers", () => {
  it("choose the first card as often as the exact probability says", () => {
    const shopper = new CueShopper("s", moderate, DEFAULT_CUE_LIBRARY);
    const t = tasksOf("social-proof-strong", [0, 0.06]).find((x) => x.premium === 0.06 && !x.cuedFirst)!;
    const view = {
      cards: [shownCard(t.options[0]), shownCard(t.options[1])] as [
        ReturnType<typeof shownCard>,
        ReturnType<typeof shownCard>,
      ],
      letters: ["A", "B"],
      category: t.category,
      item: t.item,
      attempt: 0,
    };
    const p = firstCardProbability(view.cards, t.category, moderate, shopper.matcher);
    let first = 0;
    const n = 40_000;
    for (let i = 0; i < n; i++) {
      const { action } = shopper.act(
        { messages: [], view },
        { rng: createRng(i), trialKey: "k", replicate: 0 },
      );
      if (action.type === "reply" && action.text === "A") first++;
    }
    expect(Math.abs(first / n - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / n));
  });

  it("the locked preset always takes the first card; the evasive one often names none", () => {
    const t = tasksOf("scarcity", [0, 0.02]).find((x) => !x.cuedFirst)!;
    const view = {
      cards: [shownCard(t.options[0]), shownCard(t.options[1])] as [
        ReturnType<typeof shownCard>,
        ReturnType<typeof shownCard>,
      ],
      letters: ["A", "B"],
      category: t.category,
      item: t.item,
      attempt: 0,
    };
    const locked = CUE_PRESETS.locked!.make("l");
    const evasive = CUE_PRESETS.evasive!.make("e");
    let offFormat = 0;
    for (let i = 0; i < 2000; i++) {
      const ctx = { rng: createRng(i), trialKey: "k", replicate: 0 };
      expect(locked.act({ messages: [], view }, ctx).action).toEqual({ type: "reply", text: "A" });
      const a = evasive.act({ messages: [], view }, { ...ctx, rng: createRng(`e${i}`) }).action;
      if (a.type === "reply" && a.text !== "A" && a.text !== "B") offFormat++;
    }
    expect(offFormat / 2000).toBeGreaterThan(0.55);
    expect(offFormat / 2000).toBeLessThan(0.65);
  });
});

describe("presets", () => {
  it("the paper preset reproduces the reported equal-price rates and PEs it is configured to", () => {
    const p = CUE_PRESETS.paper!.params;
    const rate = (name: string) => {
      const pull = p.pulls[name]!;
      return equalPriceRate(pull.mean, pull.sd, p.firstSlot);
    };
    expect(rate("social-proof-strong")).toBeCloseTo(0.995, 4);
    expect(rate("scarcity")).toBeCloseTo(0.96, 4);
    expect(rate("framing-gain-loss")).toBeCloseTo(0.72, 4);
    expect(p.pulls.scarcity!.mean / p.priceSensitivity).toBeCloseTo(0.016, 12);
    expect(p.pulls["social-proof-very-strong"]!.mean / p.priceSensitivity).toBeCloseTo(0.214, 12);
  });

  it("sdForRate inverts equalPriceRate, and gives 0 when the rate needs no noise", () => {
    const sd = sdForRate(10, 0.5, 0.8);
    expect(equalPriceRate(10, sd, 0.5)).toBeCloseTo(0.8, 6);
    expect(sdForRate(2, 0.5, 0.99)).toBe(0);
  });

  it("the price-blind preset ignores price and the skeptic's truths sit outside the grid", () => {
    expect(CUE_PRESETS["price-blind"]!.params.priceSensitivity).toBe(0);
    const skeptic = CUE_PRESETS.skeptic!.params;
    expect(skeptic.pulls.scarcity!.mean / skeptic.priceSensitivity).toBeLessThan(0);
    expect(skeptic.pulls["social-proof-very-strong"]!.mean / skeptic.priceSensitivity).toBeGreaterThan(0.26);
  });
});
