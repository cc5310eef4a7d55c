import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadPriceHistory } from "../../../datasets/price-history/index.ts";
import { scenarioPrices } from "../../../environments/bargain/scenarios.ts";
import { REPO_ROOT } from "../../helpers/cli.ts";

const DIR = path.resolve(REPO_ROOT, "../shared/datasets/amazon-history-price");
const present = existsSync(DIR);
if (!present) console.warn(`skipping the AmazonHistoryPrice checks: ${DIR} is absent`);

describe("the public AmazonHistoryPrice files (read in place, never copied)", () => {
  it.skipIf(!present)(
    "load cleanly: 930 products in 18 files, 886 MI and 44 CI sessions under the paper's rules",
    () => {
      const catalog = loadPriceHistory(DIR);
      expect(catalog.files).toHaveLength(18);
      expect(catalog.products).toHaveLength(930);
      expect(catalog.products.filter((p) => p.hasDescription)).toHaveLength(832);
      expect(catalog.products.filter((p) => p.hasFeatures)).toHaveLength(793);
      const prices = catalog.products.map((p) => scenarioPrices(p, { budgetFactor: 0.8, costFactor: 1 }));
      expect(prices.filter((p) => p.interest === "MI")).toHaveLength(886);
      expect(prices.filter((p) => p.interest === "CI")).toHaveLength(44);
      expect(prices.filter((p) => Math.abs(p.budget - p.cost) < 1)).toHaveLength(15);
      const listed = prices.map((p) => p.listedPrice).sort((a, b) => a - b);
      expect([listed[0], listed.at(-1)]).toEqual([4.99, 4299.98]);
      expect(listed[464]! <= 179.99 && listed[465]! >= 179.99).toBe(true);
      expect(catalog.products.find((p) => p.id === "electronics_1")?.category).toBe("electronics");
    },
  );
});
