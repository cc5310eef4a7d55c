import { describe, expect, it } from "vitest";
import {
  offerAt,
  ogDecision,
  PAPER_SCHEDULE,
  parseSchedule,
  scheduleFactors,
  scheduleText,
} from "../../../agents/bargain/offer-generator.ts";
import type { BargainMove, BargainView } from "../../../environments/bargain/types.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

function view(limit: number, asks: number[], maxTurns = 6): BargainView {
  const history: BargainMove[] = [];
  for (const ask of asks) {
    history.push({ role: "buyer", type: "offer", price: 1, talk: "" });
    history.push({ role: "seller", type: "offer", price: ask, talk: "" });
  }
  return {
    role: "buyer",
    codename: "x_1",
    title: "X",
    description: "",
    listedPrice: limit / 0.8,
    limit,
    maxTurns,
    history,
  };
}

/** Plays the generator against a list of seller asks, as the machine would, until it deals or quits. */
function runAgainst(limit: number, asks: number[], maxTurns = 6) {
  const moves: { type: string; price: number | null }[] = [];
  const history: BargainMove[] = [];
  for (let step = 0; step < maxTurns; step++) {
    const d = ogDecision({ ...view(limit, [], maxTurns), history }, PAPER_SCHEDULE);
    moves.push(d);
    if (d.type !== "offer") break;
    history.push({ role: "buyer", type: "offer", price: d.price, talk: "" });
    const ask = asks[step];
    if (ask === undefined) break;
    history.push({ role: "seller", type: "offer", price: ask, talk: "" });
  }
  return moves;
}

describe("the OG-Narrator's offer generator", () => {
  it("has the paper's linear schedule, and exp and custom ones", () => {
    expect(scheduleFactors(PAPER_SCHEDULE, 6).map((f) => Number(f.toFixed(10)))).toEqual([
      0.5, 0.6, 0.7, 0.8, 0.9, 1,
    ]);
    expect(
      scheduleFactors({ kind: "exp", start: 0.5, end: 1, growth: 0.1 }, 9).map((f) => Number(f.toFixed(6))),
    ).toEqual([0.5, 0.55, 0.605, 0.6655, 0.73205, 0.805255, 0.885781, 0.974359, 1]);
    expect(scheduleFactors({ kind: "custom", factors: [0.4, 0.9] }, 6)).toEqual([0.4, 0.9]);
  });

  it("follows its schedule exactly while every ask is above its next offer", () => {
    const budget = 479.99;
    const moves = runAgainst(budget, [599, 590, 580, 570, 560, 550]);
    expect(moves).toEqual(
      scheduleFactors(PAPER_SCHEDULE, 6).map((f) => ({ type: "offer", price: offerAt(f, budget) })),
    );
    expect(moves.map((m) => m.price)).toEqual([240, 287.99, 335.99, 383.99, 431.99, 479.99]);
  });

  it("accepts the lowest ask so far when its next offer would pass it, never above the budget", () => {
    // Asks 450 then 300: at step 2 (0.7 × 400 = 280) it still offers; at step 3 (320 > 300) it deals at 300.
    expect(runAgainst(400, [450, 300, 350, 330])).toEqual([
      { type: "offer", price: 200 },
      { type: "offer", price: 240 },
      { type: "offer", price: 280 },
      { type: "deal", price: 300 },
    ]);
    // An ask equal to the next offer is not passed: it offers that price.
    expect(runAgainst(100, [60]).at(-1)).toEqual({ type: "offer", price: 60 });
    // Asks above the budget are never accepted, however long the session.
    expect(runAgainst(100, [120, 110, 105, 101, 101, 101]).every((m) => m.type === "offer")).toBe(true);
  });

  it("after its last step deals on the best ask within the budget, or quits", () => {
    expect(ogDecision(view(100, [130, 95, 99, 101, 102, 103]), PAPER_SCHEDULE)).toEqual({
      type: "deal",
      price: 95,
    });
    expect(ogDecision(view(100, [130, 120, 110, 105, 101, 101]), PAPER_SCHEDULE)).toEqual({
      type: "quit",
      price: null,
    });
  });

  it("never offers or accepts above the budget, for any schedule and budget", () => {
    const rng = createRng("og-property");
    for (let i = 0; i < 2000; i++) {
      const budget = Math.round(rng.uniform(0.01, 5000) * 100) / 100;
      const factors = Array.from({ length: 1 + rng.int(8) }, () => Math.max(0.01, rng.uniform(0, 1)));
      const asks = Array.from(
        { length: factors.length + 1 },
        () => Math.round(rng.uniform(0.5, 1.5) * budget * 100) / 100,
      );
      for (let k = 0; k <= asks.length; k++) {
        const d = ogDecision(view(budget, asks.slice(0, k), factors.length), { kind: "custom", factors });
        if (d.price !== null) expect(d.price).toBeLessThanOrEqual(budget);
      }
    }
    expect(offerAt(1, 3.996)).toBe(3.99);
  });

  it("reads schedules from the command line", () => {
    expect(parseSchedule("linear")).toEqual(PAPER_SCHEDULE);
    expect(parseSchedule("exp:0.4:0.9")).toEqual({ kind: "exp", start: 0.4, end: 0.9, growth: 0.1 });
    expect(parseSchedule("0.5,0.75,1")).toEqual({ kind: "custom", factors: [0.5, 0.75, 1] });
    expect(scheduleText(parseSchedule("linear:0.6:1"))).toBe("linear:0.6:1");
    for (const bad of ["linear:0.5", "1.2,1", "0.5,,1", "swish", "linear:0.9:0.5", "exp:0:1"]) {
      expect(() => parseSchedule(bad)).toThrow(/--og-schedule/);
    }
  });
});
