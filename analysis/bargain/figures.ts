import type { BargainAnalysis } from "./analyze.ts";
import type { GroupSummary } from "./summary.ts";

/** One figure of the report: a file name and its SVG text. */
export interface Figure {
  file: string;
  title: string;
  svg: string;
}

const COLOURS = ["#1b6ca8", "#e07b39", "#3a9e5f", "#b34d6c", "#7a5fb0", "#8c8c3c"];

function escapeXml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/**
 * Grouped bars: one group per seller, one bar per buyer, a zero line, and the value on each bar.
 * Plain SVG written by hand (no fonts to embed, no renderer), so any browser or markdown viewer shows it.
 */
export function groupedBars(
  title: string,
  groups: readonly string[],
  series: readonly string[],
  value: (series: string, group: string) => number | null,
  label: (x: number) => string,
): string {
  const values = groups.flatMap((g) => series.map((s) => value(s, g) ?? 0));
  const hi = Math.max(0, ...values);
  const lo = Math.min(0, ...values);
  const span = hi - lo || 1;
  const bar = 22;
  const gap = 18;
  const left = 20;
  const top = 48;
  const height = 220;
  // Wide enough for the group's label at about 6.5 px a character.
  const labelWidth = Math.max(...groups.map((g) => g.length)) * 6.5 + 8;
  const groupWidth = Math.max(series.length * bar + gap, labelWidth);
  // Wide enough for the title and for the legend's longest name too: every name is shown whole.
  const legendWidth = 16 + Math.max(0, ...series.map((s) => s.length)) * 6.5;
  const width = Math.max(
    left * 2 + groups.length * groupWidth,
    title.length * 8 + 2 * left,
    left * 2 + legendWidth,
  );
  const y = (v: number) => Math.round((top + ((hi - v) / span) * height) * 10) / 10;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${top + height + 70 + 18 * series.length}" font-family="sans-serif" font-size="11">`,
    `<text x="${left}" y="20" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
    `<line x1="${left}" x2="${width - left}" y1="${y(0)}" y2="${y(0)}" stroke="#444"/>`,
  ];
  groups.forEach((g, gi) => {
    const x0 = left + gi * groupWidth + (groupWidth - series.length * bar) / 2;
    series.forEach((s, si) => {
      const v = value(s, g);
      if (v === null) return;
      const x = x0 + si * bar;
      const [y1, y2] = [y(Math.max(0, v)), y(Math.min(0, v))];
      parts.push(
        `<rect x="${x}" y="${y1}" width="${bar - 3}" height="${Math.max(0.5, Math.round((y2 - y1) * 10) / 10)}" fill="${COLOURS[si % COLOURS.length]}"><title>${escapeXml(`${s} vs ${g}: ${label(v)}`)}</title></rect>`,
        `<text x="${x + (bar - 3) / 2}" y="${v >= 0 ? y1 - 3 : y2 + 11}" text-anchor="middle" font-size="9">${escapeXml(label(v))}</text>`,
      );
    });
    parts.push(
      `<text x="${x0 + (series.length * bar) / 2}" y="${top + height + 18}" text-anchor="middle">${escapeXml(g)}</text>`,
    );
  });
  series.forEach((s, si) => {
    const ly = top + height + 40 + 18 * si;
    parts.push(
      `<rect x="${left}" y="${ly - 9}" width="10" height="10" fill="${COLOURS[si % COLOURS.length]}"/>`,
      `<text x="${left + 16}" y="${ly}">${escapeXml(s)}</text>`,
    );
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}

/** The report's figures: deal rate (valid sessions) and buyer SNP per buyer × seller. */
export function bargainFigures(a: BargainAnalysis): Figure[] {
  const cell = (buyer: string, seller: string): GroupSummary | null =>
    a.pairings.find((p) => p.buyer === buyer && p.seller === seller)?.summary.ALL ?? null;
  const dealRate = "Deal rate over valid sessions, by seller";
  const snp = "Buyer SNP (sum of normalized profits), by seller";
  return [
    {
      file: "bargain-deal-rates.svg",
      title: dealRate,
      svg: groupedBars(
        dealRate,
        a.sellers,
        a.buyers,
        (b, s) => cell(b, s)?.dealRateValid ?? null,
        (x) => `${Math.round(100 * x)}%`,
      ),
    },
    {
      file: "bargain-buyer-snp.svg",
      title: snp,
      svg: groupedBars(
        snp,
        a.sellers,
        a.buyers,
        (b, s) => cell(b, s)?.buyer.snp ?? null,
        (x) => x.toFixed(1),
      ),
    },
  ];
}
