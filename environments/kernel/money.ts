/**
 * Money everywhere in bazaar: US dollars as numbers with cents. Agents and prompts write "$1123.50"
 * (no thousands separators, so an amount copied out of a prompt parses back the same); the
 * price-history data set's own "$1,123.50" format is in `datasets/price-history/catalog-money.ts`.
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
