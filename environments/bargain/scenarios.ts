import { z } from "zod";
import type { PriceHistoryProduct } from "../../datasets/price-history/schema.ts";
import { UserError } from "../kernel/errors.ts";
import { createRng } from "../kernel/rng.ts";
import type { BargainTask, Interest } from "./types.ts";

/**
 * The paper's rules for turning a price history into a scenario, every factor a parameter:
 * listed price L = max(highest, list price); seller cost C = costFactor × lowest price; buyer
 * budget B = budgetFactor × L. C > B is conflicting interest (CI), otherwise mutual (MI).
 */
export const ScenarioRulesSchema = z.object({
  budgetFactor: z.number().positive().default(0.8),
  costFactor: z.number().positive().default(1),
});
export type ScenarioRules = z.infer<typeof ScenarioRulesSchema>;

export interface ScenarioPrices {
  listedPrice: number;
  budget: number;
  cost: number;
  interest: Interest;
}

/** Twelve significant decimals: drops binary noise (0.8 × 599.99 = 479.99200000000002) and nothing else. */
function tidy(x: number): number {
  return Number(x.toPrecision(12));
}

export function scenarioPrices(product: PriceHistoryProduct, rules: ScenarioRules): ScenarioPrices {
  const listedPrice = Math.max(product.highestPrice, product.listPrice);
  const budget = tidy(rules.budgetFactor * listedPrice);
  const cost = tidy(rules.costFactor * product.lowestPrice);
  return { listedPrice, budget, cost, interest: cost > budget ? "CI" : "MI" };
}

export const BargainDesignSchema = ScenarioRulesSchema.extend({
  seed: z.union([z.number().int(), z.string()]).default(2026),
  /** How many products to draw (without replacement), or "all" for the whole catalog in order. */
  scenarios: z.union([z.number().int().positive(), z.literal("all")]).default(100),
  maxTurns: z.number().int().positive().default(6),
});
export type BargainDesign = z.infer<typeof BargainDesignSchema>;
export type BargainDesignInput = z.input<typeof BargainDesignSchema>;

export function taskFromProduct(product: PriceHistoryProduct, design: BargainDesign): BargainTask {
  return {
    env: "bargain",
    taskId: product.id,
    scenarioId: product.id,
    product: {
      id: product.id,
      title: product.title,
      category: product.category,
      description: product.description,
    },
    ...scenarioPrices(product, design),
    maxTurns: design.maxTurns,
  };
}

/**
 * design → tasks: a pure, seeded function. Every agent pairing of a run meets the same tasks, so
 * buyers are compared on the same scenarios. A sample keeps the catalog's order, so a larger
 * sample of the same seed is not a reshuffle of a smaller one's products.
 */
export function buildBargainTasks(
  designInput: BargainDesignInput,
  catalog: readonly PriceHistoryProduct[],
): BargainTask[] {
  const design = BargainDesignSchema.parse(designInput);
  if (catalog.length === 0) throw new UserError("the price-history catalog has no products");
  if (design.scenarios !== "all" && design.scenarios > catalog.length) {
    throw new UserError(
      `${design.scenarios} scenarios requested, but the catalog has only ${catalog.length} products`,
      `ask for at most ${catalog.length}, or --scenarios all`,
    );
  }
  const seen = new Set<string>();
  for (const p of catalog) {
    if (seen.has(p.id)) throw new UserError(`the catalog has two products with the codename ${p.id}`);
    seen.add(p.id);
  }
  let picked: readonly PriceHistoryProduct[] = catalog;
  if (design.scenarios !== "all") {
    const rng = createRng(`bargain/scenarios/${design.seed}`);
    // A random priority per product; the n smallest are the sample, shown in catalog order.
    const keyed = catalog.map((_, i) => ({ i, key: rng.next() }));
    const chosen = new Set(
      keyed
        .sort((a, b) => a.key - b.key)
        .slice(0, design.scenarios)
        .map((x) => x.i),
    );
    picked = catalog.filter((_, i) => chosen.has(i));
  }
  return picked.map((p) => taskFromProduct(p, design));
}
