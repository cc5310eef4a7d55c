/**
 * Placing text labels beside scatter points so that no two labels collide and no label covers a
 * point: a deterministic greedy search over positions around each point, nearest first, with a
 * leader line when a label had to move away; a point with no free place left gets a number instead
 * and its full label goes into a key beside the figure. Works in pixels of the plot area, with text
 * widths estimated from the characters (renderers differ; the estimate errs on the wide side).
 */

export interface LabelPoint {
  /** Pixel position in the plot area (y grows downwards). */
  x: number;
  y: number;
  label: string;
  /** Placed before others (e.g. the user's own model). */
  priority?: boolean;
  /** This point's marker radius in pixels (default: the layout's). */
  radius?: number;
  /** Drawn in bold: about 8% wider. */
  bold?: boolean;
}

export interface PlacedLabel {
  /** Centre of the label's box, in pixels. */
  x: number;
  y: number;
  text: string;
  /** True when the label sits away from its point and needs a line back to it. */
  leader: boolean;
  /** Set when no free place was found: the label shows this number; the key gives the text. */
  keyNumber: number | null;
}

export interface LabelLayout {
  labels: PlacedLabel[];
  /** Numbered labels, "1. GPT-5.4 $107", in number order. */
  key: string[];
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Width of `text` in pixels at `fontSize`, by character class (DejaVu/Helvetica-like proportions). */
export function textWidth(text: string, fontSize: number): number {
  let em = 0;
  for (const ch of text) {
    if (" .,:;'|!ilIjft()[]".includes(ch)) em += 0.34;
    else if ("MWmw@%".includes(ch)) em += 0.9;
    else if (/[A-Z$]/.test(ch)) em += 0.7;
    else if (/[0-9]/.test(ch)) em += 0.64;
    else em += 0.6;
  }
  return em * fontSize;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/** Candidate offsets of a label's centre from its point: beside it first, then ever further out. */
function candidates(w: number, h: number, gap: number): { dx: number; dy: number; near: boolean }[] {
  const out: { dx: number; dy: number; near: boolean }[] = [];
  const side = gap + w / 2;
  const vertical = gap + h / 2;
  // Right, left, above, below, and the four diagonals, touching the point.
  for (const [dx, dy] of [
    [side, 0],
    [-side, 0],
    [0, -vertical],
    [0, vertical],
    [side, -vertical],
    [side, vertical],
    [-side, -vertical],
    [-side, vertical],
  ] as const)
    out.push({ dx, dy, near: true });
  // Beyond ~90 px a leader line is hard to follow: a number and the key read better.
  for (let r = 16; r <= 88; r += 12) {
    for (let k = 0; k < 16; k++) {
      const angle = (k / 16) * 2 * Math.PI;
      out.push({ dx: Math.cos(angle) * (r + w / 2), dy: Math.sin(angle) * (r + h / 2), near: false });
    }
  }
  return out;
}

/**
 * Places one label per point inside a `width` × `height` plot. Points keep `markerRadius` pixels
 * around them free of text.
 */
export function placeLabels(
  points: readonly LabelPoint[],
  opts: { width: number; height: number; fontSize: number; markerRadius?: number; pad?: number },
): LabelLayout {
  const { width, height, fontSize } = opts;
  const r = opts.markerRadius ?? 4;
  const pad = opts.pad ?? 1.5;
  const h = fontSize * 1.15;
  const radius = (p: LabelPoint) => p.radius ?? r;
  const markers: Box[] = points.map((p) => ({
    x0: p.x - radius(p),
    y0: p.y - radius(p),
    x1: p.x + radius(p),
    y1: p.y + radius(p),
  }));
  // Priority first, then the most crowded points (they have the fewest good places).
  const crowd = points.map((p) => points.filter((q) => Math.hypot(q.x - p.x, q.y - p.y) < 60).length);
  const order = points
    .map((_, i) => i)
    .sort(
      (a, b) =>
        Number(points[b]!.priority ?? false) - Number(points[a]!.priority ?? false) ||
        crowd[b]! - crowd[a]! ||
        a - b,
    );
  const placed: Box[] = [];
  const labels: PlacedLabel[] = new Array(points.length);
  const fits = (box: Box, self: number) =>
    box.x0 >= 0 &&
    box.y0 >= 0 &&
    box.x1 <= width &&
    box.y1 <= height &&
    !placed.some((b) => overlaps(b, box)) &&
    !markers.some((m, j) => j !== self && overlaps(m, box));
  const tryPlace = (i: number, text: string): PlacedLabel | null => {
    const p = points[i]!;
    const w = textWidth(text, fontSize) * (p.bold ? 1.08 : 1);
    for (const c of candidates(w, h, radius(p) + 2)) {
      const cx = p.x + c.dx;
      const cy = p.y + c.dy;
      const box = { x0: cx - w / 2 - pad, y0: cy - h / 2 - pad, x1: cx + w / 2 + pad, y1: cy + h / 2 + pad };
      if (!fits(box, i)) continue;
      placed.push(box);
      return { x: cx, y: cy, text, leader: !c.near, keyNumber: null };
    }
    return null;
  };
  const unplaced: number[] = [];
  for (const i of order) {
    const label = tryPlace(i, points[i]!.label);
    if (label) labels[i] = label;
    else unplaced.push(i);
  }
  // Numbers, in left-to-right order so the key reads like the figure.
  unplaced.sort((a, b) => points[a]!.x - points[b]!.x || a - b);
  const key: string[] = [];
  unplaced.forEach((i, k) => {
    const n = k + 1;
    const label = tryPlace(i, String(n)) ?? {
      // Nowhere free even for a number: put it on the point's right and accept the overlap.
      x: points[i]!.x + radius(points[i]!) + 2 + textWidth(String(n), fontSize) / 2,
      y: points[i]!.y,
      text: String(n),
      leader: false,
      keyNumber: n,
    };
    labels[i] = { ...label, keyNumber: n };
    key.push(`${n}. ${points[i]!.label}`);
  });
  return { labels, key };
}
