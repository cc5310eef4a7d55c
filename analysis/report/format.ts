/** Number formatting shared by terminal tables, markdown reports and figure labels. */

/** Fixed decimals; "–" for null, undefined or a non-finite number. */
export function fixed(x: number | null | undefined, digits = 2): string {
  return x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(digits);
}

/** Significant digits without exponent noise for moderate values (0.0123, −7.02, 1,234). */
export function sig(x: number | null | undefined, digits = 3): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return "–";
  if (x === 0) return "0";
  const a = Math.abs(x);
  if (a >= 10 ** digits) return Math.round(x).toLocaleString("en-US");
  if (a < 1e-4) return x.toExponential(digits - 1);
  const decimals = Math.max(0, digits - 1 - Math.floor(Math.log10(a)));
  return x.toFixed(decimals);
}

/**
 * US dollars with cents or whole ("$247.07", "$1,071", "−$12"). The sign is the shown amount's: a
 * negative that rounds to nothing ("−0.3" whole, an interval's end at −0) is "$0", never "−$0".
 */
export function dollars(x: number | null | undefined, cents = true): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return "–";
  const s = Math.abs(x).toLocaleString("en-US", {
    minimumFractionDigits: cents ? 2 : 0,
    maximumFractionDigits: cents ? 2 : 0,
  });
  return `${x < 0 && /[1-9]/.test(s) ? "−" : ""}$${s}`;
}

/** A fraction as a percentage ("92.6%"). */
export function percent(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || !Number.isFinite(x) ? "–" : `${(100 * x).toFixed(digits)}%`;
}

/** A p-value: "<1e-16" style below the double floor, 2 significant digits otherwise. */
export function pValue(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return "–";
  if (p < 1e-300) return "<1e-300";
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}

/** Significance stars at 0.05 / 0.01 / 0.001. */
export function stars(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return "";
  return p < 0.001 ? "***" : p < 0.01 ? "**" : p < 0.05 ? "*" : "";
}
