/** The price-history data set's money format: amounts as strings like "$1,123.50". */
import { roundCents } from "../../environments/kernel/money.ts";

/** 1123.5 → "$1,123.50", the data set's format (always two decimals, thousands separated). */
export function formatCatalogMoney(usd: number): string {
  const cents = Math.round(roundCents(usd) * 100);
  if (cents < 0) throw new RangeError(`a catalog price cannot be negative: ${usd}`);
  const dollars = String(Math.floor(cents / 100));
  const rest = cents % 100;
  let grouped = "";
  for (let i = dollars.length; i > 0; i -= 3) {
    const part = dollars.slice(Math.max(0, i - 3), i);
    grouped = grouped === "" ? part : part + "," + grouped;
  }
  return "$" + grouped + "." + (rest < 10 ? "0" : "") + rest;
}

/** The data set's money format: "$1,123.50" (thousands grouped by commas, two decimals). */
export const CATALOG_MONEY = /^\$(?:\d{1,3}(?:,\d{3})+|\d+)\.\d{2}$/;

/** "$1,123.50" → 1123.5; null when the text is not in the data set's money format. */
export function parseCatalogMoney(text: string): number | null {
  if (!CATALOG_MONEY.test(text)) return null;
  return Number(text.slice(1).replaceAll(",", ""));
}
