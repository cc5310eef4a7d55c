/**
 * Money in the price-history data and in bargaining: US dollars as numbers with cents. The data set
 * writes amounts as strings like "$1,123.50"; agents and prompts use "$1123.50" (no thousands
 * separators, so an amount copied out of a prompt parses back the same).
 *
 * Rounding to cents adds a tiny nudge before rounding: 1.005 is 1.00499999… in binary, and a price
 * of $0.29 is 28.999999… cents, which a bare Math.round/floor would get wrong.
 */

const NUDGE = 1e-7;

/** The nearest cent (half away from zero). */
export function roundCents(usd: number): number {
  return Math.round(usd * 100 + (usd >= 0 ? NUDGE : -NUDGE)) / 100;
}

/** The largest whole-cent amount not above `usd` (a buyer's budget as it can be paid). */
export function floorCents(usd: number): number {
  return Math.floor(usd * 100 + NUDGE) / 100;
}

/** The smallest whole-cent amount not below `usd` (a seller's cost as it can be charged). */
export function ceilCents(usd: number): number {
  return Math.ceil(usd * 100 - NUDGE) / 100;
}

/** Two amounts are the same price when they differ by at most a cent (the reference's tolerance). */
export function samePrice(a: number, b: number): boolean {
  return Math.abs(a - b) <= 0.01 + 1e-9;
}

/** "$12", "$12.50", "$1123.50": whole dollars without decimals, otherwise exactly two. */
export function formatUsd(usd: number): string {
  const cents = roundCents(usd);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return sign + "$" + (Number.isInteger(abs) ? String(abs) : abs.toFixed(2));
}

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
