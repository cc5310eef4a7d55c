/**
 * Display formatting shared by the terminal views and the plain (non-TTY) output. Pure. Numbers are
 * formatted by hand, not with Intl: the live view formats on every frame and Intl costs microseconds
 * a call.
 */
import { thousands } from "../../environments/choice/prompt.ts";

export function count(n: number): string {
  return Number.isFinite(n) ? thousands(Math.round(n)) : "—";
}

/** US dollars with cents: "$1,234.50", "-$3.05"; null as a dash. */
export function usd(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return "—";
  const cents = Math.round(Math.abs(x) * 100);
  const rest = cents % 100;
  return `${x < 0 && cents > 0 ? "-" : ""}$${thousands(Math.floor(cents / 100))}.${rest < 10 ? "0" : ""}${rest}`;
}

/**
 * A cost in US dollars: cents from a dollar up ("$12.34"), four decimals below, where a test run's
 * cost lives ("$0.0042"); null (no price) as a dash.
 */
export function cost(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return "—";
  return Math.abs(x) >= 1 ? usd(x) : `${x < 0 ? "-" : ""}$${Math.abs(x).toFixed(4)}`;
}

/** A share in [0, 1] as "52.3%"; NaN (nothing to divide) as a dash. */
export function pct(share: number): string {
  return Number.isFinite(share) ? `${(100 * share).toFixed(1)}%` : "—";
}

/** 3 → "3s", 125 → "2m05s", 3725 → "1h02m". */
export function duration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "—";
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/**
 * A rate that reads at any speed: "1,234 trials/s"; below one a second "12 trials/min"; below one a
 * minute "75 s/trial"; before the first one "—".
 */
export function rate(perSecond: number, unit = "trials"): string {
  const per = unit ? ` ${unit}/` : "/";
  if (!Number.isFinite(perSecond) || perSecond <= 0) return `—${per}s`;
  if (perSecond >= 1) return `${count(perSecond)}${per}s`;
  if (perSecond * 60 >= 1) return `${count(perSecond * 60)}${per}min`;
  return `${count(1 / perSecond)} s ${unit ? `per ${unit.replace(/s$/, "")}` : "each"}`;
}

/** Compact token counts: 950, 12.3k, 4.1M. */
export function tokens(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1e6) return `${(n / 1e3).toFixed(1)}k`;
  return `${(n / 1e6).toFixed(1)}M`;
}

/**
 * Prompt and completion tokens, the provider's prompt-cache hits among the prompt tokens where there
 * were any: "30.0k in (2.0k cached) / 60 out".
 */
export function tokensInOut(u: {
  inputTokens: number;
  cachedInputTokens?: number;
  outputTokens: number;
}): string {
  const cached = u.cachedInputTokens ? ` (${tokens(u.cachedInputTokens)} cached)` : "";
  return `${tokens(u.inputTokens)} in${cached} / ${tokens(u.outputTokens)} out`;
}

/** Cuts text to at most `width` characters, marking the cut with "…". */
export function clip(text: string, width: number): string {
  if (width <= 0) return "";
  const oneLine = text.replace(/\s*\n\s*/g, " ");
  return oneLine.length <= width ? oneLine : `${oneLine.slice(0, Math.max(0, width - 1))}…`;
}

/** A bar of `width` cells, `share` of them full. */
export function bar(share: number, width: number): string {
  const full = Math.max(0, Math.min(width, Math.round((Number.isFinite(share) ? share : 0) * width)));
  return "█".repeat(full) + "░".repeat(width - full);
}

/** Wraps text into lines of at most `width` characters, breaking at spaces where it can. */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const para of text.split("\n")) {
    let line = "";
    for (const word of para.split(/\s+/).filter(Boolean)) {
      let w = word;
      while (w.length > width) {
        if (line) {
          out.push(line);
          line = "";
        }
        out.push(w.slice(0, width));
        w = w.slice(width);
      }
      if (!line) line = w;
      else if (line.length + 1 + w.length <= width) line += ` ${w}`;
      else {
        out.push(line);
        line = w;
      }
    }
    out.push(line);
  }
  return out;
}

/**
 * The width of an agent-name column: the longest label whole (a cut name is a bug), up to 40% of
 * the line, so the figures beside it still fit.
 */
export function agentColumnWidth(labels: readonly string[], width: number): number {
  const longest = Math.max(5, ...labels.map((l) => [...l].length));
  return Math.min(longest, Math.max(16, Math.floor(width * 0.4)));
}
