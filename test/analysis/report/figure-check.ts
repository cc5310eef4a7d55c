/**
 * What "reads at a glance" means for a rendered figure, checked on the SVG text Vega (or a
 * hand-written figure) produced: no label, legend entry, header or title cut short ("…", the mark
 * Vega leaves where it shortens text to a limit), and no fractional tick on an axis that counts or
 * orders something (a position, a rank, a round, a step, k, messages): such an axis reads "1, 2, 3",
 * never "1.5". The axis is known by its title, as a reader knows it.
 */

/**
 * Axis titles of whole-number quantities (positions, ranks, rounds, steps, k, counts), by the word
 * they open with: "share of the round's bookings" is a share, not a round.
 */
export const WHOLE_AXIS = /^(position|rank|round|steps?\b|shopper's step|k$|messages|number of|count)/i;

const decode = (text: string) =>
  text
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&apos;", "'")
    .replaceAll("&amp;", "&");

/** Every piece of text the figure shows (a multi-line label's lines, one by one). */
export function svgTexts(svg: string): string[] {
  return [...svg.matchAll(/<text\b[^>]*>([\s\S]*?)<\/text>/g)].flatMap((m) => {
    const inner = m[1]!;
    const spans = [...inner.matchAll(/<tspan\b[^>]*>([\s\S]*?)<\/tspan>/g)].map((t) => t[1]!);
    return (spans.length > 0 ? spans : [inner]).map(decode);
  });
}

export interface SvgAxis {
  title: string;
  labels: string[];
}

/** The axes Vega drew (the visible ones: an axis group carries its title and tick labels). */
export function svgAxes(svg: string): SvgAxis[] {
  const starts = [...svg.matchAll(/<g class="mark-group role-axis"(?![^>]*aria-hidden="true")[^>]*>/g)].map(
    (m) => m.index!,
  );
  return starts.map((start, i) => {
    const part = svg.slice(start, starts[i + 1] ?? svg.length);
    const group = (role: string) => {
      const at = part.indexOf(`role-${role}"`);
      if (at < 0) return [];
      const end = part.indexOf("</g>", at);
      return svgTexts(part.slice(at, end));
    };
    return { title: group("axis-title").join(" "), labels: group("axis-label") };
  });
}

/** A tick label's number: "−1,200" → −1200, "$50" → 50, "60%" → 60, "6 and below" → 6. */
function tickNumber(label: string): number | null {
  const m = /^[−-]?\$?[\d,]*\.?\d+/.exec(label.trim());
  return m ? Number(m[0].replace("−", "-").replace(/[$,]/g, "")) : null;
}

/** What keeps the figure from reading at a glance; none when it reads. */
export function figureProblems(svg: string): string[] {
  const problems: string[] = [];
  for (const t of svgTexts(svg)) if (t.includes("…")) problems.push(`cut text: "${t}"`);
  for (const axis of svgAxes(svg)) {
    if (!WHOLE_AXIS.test(axis.title)) continue;
    for (const label of axis.labels) {
      const n = tickNumber(label);
      if (n === null) continue;
      if (!Number.isInteger(n) || /^[−-]?\$?[\d,]*\.\d/.test(label.trim()))
        problems.push(`fractional tick "${label}" on the whole-number axis "${axis.title}"`);
    }
  }
  return problems;
}
