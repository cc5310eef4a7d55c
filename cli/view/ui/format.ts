/** Numbers as the pages show them. */
export function count(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

export function usd(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return "—";
  return `${x < 0 ? "−" : ""}$${Math.abs(x).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

export function pct(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || !Number.isFinite(x) ? "—" : `${(100 * x).toFixed(digits)}%`;
}

export function when(iso: string): string {
  return iso.replace("T", " ").slice(0, 19);
}

export function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
