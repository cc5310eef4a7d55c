import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { InvalidFileError, type Problem, UserError } from "../../environments/kernel/errors.ts";
import { parseCatalogMoney } from "./catalog-money.ts";
import {
  type AmazonHistoryPriceProduct,
  AmazonHistoryPriceProductSchema,
  PRICE_HISTORY_CATEGORIES,
  type PriceHistoryCategory,
  type PriceHistoryProduct,
} from "./schema.ts";

/** A validated catalog and where it came from. */
export interface PriceHistoryCatalog {
  /** Products in the reference order: category files alphabetically, then file order. */
  products: PriceHistoryProduct[];
  /** Products per file read (one entry for a single-file catalog). */
  files: { file: string; products: number }[];
}

const HINT =
  "A price-history catalog is the AmazonHistoryPrice folder (18 files <category>.json, each an array of " +
  'products with money as "$1,123.50"), or one JSON file holding such an array (or {"products": [...]}). ' +
  "See datasets/price-history/README.md.";

/**
 * Reads a price-history catalog: the AmazonHistoryPrice folder of 18 category files, or one JSON
 * file. Every problem is reported at once (file, index in the array, field) in one InvalidFileError.
 */
export function loadPriceHistory(location: string): PriceHistoryCatalog {
  let isDir: boolean;
  try {
    isDir = statSync(location).isDirectory();
  } catch {
    throw new UserError(`price-history catalog ${location} does not exist`, "check the path");
  }
  return isDir ? loadFolder(location) : loadFile(location);
}

function readText(file: string, problems: Problem[]): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    problems.push({ file, message: `cannot read: ${(error as Error).message}` });
    return null;
  }
}

function loadFolder(dir: string): PriceHistoryCatalog {
  const problems: Problem[] = [];
  const present = new Set(readdirSync(dir).filter((f) => f.endsWith(".json")));
  const known = new Set<string>(PRICE_HISTORY_CATEGORIES.map((c) => `${c}.json`));
  for (const extra of [...present].filter((f) => !known.has(f)).sort()) {
    problems.push({
      file: path.join(dir, extra),
      message: "not one of the 18 AmazonHistoryPrice category files; move it out of the folder",
    });
  }
  const raw: { product: AmazonHistoryPriceProduct; index: number }[][] = [];
  const files: PriceHistoryCatalog["files"] = [];
  for (const category of PRICE_HISTORY_CATEGORIES) {
    const file = path.join(dir, `${category}.json`);
    if (!present.has(`${category}.json`)) {
      problems.push({ file, message: "missing: the folder must hold all 18 category files" });
      continue;
    }
    const text = readText(file, problems);
    if (text === null) continue;
    const rows = readRows(text, file, problems, category);
    files.push({ file, products: rows.length });
    raw.push(rows);
  }
  if (problems.length > 0) throw new InvalidFileError(dir, problems, HINT);
  return { products: toProducts(raw.flat().map((r) => r.product)), files };
}

function loadFile(file: string): PriceHistoryCatalog {
  const problems: Problem[] = [];
  const text = readText(file, problems);
  const rows = text === null ? [] : readRows(text, file, problems, null);
  if (problems.length > 0) throw new InvalidFileError(file, problems, HINT);
  if (rows.length === 0) throw new InvalidFileError(file, [{ file, message: "the catalog has no products" }]);
  const products = rows.map((r) => r.product);
  // Codenames number products within their category in the reference order.
  const order = new Map(PRICE_HISTORY_CATEGORIES.map((c, i) => [c as string, i]));
  const sorted = products
    .map((p, i) => ({ p, i }))
    .sort((a, b) => order.get(a.p.category)! - order.get(b.p.category)! || a.i - b.i)
    .map((x) => x.p);
  return { products: toProducts(sorted), files: [{ file, products: rows.length }] };
}

