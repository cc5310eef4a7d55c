import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  type AmazonHistoryPriceProduct,
  generatePriceHistoryCatalog,
  loadPriceHistory,
  PRICE_HISTORY_CATEGORIES,
} from "../../../datasets/price-history/index.ts";
import { InvalidFileError } from "../../../environments/kernel/errors.ts";
import { tempDir } from "../../helpers/cli.ts";

/** A folder laid out like the public data set: one `<category>.json` array per category. */
function writeFolder(products: AmazonHistoryPriceProduct[]): string {
  const dir = path.join(tempDir("bazaar-ahp-"), "data");
  mkdirSync(dir);
  for (const c of PRICE_HISTORY_CATEGORIES) {
    writeFileSync(
      path.join(dir, `${c}.json`),
      JSON.stringify(
        products.filter((p) => p.category === c),
        null,
        1,
      ),
    );
  }
  return dir;
}

function problemsOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidFileError);
    return (err as Error).message;
  }
  throw new Error("expected an InvalidFileError");
}

describe("loadPriceHistory", () => {
  const products = generatePriceHistoryCatalog(11, 60);

  it("reads the 18-file folder in the reference order, with codenames per category", () => {
    const dir = writeFolder(products);
    const catalog = loadPriceHistory(dir);
    expect(catalog.files).toHaveLength(18);
    expect(catalog.products).toHaveLength(60);
    expect(catalog.products[0]!.id).toBe("automotive_1");
    const books = catalog.products.filter((p) => p.category === "books");
    expect(books.map((p) => p.id)).toEqual(books.map((_, i) => `books_${i + 1}`));
    const first = products[0]!;
    expect(catalog.products[0]).toMatchObject({
      title: first.title,
      listPrice: Number(first.list_price.slice(1).replaceAll(",", "")),
    });
  });

  it("uses the features when the description is shorter than 5 characters (the reference rule)", () => {
    const dir = writeFolder(
      products.map((p, i) => (i === 0 ? { ...p, description: "n/a", features: "Long feature text" } : p)),
    );
    expect(loadPriceHistory(dir).products[0]!.description).toBe("Long feature text");
  });

  it("reports every problem with its file, index and field", () => {
    const bad = products.map((p) => ({ ...p })) as Record<string, unknown>[];
    bad[0]!.list_price = "12.50";
    delete bad[1]!.lowest_price;
    bad[2]!.lowest_price = "$99,999.00";
    const dir = writeFolder(bad as unknown as AmazonHistoryPriceProduct[]);
    const message = problemsOf(() => loadPriceHistory(dir));
    const automotive = path.join(dir, "automotive.json");
    expect(message).toContain(
      `${automotive}, row 0, list_price: expected a dollar amount like "$1,123.50" (got "12.50")`,
    );
    expect(message).toContain(`${automotive}, row 1, lowest_price: missing (a required field)`);
    expect(message).toContain(`${automotive}, row 2, lowest_price: $99,999.00 is above highest_price`);
  });

  it("names a product filed under the wrong category, a missing file, an extra file and bad JSON", () => {
    const dir = writeFolder(products);
    writeFileSync(
      path.join(dir, "books.json"),
      JSON.stringify([{ ...products[0]!, category: "automotive" }]),
    );
    writeFileSync(path.join(dir, "gadgets.json"), "[]");
    writeFileSync(path.join(dir, "music.json"), "[{");
    const message = problemsOf(() => loadPriceHistory(dir));
    expect(message).toContain(
      `${path.join(dir, "books.json")}, row 0, category: is "automotive" in books.json`,
    );
    expect(message).toContain(
      `${path.join(dir, "gadgets.json")}: not one of the 18 AmazonHistoryPrice category files`,
    );
    expect(message).toContain(`${path.join(dir, "music.json")}: not valid JSON`);

    const partial = writeFolder(products);
    rmSync(path.join(partial, "software.json"));
    expect(problemsOf(() => loadPriceHistory(partial))).toContain("software.json: missing");
  });

  it("reads one JSON file, an array or {products: […]}, numbering codenames per category", () => {
    const dir = tempDir("bazaar-ahp-file-");
    const shuffled = [...products].reverse();
    writeFileSync(path.join(dir, "a.json"), JSON.stringify(shuffled));
    writeFileSync(path.join(dir, "b.json"), JSON.stringify({ products }));
    const a = loadPriceHistory(path.join(dir, "a.json"));
    const b = loadPriceHistory(path.join(dir, "b.json"));
    expect(a.products.map((p) => p.category)).toEqual(b.products.map((p) => p.category));
    expect(b.products.map((p) => p.id)).toEqual(
      loadPriceHistory(writeFolder(products)).products.map((p) => p.id),
    );
    writeFileSync(path.join(dir, "c.json"), JSON.stringify({ items: [] }));
    expect(problemsOf(() => loadPriceHistory(path.join(dir, "c.json")))).toContain(
      "expected an array of products",
    );
    expect(() => loadPriceHistory(path.join(dir, "none.json"))).toThrow(/does not exist/);
  });
});
