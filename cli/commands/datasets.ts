import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import { z } from "zod";
import { quantile } from "../../analysis/stats/index.ts";
import {
  DEFAULT_CATALOG_SEED,
  DEFAULT_CATALOG_SIZE,
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
import { UserError } from "../../environments/kernel/errors.ts";
import { parseOption, positiveInt } from "../options.ts";
import { type Output, printJson } from "../output.ts";
import { renderTable } from "../table.ts";

const LOADABLE = ["amazon-history-price"] as const;
const GENERATABLE = ["price-history"] as const;
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

function dataset<T extends readonly [string, ...string[]]>(names: T, name: string): T[number] {
  if (!names.includes(name)) {
    throw new UserError(`unknown data set "${name}"`, `data sets here: ${names.join(", ")}`);
  }
  return name;
}

export function registerDatasets(program: Command, out: Output): void {
  const cmd = program.command("datasets").description("check and generate the data sets bazaar reads");
  cmd
    .command("load")
    .description(
      "validate a data set's files and report what they hold (amazon-history-price: the 18 JSON files)",
    )
    .argument("<dataset>", `the data set: ${LOADABLE.join(", ")}`)
    .argument("<path>", "the folder of the data set's files (or one JSON file of products)")
    .option("--budget-factor <f>", "buyer budget B = f × listed price, for the MI/CI count (default 0.8)")
    .option("--cost-factor <f>", "seller cost C = f × lowest price, for the MI/CI count (default 1)")
    .option("--json", "print the report as JSON")
    .action(
      (name: string, location: string, o: { budgetFactor?: string; costFactor?: string; json?: boolean }) => {
        dataset(LOADABLE, name);
        const rules = ScenarioRulesSchema.parse({
          budgetFactor:
            o.budgetFactor === undefined ? undefined : parseOption("budget-factor", factor, o.budgetFactor),
          costFactor:
            o.costFactor === undefined ? undefined : parseOption("cost-factor", factor, o.costFactor),
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
        out.log(
          `${name}: ${location} — ${report.products} products in ${catalog.files.length} file(s), all valid`,
        );
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
      },
    );
  cmd
    .command("generate")
    .description(
      "write bazaar's generated catalog (price-history: invented products in the AmazonHistoryPrice schema)",
    )
    .argument("<dataset>", `the data set: ${GENERATABLE.join(", ")}`)
    .option("--seed <seed>", "generator seed", String(DEFAULT_CATALOG_SEED))
    .option("--size <n>", "number of products", String(DEFAULT_CATALOG_SIZE))
    .option("--out <file>", "write here instead of standard output")
    .action((name: string, o: { seed: string; size: string; out?: string }) => {
      dataset(GENERATABLE, name);
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
    });
  for (const sub of cmd.commands) sub.exitOverride().showHelpAfterError("(add --help for usage)");
}
