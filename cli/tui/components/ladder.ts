/**
 * The price-ladder chart of a bargaining session laid out as text: one column group per turn, one
 * row per price band, buyer offers and seller asks as marks, and the budget B and cost C — which the
 * watcher sees and the agents do not — as horizontal lines. Layout only: the prices come from the
 * episode model. The axes are fixed by the whole session, so stepping through turns never rescales.
 */
import type { BargainMessage } from "../records/index.ts";

export type CellKind = "buyer" | "seller" | "deal" | "budget" | "cost" | "both-lines" | "axis" | "blank";

export interface Segment {
  text: string;
  kind: CellKind;
}

export interface Ladder {
  rows: Segment[][];
  /** The turn numbers under the chart, aligned with the columns. */
  axis: string;
  /** Turns cut from the left when the session is wider than the chart. */
  hiddenTurns: number;
}

const MARK: Record<string, string> = { buyer: "b", seller: "s", deal: "D" };

function money(x: number): string {
  return `$${x.toFixed(2)}`;
}

export function ladderLayout(args: {
  messages: readonly BargainMessage[];
  /** Messages revealed so far (the rest are not drawn but still fix the axes). */
  shown: number;
  /** The buyer's budget B; null when it has none (a shop request without a price cap): no B line. */
  budget: number | null;
  cost: number;
  width: number;
  height: number;
  /** What a column is, under the chart ("turn" in a bargaining session). */
  axisLabel?: string;
  /** More prices the axes take in (a shop listing's list price, before its seller has answered). */
  alsoSpan?: readonly number[];
}): Ladder {
  const { messages, budget, cost } = args;
  const priced = messages.filter((m) => m.price !== null);
  const prices = [
    ...(budget === null ? [] : [budget]),
    cost,
    ...(args.alsoSpan ?? []),
    ...priced.map((m) => m.price as number),
  ];
  let lo = Math.min(...prices);
  let hi = Math.max(...prices);
  if (hi - lo < 0.01) {
    lo -= 1;
    hi += 1;
  }
  const height = Math.max(3, args.height);
  const rowOf = (p: number) => Math.round(((hi - p) / (hi - lo)) * (height - 1));
  const bRow = budget === null ? -1 : rowOf(budget);
  const cRow = rowOf(cost);

  const labels = new Map<number, string>();
  labels.set(0, money(hi));
  labels.set(height - 1, money(lo));
  labels.set(cRow, `C ${money(cost)}`);
  if (budget !== null) labels.set(bRow, bRow === cRow ? `B=C ${money(budget)}` : `B ${money(budget)}`);
  const gutter = Math.max(...[...labels.values()].map((l) => l.length)) + 1;

  const turns = Math.max(1, ...messages.map((m) => m.turn));
  const firstTurn = Math.min(...messages.map((m) => m.turn), 1);
  const span = turns - firstTurn + 1;
  const room = Math.max(1, args.width - gutter - 1);
  const colWidth = Math.max(1, Math.min(4, Math.floor(room / span)));
  const visible = Math.min(span, Math.floor(room / colWidth));
  const startTurn = turns - visible + 1;
  const cols = visible * colWidth;

  const grid: CellKind[][] = Array.from({ length: height }, (_, r) =>
    new Array<CellKind>(cols).fill(
      r === bRow && r === cRow ? "both-lines" : r === bRow ? "budget" : r === cRow ? "cost" : "blank",
    ),
  );
  for (const m of messages.slice(0, args.shown)) {
    if (m.price === null || m.turn < startTurn) continue;
    const kind: CellKind = m.action === "DEAL" ? "deal" : m.role === "seller" ? "seller" : "buyer";
    const offset = colWidth === 1 ? 0 : m.role === "seller" ? 1 : 0;
    const row = grid[rowOf(m.price)]!;
    row[(m.turn - startTurn) * colWidth + offset] = kind;
  }

  const lineChar: Partial<Record<CellKind, string>> = {
    budget: "─",
    cost: "┄",
    "both-lines": "═",
    blank: " ",
  };
  const rows = grid.map((cells, r) => {
    const segs: Segment[] = [{ text: (labels.get(r) ?? "").padStart(gutter - 1) + "│", kind: "axis" }];
    for (const kind of cells) {
      const ch = MARK[kind] ?? lineChar[kind] ?? " ";
      const last = segs[segs.length - 1]!;
      if (last.kind === kind) last.text += ch;
      else segs.push({ text: ch, kind });
    }
    // Trailing blanks show nothing (the terminal row ends there anyway) and cost every frame.
    if (segs.length > 1 && segs[segs.length - 1]!.kind === "blank") segs.pop();
    return segs;
  });

  // Turn numbers where they fit, each followed by at least one space.
  const ticks = new Array<string>(cols).fill(" ");
  let free = 0;
  for (let t = startTurn; t <= turns; t++) {
    const x = (t - startTurn) * colWidth;
    const label = String(t);
    if (x < free || x + label.length > cols) continue;
    for (let i = 0; i < label.length; i++) ticks[x + i] = label[i]!;
    free = x + label.length + 1;
  }
  const axis = `${(args.axisLabel ?? "turn").padStart(gutter - 1)} ${ticks.join("")}`;
  return { rows, axis: axis.trimEnd(), hiddenTurns: startTurn - firstTurn };
}
