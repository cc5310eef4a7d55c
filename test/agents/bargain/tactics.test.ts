import { describe, expect, it } from "vitest";
import { RULE_PRESETS } from "../../../agents/bargain/presets.ts";
import { TimeDependentNegotiator, TitForTatNegotiator } from "../../../agents/bargain/tactics.ts";
import type { BargainMove, BargainRole, BargainView } from "../../../environments/bargain/types.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

function view(role: BargainRole, limit: number, history: BargainMove[] = [], listedPrice = 100): BargainView {
  return { role, codename: "x_1", title: "X", description: "", listedPrice, limit, maxTurns: 6, history };
}

const ctx = { rng: createRng("t"), trialKey: "", replicate: 0 };

describe("time-dependent tactics", () => {
  it("concede on the curve f(t) = k + (1 − k)·t^(1/e) from the listed price down to the cost", () => {
    const targets = (e: number) =>
      Array.from({ length: 6 }, (_, s) => new TimeDependentNegotiator("x", e).target(view("seller", 50), s));
    expect(targets(1)).toEqual([100, 90, 80, 70, 60, 50]);
    expect(targets(2).map((x) => Math.round(x))).toEqual([100, 78, 68, 61, 55, 50]);
    expect(targets(0.2)).toEqual([100, 99.99, 99.49, 96.12, 83.62, 50]);
    expect(targets(0)).toEqual([100, 100, 100, 100, 100, 100]);
    // A buyer rises from half its budget to its budget.
    const buyer = Array.from({ length: 6 }, (_, s) =>
      new TimeDependentNegotiator("x", 1).target(view("buyer", 80), s),
    );
    expect(buyer).toEqual([40, 48, 56, 64, 72, 80]);
  });

  it("accept the other side's best offer once it beats their own next offer (AC_next)", () => {
    const seller = new TimeDependentNegotiator("s", 1);
    const bids = (xs: number[]): BargainMove[] =>
      xs.flatMap((x, i) => [
        { role: "buyer", type: "offer", price: x, talk: "" },
        ...(i < xs.length - 1
          ? [{ role: "seller", type: "offer", price: 100 - 10 * i, talk: "" } as BargainMove]
          : []),
      ]);
    expect(seller.act({ messages: [], view: view("seller", 50, bids([60, 85])) }).action).toMatchObject({
      type: "offer",
      price: 90,
    });
    expect(seller.act({ messages: [], view: view("seller", 50, bids([60, 91])) }).action).toMatchObject({
      type: "deal",
      price: 91,
    });
  });

  it("never pass their limits: a seller never below its cost, a buyer never above its budget", () => {
    const rng = createRng("limits");
    for (const [name, preset] of Object.entries(RULE_PRESETS)) {
      const agent = preset.make(name);
      for (let i = 0; i < 300; i++) {
        const listed = rng.uniform(5, 4000);
        const role: BargainRole = rng.bernoulli(0.5) ? "buyer" : "seller";
        const limit = Math.round(listed * rng.uniform(0.2, 1) * 100) / 100;
        const history: BargainMove[] = [];
        for (let k = 0; k < rng.int(11); k++) {
          const r: BargainRole = k % 2 === 0 ? "buyer" : "seller";
          history.push({
            role: r,
            type: "offer",
            price: Math.round(listed * rng.uniform(0.1, 1.3) * 100) / 100,
            talk: "",
          });
        }
        const own = history.filter((m) => m.role === role).length;
        if (own > 5) continue;
        const { action } = agent.act({ messages: [], view: view(role, limit, history, listed) }, ctx) as {
          action: { type: string; price?: number };
        };
        if (action.price === undefined) continue;
        if (role === "seller") expect(action.price).toBeGreaterThanOrEqual(limit);
        else expect(action.price).toBeLessThanOrEqual(limit);
      }
    }
  });
});

describe("tit-for-tat", () => {
  it("opens at the start of its range, then mirrors the other side's last concession", () => {
    const tft = new TitForTatNegotiator("t");
    const h: BargainMove[] = [{ role: "buyer", type: "offer", price: 40, talk: "" }];
    expect(tft.act({ messages: [], view: view("seller", 50, h) }).action).toMatchObject({
      type: "offer",
      price: 100,
    });
    h.push(
      { role: "seller", type: "offer", price: 100, talk: "" },
      { role: "buyer", type: "offer", price: 48, talk: "" },
    );
    expect(tft.act({ messages: [], view: view("seller", 50, h) }).action).toMatchObject({ price: 92 });
    h.push(
      { role: "seller", type: "offer", price: 92, talk: "" },
      { role: "buyer", type: "offer", price: 45, talk: "" },
    );
    // The buyer went back down: no concession to mirror.
    expect(tft.act({ messages: [], view: view("seller", 50, h) }).action).toMatchObject({ price: 92 });
  });
});
