import { describe, expect, it } from "vitest";
import type { PriceHistoryProduct } from "../../../datasets/price-history/index.ts";
import { defaultPriceHistoryCatalog } from "../../../datasets/price-history/index.ts";
import { buildBargainTasks, scenarioPrices } from "../../../environments/bargain/scenarios.ts";

const product = (over: Partial<PriceHistoryProduct>): PriceHistoryProduct => ({
  id: "books_1",
  title: "A book",
  category: "books",
  description: "",
  hasDescription: false,
  hasFeatures: false,
  currentPrice: 20,
  listPrice: 25,
  averagePrice: 20,
  highestPrice: 30,
  lowestPrice: 15,
  ...over,
});

describe("scenario rules", () => {
  it("L = max(highest, list), B = 0.8 L, C = lowest; C > B is conflicting interest", () => {
    expect(scenarioPrices(product({}), { budgetFactor: 0.8, costFactor: 1 })).toEqual({
      listedPrice: 30,
      budget: 24,
      cost: 15,
      interest: "MI",
    });
    expect(
      scenarioPrices(product({ listPrice: 599.99, highestPrice: 599, lowestPrice: 509.99 }), {
        budgetFactor: 0.8,
        costFactor: 1,
      }),
    ).toEqual({
      listedPrice: 599.99,
      budget: 479.992,
      cost: 509.99,
      interest: "CI",
    });
    expect(scenarioPrices(product({ lowestPrice: 24 }), { budgetFactor: 0.8, costFactor: 1 }).interest).toBe(
      "MI",
    );
    expect(scenarioPrices(product({}), { budgetFactor: 0.5, costFactor: 1.1 })).toMatchObject({
      budget: 15,
      cost: 16.5,
      interest: "CI",
    });
  });

  it("samples scenarios by seed, keeps catalog order, and a larger sample contains a smaller one", () => {
    const catalog = defaultPriceHistoryCatalog();
    const a = buildBargainTasks({ seed: 3, scenarios: 40 }, catalog);
    expect(buildBargainTasks({ seed: 3, scenarios: 40 }, catalog)).toEqual(a);
    expect(buildBargainTasks({ seed: 4, scenarios: 40 }, catalog)).not.toEqual(a);
    const order = new Map(catalog.map((p, i) => [p.id, i]));
    const idx = a.map((t) => order.get(t.scenarioId)!);
    expect(idx).toEqual([...idx].sort((x, y) => x - y));
    const bigger = new Set(buildBargainTasks({ seed: 3, scenarios: 80 }, catalog).map((t) => t.taskId));
    expect(a.every((t) => bigger.has(t.taskId))).toBe(true);
    expect(buildBargainTasks({ scenarios: "all", maxTurns: 4 }, catalog)).toHaveLength(catalog.length);
    expect(a[0]).toMatchObject({ env: "bargain", maxTurns: 6, taskId: a[0]!.scenarioId });
    expect(() => buildBargainTasks({ scenarios: 301 }, catalog)).toThrow(/only 300 products/);
  });
});