/** Parses one file's array; problems go to `problems` with the array index and field. */
export function readRows(
  text: string,
  file: string,
  problems: Problem[],
  category: PriceHistoryCategory | null,
): { product: AmazonHistoryPriceProduct; index: number }[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (error) {
    problems.push({ file, message: `not valid JSON: ${(error as Error).message}` });
    return [];
  }
  const rows =
    data !== null && typeof data === "object" && !Array.isArray(data) && "products" in data
      ? (data as { products: unknown }).products
      : data;
  if (!Array.isArray(rows)) {
    problems.push({ file, message: 'expected an array of products (or {"products": [...]})' });
    return [];
  }
  const out: { product: AmazonHistoryPriceProduct; index: number }[] = [];
  rows.forEach((row, index) => {
    const found = validateProduct(row, file, index, category);
    if (found.length > 0) problems.push(...found);
    else out.push({ product: row as AmazonHistoryPriceProduct, index });
  });
  return out;
}

function issueProblem(issue: z.core.$ZodIssue, row: unknown, file: string, index: number): Problem {
  const field = issue.path.map(String).join(".");
  const value =
    row !== null && typeof row === "object" && issue.path.length === 1
      ? (row as Record<string, unknown>)[String(issue.path[0])]
      : row;
  const message =
    issue.code === "invalid_type" && value === undefined
      ? "missing (a required field)"
      : issue.code === "invalid_type"
        ? `${issue.message.replace(/^Invalid input: /, "")} (got ${JSON.stringify(value)})`
        : `${issue.message} (got ${JSON.stringify(value)})`;
  return { file, row: index, ...(field ? { field } : {}), message };
}

/** Every problem of one product object: shape and formats, then the price-history relations. */
export function validateProduct(
  row: unknown,
  file: string,
  index: number,
  category: PriceHistoryCategory | null,
): Problem[] {
  const parsed = AmazonHistoryPriceProductSchema.safeParse(row);
  if (!parsed.success) return parsed.error.issues.map((i) => issueProblem(i, row, file, index));
  const p = parsed.data;
  const problems: Problem[] = [];
  const at = (field: string, message: string) => problems.push({ file, row: index, field, message });
  if (category !== null && p.category !== category) at("category", `is "${p.category}" in ${category}.json`);
  const m = (s: string) => parseCatalogMoney(s)!;
  const [low, high, current, average] = [
    m(p.lowest_price),
    m(p.highest_price),
    m(p.current_price),
    m(p.average_price),
  ];
  if (!(low > 0)) at("lowest_price", `must be above $0.00 (got ${p.lowest_price})`);
  if (!(m(p.list_price) > 0)) at("list_price", `must be above $0.00 (got ${p.list_price})`);
  if (low > high) at("lowest_price", `${p.lowest_price} is above highest_price ${p.highest_price}`);
  else {
    if (current < low || current > high)
      at(
        "current_price",
        `${p.current_price} is outside lowest–highest ${p.lowest_price}–${p.highest_price}`,
      );
    if (average < low || average > high)
      at(
        "average_price",
        `${p.average_price} is outside lowest–highest ${p.lowest_price}–${p.highest_price}`,
      );
  }
  return problems;
}

/** Raw products (already valid) in reference order → products with codenames and numbers. */
function toProducts(raw: readonly AmazonHistoryPriceProduct[]): PriceHistoryProduct[] {
  const counts = new Map<string, number>();
  return raw.map((p) => {
    const n = (counts.get(p.category) ?? 0) + 1;
    counts.set(p.category, n);
    const features = p.features ?? "";
    let description = p.description ?? "";
    if (description.length < 5 && description.length < features.length) description = features;
    return {
      id: `${p.category}_${n}`,
      title: p.title,
      category: p.category,
      description,
      hasDescription: p.description !== undefined,
      hasFeatures: p.features !== undefined,
      currentPrice: parseCatalogMoney(p.current_price)!,
      listPrice: parseCatalogMoney(p.list_price)!,
      averagePrice: parseCatalogMoney(p.average_price)!,
      highestPrice: parseCatalogMoney(p.highest_price)!,
      lowestPrice: parseCatalogMoney(p.lowest_price)!,
    };
  });
}

/** Products of raw objects known to be valid (the generated catalog); throws on any problem. */
export function productsFromRaw(raw: readonly unknown[], name: string): PriceHistoryProduct[] {
  const problems = raw.flatMap((row, index) => validateProduct(row, name, index, null));
  if (problems.length > 0) throw new InvalidFileError(name, problems, HINT);
  return toProducts(raw as AmazonHistoryPriceProduct[]);
}
