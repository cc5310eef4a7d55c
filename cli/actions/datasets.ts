import { writeFileSync } from "node:fs";
import { z } from "zod";
import { quantile } from "../../analysis/stats/index.ts";
import {
  formatCatalogMoney,
  generatePriceHistoryCatalog,
  loadPriceHistory,
  type PriceHistoryProduct,
} from "../../datasets/price-history/index.ts";
import {
  type ScenarioRules,
  ScenarioRulesSchema,
  scenarioPrices,
} from "../../environments/bargain/scenarios.ts";
import { parseOption, positiveInt } from "../options.ts";
import { type Output, printJson } from "../output.ts";
import { renderTable } from "../table.ts";

const factor = z.coerce
  .number({ error: "expected a number" })
  .refine((x) => Number.isFinite(x) && x > 0, "expected a number above 0");

/** What `datasets load amazon-history-price` reports: counts, price range and the sessions it makes. */
export function priceHistoryReport(products: readonly PriceHistoryProduct[], rules: ScenarioRules) {
  const prices = products.map((p) => scenarioPrices(p, rules));
  const listed = prices.map((p) => p.listedPrice);
  return {
    products: products.length,
    listedPrice: {
      min: Math.min(...listed),
      median: quantile(listed, 0.5),
      max: Math.max(...listed),
    },
    withDescription: products.filter((p) => p.hasDescription).length,
    withFeatures: products.filter((p) => p.hasFeatures).length,
    rules,
    sessions: {
      MI: prices.filter((p) => p.interest === "MI").length,
      CI: prices.filter((p) => p.interest === "CI").length,
      smallGap: prices.filter((p) => Math.abs(p.budget - p.cost) < 1).length,
    },
  };
}

/** `bazaar datasets load <dataset> <path>`: validates a data set's files and reports what they hold. */
export function loadDataset(
  name: string,
  location: string,
  o: { budgetFactor?: string; costFactor?: string; json?: boolean },
  out: Output,
) {
  const rules = ScenarioRulesSchema.parse({
    budgetFactor:
      o.budgetFactor === undefined ? undefined : parseOption("budget-factor", factor, o.budgetFactor),
    costFactor: o.costFactor === undefined ? undefined : parseOption("cost-factor", factor, o.costFactor),
  });
  const catalog = loadPriceHistory(location);
  const report = {
    dataset: name,
    path: location,
    files: catalog.files,
    ...priceHistoryReport(catalog.products, rules),
  };
  if (o.json) return printJson(out, report);
  const money = formatCatalogMoney;
  out.log(`${name}: ${location} — ${report.products} products in ${catalog.files.length} file(s), all valid`);
  out.log(
    renderTable(
      ["file", "products"],
      catalog.files.map((f) => [f.file, String(f.products)]),
    ),
  );
  out.log(
    `listed price L = max(highest, list): ${money(report.listedPrice.min)} – ${money(report.listedPrice.max)} ` +
      `(median ${money(report.listedPrice.median)})`,
  );
  out.log(`with a description: ${report.withDescription} · with features: ${report.withFeatures}`);
  out.log(
    `sessions under B = ${rules.budgetFactor} × L and C = ${rules.costFactor} × lowest: ` +
      `${report.sessions.MI} mutual interest (MI), ${report.sessions.CI} conflicting interest (CI); ` +
      `${report.sessions.smallGap} with |B − C| < $1`,
  );
}

/** `bazaar datasets generate <dataset>`: writes bazaar's generated catalog. */
export function generateDataset(o: { seed: string; size: string; out?: string }, out: Output) {
  const seed = /^-?\d+$/.test(o.seed) ? Number(o.seed) : o.seed;
  const size = parseOption("size", positiveInt, o.size);
  const products = generatePriceHistoryCatalog(seed, size);
  const file = {
    about:
      "Invented products in the AmazonHistoryPrice schema from generatePriceHistoryCatalog(seed, size) in " +
      "datasets/price-history/generate.ts. Regenerate with: npx bazaar datasets generate price-history. " +
      "Do not edit by hand.",
    seed,
    size,
    products,
  };
  const text = `${JSON.stringify(file, null, 2)}\n`;
  if (!o.out) return void process.stdout.write(text);
  writeFileSync(o.out, text);
  out.error(`wrote ${products.length} products (seed ${seed}) to ${o.out}`);
}
