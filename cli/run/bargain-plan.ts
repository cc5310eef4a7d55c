import path from "node:path";
import { z } from "zod";
import { parseSchedule, resolveBargainPairs, splitSpecs } from "../../agents/bargain/index.ts";
import type { LlmContext } from "../../agents/registry.ts";
import { defaultPriceHistoryCatalog, loadPriceHistory } from "../../datasets/price-history/index.ts";
import { bargainEnvironment } from "../../environments/bargain/environment.ts";
import { BargainDesignSchema, buildBargainTasks } from "../../environments/bargain/scenarios.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { stableHash } from "../../environments/kernel/hash.ts";
import { planRun, type RunPlan } from "../../environments/runner/plan.ts";
import { parseOption, positiveInt } from "../options.ts";
import { DEFAULT_BUYERS, DEFAULT_SCENARIOS, DEFAULT_SELLERS } from "./bargain.ts";
import { type CommonRunOptions, seedValue } from "./types.ts";

interface BargainOptions extends CommonRunOptions {
  agent?: string;
  replicates: string;
  buyer?: string;
  seller?: string;
  scenarios?: string;
  maxTurns?: string;
  catalog?: string;
  budgetFactor?: string;
  costFactor?: string;
  ogSchedule?: string;
}

const factor = z.coerce
  .number({ error: "expected a number" })
  .refine((x) => Number.isFinite(x) && x > 0, "expected a number above 0");
const scenarios = z.union([z.literal("all"), positiveInt], {
  error: () => "expected a whole number ≥ 1, or all",
});

/** `bazaar run bargain`: its options checked and turned into the run plan (nothing written). */
export function planBargain(options: CommonRunOptions, llm: LlmContext): RunPlan {
  const o = options as BargainOptions;
  if (o.agent !== undefined) {
    throw new UserError(
      "bargain pairs buyers with sellers: name them with --buyer and --seller, not --agent",
      `e.g. --buyer og-narrator,${o.agent} --seller rule:boulware`,
    );
  }
  const design = BargainDesignSchema.parse({
    seed: seedValue(o.seed ?? "2026"),
    scenarios: parseOption("scenarios", scenarios, o.scenarios ?? String(DEFAULT_SCENARIOS)),
    maxTurns: o.maxTurns === undefined ? undefined : parseOption("max-turns", positiveInt, o.maxTurns),
    budgetFactor:
      o.budgetFactor === undefined ? undefined : parseOption("budget-factor", factor, o.budgetFactor),
    costFactor: o.costFactor === undefined ? undefined : parseOption("cost-factor", factor, o.costFactor),
  });
  const ogSchedule = o.ogSchedule === undefined ? undefined : parseSchedule(o.ogSchedule);
  const agents = resolveBargainPairs(
    splitSpecs(o.buyer ?? DEFAULT_BUYERS, "buyer"),
    splitSpecs(o.seller ?? DEFAULT_SELLERS, "seller"),
    llm,
    { ogSchedule },
  );
  const catalog = o.catalog ? loadPriceHistory(o.catalog).products : defaultPriceHistoryCatalog();
  const tasks = buildBargainTasks(design, catalog);
  return planRun({
    env: bargainEnvironment,
    settings: {},
    tasks,
    agents,
    replicates: parseOption("replicates", positiveInt, o.replicates),
    design: {
      ...design,
      catalog: o.catalog ? { name: path.basename(o.catalog), hash: stableHash(catalog) } : "default",
    },
  });
}
