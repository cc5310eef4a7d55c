import { describe, expect, it } from "vitest";
import { formatCatalogMoney, parseCatalogMoney } from "../../../datasets/price-history/index.ts";

describe("the data set's money strings", () => {
  it("formats amounts as the data set writes them, and reads them back", () => {
    expect(formatCatalogMoney(1123.5)).toBe("$1,123.50");
    expect(formatCatalogMoney(4299.98)).toBe("$4,299.98");
    expect(formatCatalogMoney(1234567)).toBe("$1,234,567.00");
    expect(formatCatalogMoney(0.07)).toBe("$0.07");
    for (const x of [0.07, 4.99, 999.99, 1000, 4299.98, 1234567.89])
      expect(parseCatalogMoney(formatCatalogMoney(x))).toBe(x);
    for (const bad of ["1,123.50", "$1123.5", "$1,12.50", "$-5.00", "$1,123", " $5.00"])
      expect(parseCatalogMoney(bad)).toBeNull();
  });
});
