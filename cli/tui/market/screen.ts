/**
 * The market view's screen as lines of coloured segments, pure: a function of the data, the state
 * and the terminal's size, so the ink component only draws it and every width is decided (and
 * tested) here. A hotel's name is never cut: when the table does not fit, the columns that can move
 * do first — the agent column goes (the legend names both agents, ★ marks adopters), then the turn
 * and then the description's arm move to a second line under each seller — and only then does the
 * name wrap, in its column while that is wide enough and then on a line of its own. (Widths count
 * characters: the pool's names and everything drawn here are one cell a character.)
 */
import type { MarketResult } from "../../../analysis/market/index.ts";
import { wrap } from "../format.ts";
import { marketAgents, roundSummary, type SellerRow, sellerRows, type TurnsByPlace } from "./rows.ts";
import type { MarketViewState } from "./state.ts";

export interface Segment {
  text: string;
  color?: "cyan" | "gray" | "yellow" | "green" | "red" | "magenta";
  bold?: boolean;
  inverse?: boolean;
}
export type Line = Segment[];

/** Everything the view shows, read once when it opens. */
export interface MarketViewData {
  /** The market run's id. */
  id: string;
  /** Rounds its design plans. */
  rounds: number;
  sellersPerMarket: number;
  markets: readonly MarketResult[];
  turns: TurnsByPlace;
  /** ` --store <where>` for the commands it suggests ("" when the default store would be found). */
  storeFlag: string;
}

export interface MarketScreen {
  lines: Line[];
  /** How far a scroll key moves, and the furthest scroll that still shows something. */
  page: number;
  maxScroll: number;
}

export const MARKET_KEYS: readonly { keys: string; does: string }[] = [
  { keys: "← → (h l)", does: "previous / next round" },
  { keys: "home end (g G)", does: "first / last round" },
  { keys: "↑ ↓ (k j)", does: "previous / next market" },
  { keys: "tab shift-tab", does: "next / previous market, round the ring" },
  { keys: "d", does: "the round's descriptions in full (again: back to the table)" },
  { keys: "pgup pgdn", does: "scroll a table or panel taller than the terminal" },
  { keys: "?", does: "this help (esc closes it)" },
  { keys: "q", does: "quit" },
];

type Column = "num" | "name" | "agent" | "price" | "arm" | "booked" | "turn";
const HEADER: Record<Column, string> = {
  num: "#",
  name: "seller",
  agent: "agent",
  price: "price",
  arm: "description",
  booked: "booked",
  turn: "its turn",
};
/** The turn's heading where it has a line of its own, with room to say when the turn was. */
const TURN_LINE_HEADER = "its turn (after the round)";
const GAP = 2;
const BAR = 10;
const TURN_ARROW = "↳ ";

interface Layout {
  line1: Column[];
  /** Lines under each seller's first, under its name. */
  more: Column[][];
}
/**
 * Tried in order; the first whose first line fits the width with every name whole is used. Failing
 * all but the last, names wrap in the next-to-last one's name column, or have the last one's line.
 */
const LAYOUTS: readonly Layout[] = [
  { line1: ["num", "name", "agent", "price", "arm", "booked", "turn"], more: [] },
  { line1: ["num", "name", "price", "arm", "booked", "turn"], more: [] },
  { line1: ["num", "name", "price", "arm", "booked"], more: [["turn"]] },
  { line1: ["num", "name", "price", "booked"], more: [["arm", "turn"]] },
  {
    line1: ["num", "name"],
    more: [
      ["price", "booked"],
      ["arm", "turn"],
    ],
  },
];

const EIGHTHS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];

/** A share as a bar of `cells` cells in eighths, so the small shares of a large market still differ. */
export function shareBar(share: number | null, cells: number): string {
  const eighths = Math.max(0, Math.min(cells * 8, Math.round((share ?? 0) * cells * 8)));
  const text = "█".repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8];
  return text.padEnd(cells);
}

function plain(text: string, color?: Segment["color"]): Line {
  return [color ? { text, color } : { text }];
}

function width(line: Line): number {
  return line.reduce((a, s) => a + s.text.length, 0);
}

/** `text` wrapped to `w`, each piece a line of one segment. */
function wrapped(text: string, w: number, style: Omit<Segment, "text"> = {}): Line[] {
  return wrap(text, Math.max(8, w)).map((piece) => [{ ...style, text: piece }]);
}

/** A gray label, then a command in cyan wrapped under itself at spaces (a command is never cut). */
function labelled(label: string, command: string, w: number): Line[] {
  return wrap(command, Math.max(8, w - label.length)).map((piece, i) => [
    { text: i === 0 ? label : " ".repeat(label.length), color: "gray" },
    { text: piece, color: "cyan" },
  ]);
}

/** Items in a row that wraps under its label, the current one in reverse video. */
function itemBar(
  label: string,
  items: readonly { text: string; current: boolean; stored: boolean }[],
  w: number,
) {
  const lines: Line[] = [];
  let line: Line = [{ text: label, color: "gray" }];
  for (const item of items) {
    const text = ` ${item.text} `;
    if (width(line) + text.length > w && line.length > 1) {
      lines.push(line);
      line = [{ text: " ".repeat(label.length) }];
    }
    line.push(
      item.current ? { text, inverse: true, bold: true } : item.stored ? { text } : { text, color: "gray" },
    );
  }
  lines.push(line);
  return lines;
}

function dollarsWhole(x: number): string {
  return `$${Math.round(x).toLocaleString("en-US")}`;
}

/** Each seller's cells, with sub-columns aligned over every round of the market (no jitter). */
class TableCells {
  readonly widths: Record<Column, number>;
  private readonly numW: number;
  private readonly priceW: number;
  private readonly changeW: number;
  private readonly bookedW: number;

  constructor(all: readonly SellerRow[][]) {
    const rows = all.flat();
    this.numW = Math.max(1, ...rows.map((r) => String(r.seller).length));
    this.priceW = Math.max(1, ...rows.map((r) => this.priceText(r).length));
    this.changeW = Math.max(0, ...rows.map((r) => this.changeText(r).length));
    this.bookedW = Math.max(1, ...rows.map((r) => String(r.bookings).length));
    const widths = {} as Record<Column, number>;
    for (const c of Object.keys(HEADER) as Column[])
      widths[c] = Math.max(HEADER[c].length, ...rows.map((r) => this.text(r, c).length));
    this.widths = widths;
  }

  private priceText(r: SellerRow): string {
    return r.price === null ? "–" : dollarsWhole(r.price);
  }

  private changeText(r: SellerRow): string {
    if (r.priceChange === null || r.priceChange === 0) return "";
    return `${r.priceChange < 0 ? "▼" : "▲"}${dollarsWhole(Math.abs(r.priceChange))}`;
  }

  private shareText(r: SellerRow): string {
    return r.share === null ? "–" : `${Math.round(100 * r.share)}%`;
  }

  text(r: SellerRow, c: Column): string {
    return this.segments(r, c)
      .map((s) => s.text)
      .join("");
  }

  segments(r: SellerRow, c: Column): Line {
    switch (c) {
      case "num":
        return [
          { text: String(r.seller).padStart(this.numW) },
          r.adopter ? { text: "★", color: "yellow" } : { text: " " },
        ];
      case "name":
        return [r.adopter ? { text: r.name, bold: true } : { text: r.name }];
      case "agent":
        return [r.adopter ? { text: r.agent, color: "yellow" } : { text: r.agent, color: "gray" }];
      case "price": {
        const change = this.changeText(r);
        const out: Line = [{ text: this.priceText(r).padStart(this.priceW) }];
        if (this.changeW > 0) out.push({ text: " " }, { text: change.padEnd(this.changeW), color: "yellow" });
        return out;
      }
      case "arm":
        return [armSegment(r.arm ?? "–")];
      case "booked":
        return [
          { text: `${String(r.bookings).padStart(this.bookedW)} ${this.shareText(r).padStart(4)} ` },
          { text: shareBar(r.share, BAR), color: "cyan" },
        ];
      case "turn":
        return [turnSegment(r)];
    }
  }
}

function armSegment(arm: string): Segment {
  if (arm.startsWith("injection")) return { text: arm, color: "red" };
  if (arm === "neutral" || arm === "–") return { text: arm, color: "gray" };
  return { text: arm, color: "magenta" };
}

function turnSegment(r: SellerRow): Segment {
  if (/refused|no valid call/.test(r.turn)) return { text: r.turn, color: "red" };
  return r.changed ? { text: r.turn, color: "yellow" } : { text: r.turn, color: "gray" };
}

function pad(line: Line, w: number): Line {
  const short = w - width(line);
  return short > 0 ? [...line, { text: " ".repeat(short) }] : line;
}

function joinCells(cells: readonly Line[]): Line {
  const out: Line = [];
  cells.forEach((c, i) => {
    if (i > 0) out.push({ text: " ".repeat(GAP) });
    out.push(...c);
  });
  // No trailing blanks: a line's width is what it shows.
  while (out.length > 0 && out[out.length - 1]!.text.trim() === "") out.pop();
  const last = out[out.length - 1];
  if (last) out[out.length - 1] = { ...last, text: last.text.trimEnd() };
  return out;
}

interface Table {
  header: Line[];
  /** Each seller's lines. */
  rows: Line[][];
}

function lineWidth(cells: TableCells, cols: readonly Column[]): number {
  return cols.reduce((a, c) => a + cells.widths[c], 0) + GAP * (cols.length - 1);
}

/** A name column narrower than this reads worse wrapped than given a line of its own. */
const MIN_NAME_COLUMN = 24;

/**
 * The first layout whose first line fits with every name whole; failing that, the narrowest one
 * with names wrapped in their column while it is wide enough, and then the name on a line of its own.
 */
function chooseLayout(cells: TableCells, w: number): { layout: Layout; nameW: number } {
  const fits = LAYOUTS.slice(0, -1).find((l) => lineWidth(cells, l.line1) <= w);
  if (fits) return { layout: fits, nameW: cells.widths.name };
  const narrow = LAYOUTS[LAYOUTS.length - 2]!;
  const nameW = w - (lineWidth(cells, narrow.line1) - cells.widths.name);
  if (nameW >= MIN_NAME_COLUMN) return { layout: narrow, nameW };
  const nameAt = cells.widths.num + GAP;
  return { layout: LAYOUTS[LAYOUTS.length - 1]!, nameW: Math.max(8, w - nameAt) };
}

/** The seller table of one round, laid out for `w` columns. */
function sellerTable(cells: TableCells, rows: readonly SellerRow[], w: number): Table {
  const { layout, nameW } = chooseLayout(cells, w);
  const alone = layout.line1.length === 2;
  const nameAt = cells.widths.num + GAP;
  const indent = " ".repeat(nameAt);
  const line1 = (seg: (c: Column) => Line): Line =>
    joinCells(
      layout.line1.map((c) =>
        c === "name" && alone ? seg(c) : pad(seg(c), c === "name" ? nameW : cells.widths[c]),
      ),
    );
  const moreLine = (cols: readonly Column[], seg: (c: Column) => Line): Line => [
    { text: indent },
    ...joinCells(cols.map((c, i) => (i === cols.length - 1 ? seg(c) : pad(seg(c), cells.widths[c])))),
  ];
  const heading = (text: string): Line => [{ text, bold: true }];
  const header: Line[] = [
    line1((c) => heading(HEADER[c])),
    ...layout.more.map((cols) => {
      const head = (turn: string) =>
        moreLine(cols, (c) =>
          c === "turn" ? [{ text: TURN_ARROW, color: "gray" }, ...heading(turn)] : heading(HEADER[c]),
        );
      const long = head(TURN_LINE_HEADER);
      return width(long) <= w ? long : head(HEADER.turn);
    }),
  ];
  const tableWidth = Math.max(
    ...header.map(width),
    lineWidth(cells, layout.line1) - (alone ? 0 : cells.widths.name - nameW),
  );
  header.push([{ text: "─".repeat(Math.min(w, tableWidth)), color: "gray" }]);
  const table = rows.map((r) => {
    const names = wrap(r.name, nameW);
    const nameSeg = cells.segments(r, "name")[0]!;
    const out: Line[] = [
      line1((c) => (c === "name" ? [{ ...nameSeg, text: names[0]! }] : cells.segments(r, c))),
    ];
    // A name longer than its column goes on under itself, never cut.
    for (const piece of names.slice(1)) out.push([{ text: indent }, { ...nameSeg, text: piece }]);
    for (const cols of layout.more) {
      const line = moreLine(cols, (c) =>
        c === "turn" ? [{ text: TURN_ARROW, color: "gray" }, turnSegment(r)] : cells.segments(r, c),
      );
      if (width(line) <= w || cols[cols.length - 1] !== "turn") {
        out.push(line);
        continue;
      }
      // A long turn (both changes and refusals) wraps under itself.
      const lead = width(line) - r.turn.length;
      const pieces = wrap(r.turn, Math.max(8, w - lead));
      out.push([...line.slice(0, -1), { ...turnSegment(r), text: pieces[0]! }]);
      for (const p of pieces.slice(1)) out.push([{ text: " ".repeat(lead) }, { ...turnSegment(r), text: p }]);
    }
    return out;
  });
  return { header, rows: table };
}
/** Rows from `scroll` on that fit `h` lines (one kept for the "more" line when not all fit). */
function windowRows(
  rows: readonly Line[][],
  h: number,
  scroll: number,
  noun: string,
): { lines: Line[]; page: number; maxScroll: number } {
  const total = rows.reduce((a, r) => a + r.length, 0);
  if (total <= h) return { lines: rows.flat(), page: 1, maxScroll: 0 };
  const room = Math.max(1, h - 1);
  // The furthest start whose rows to the end still fill the room.
  let maxScroll = rows.length - 1;
  for (let used = 0, i = rows.length - 1; i >= 0; i--) {
    used += rows[i]!.length;
    if (used > room) break;
    maxScroll = i;
  }
  const start = Math.max(0, Math.min(scroll, maxScroll));
  const lines: Line[] = [];
  let end = start;
  while (end < rows.length && lines.length + rows[end]!.length <= room) lines.push(...rows[end++]!);
  if (end === start) lines.push(...rows[end++]!.slice(0, room));
  lines.push(
    plain(
      `${noun} ${start + 1}–${end} of ${rows.length}${start > 0 ? " · pgup: before" : ""}${end < rows.length ? " · pgdn: more" : ""}`,
      "gray",
    ),
  );
  return { lines, page: Math.max(1, end - start), maxScroll };
}

/** A description's text, wrapped under its heading. */
function indented(text: string, w: number, style: Omit<Segment, "text">): Line[] {
  return wrap(text, Math.max(8, w - 6)).map((piece) => [{ text: "      " }, { ...style, text: piece }]);
}

/** The descriptions panel: what each seller's listing said to the round's buyers, and what it wrote after. */
function descriptionLines(rows: readonly SellerRow[], round: number, w: number): Line[][] {
  const blocks: Line[][] = [];
  let unchanged = 0;
  for (const r of rows) {
    if (!r.wrote && (r.arm === null || r.arm === "neutral")) {
      unchanged++;
      continue;
    }
    const block: Line[] = [
      [
        { text: `${String(r.seller).padStart(2)}` },
        r.adopter ? { text: "★", color: "yellow" } : { text: " " },
        { text: ` ${r.name}`, bold: true },
      ],
    ];
    if (r.seen !== null) {
      block.push([
        { text: "    buyers of round " },
        { text: String(round) },
        { text: " saw " },
        armSegment(r.arm ?? "–"),
      ]);
      block.push(...indented(r.seen, w, {}));
    }
    if (r.wrote) {
      block.push([{ text: "    at its turn it wrote " }, armSegment(r.wrote.arm)]);
      block.push(...indented(r.wrote.text, w, { color: "yellow" }));
    }
    blocks.push(block);
  }
  if (unchanged > 0)
    blocks.push(
      wrapped(
        `${unchanged === rows.length ? "every seller" : `${unchanged} other seller${unchanged === 1 ? "" : "s"}`}: the neutral description${unchanged === 1 ? " it" : "s they"} started with, unchanged`,
        w,
        { color: "gray" },
      ),
    );
  return blocks;
}

/** The whole screen: header, the round's sellers (or its descriptions, or help), summary and keys. */
export function marketScreen(
  data: MarketViewData,
  state: MarketViewState,
  w: number,
  h: number,
): MarketScreen {
  const m = data.markets[state.market];
  const keysLines = wrapped(
    state.help
      ? "esc or ? close help · q quit"
      : state.panel === "descriptions"
        ? "←/→ round · ↑/↓ market · d back to the table · pgup/pgdn scroll · ? help · q quit"
        : "←/→ round · ↑/↓ market · d descriptions · ? help · q quit",
    w,
    { color: "gray" },
  );
  if (!m) {
    const lines = [
      ...wrapped(`bazaar watch ${data.id} · nothing of this market run is stored yet`, w, { bold: true }),
      ...wrapped("run it first: bazaar run market … (the same options make the same market run)", w),
      ...keysLines,
    ];
    return { lines, page: 1, maxScroll: 0 };
  }
  const r = m.rounds[state.round];
  const roundsStored = m.rounds.length;
  const planned = Math.max(data.rounds, roundsStored);
  const title = wrapped(
    `bazaar watch ${data.id} · market ${m.key}${data.markets.length > 1 ? ` (${state.market + 1} of ${data.markets.length})` : ""} · ${r ? `round ${r.round} of ${planned}` : `no round stored of ${planned}`}${roundsStored < planned ? ` (${roundsStored} stored)` : ""}`,
    w,
    { bold: true },
  );
  const agents = marketAgents(m);
  const sellers = m.sellers.length || data.sellersPerMarket;
  const legend = wrapped(
    m.k === 0 || !agents.adopters
      ? `${sellers} sellers, no adopters: every seller plays ${agents.rest ?? "?"}`
      : `${sellers} sellers · ★ adopter${m.k === 1 ? "" : "s"} (${m.k} of ${sellers}): ${agents.adopters} · the rest: ${agents.rest ?? "?"}`,
    w,
    { color: "gray" },
  );
  const marketsBar =
    data.markets.length > 1
      ? itemBar(
          "markets ",
          data.markets.map((x, i) => ({
            text: x.key,
            current: i === state.market,
            stored: x.rounds.length > 0,
          })),
          w,
        )
      : [];
  const roundsBar = itemBar(
    "rounds  ",
    Array.from({ length: planned }, (_, i) => ({
      text: String(i + 1),
      current: r?.round === i + 1,
      stored: m.rounds.some((x) => x.round === i + 1),
    })),
    w,
  );
  const summary = r ? wrapped(`round ${r.round}: ${roundSummary(r)}`, w) : [];
  const stepIn: Line[] = [];
  if (r) {
    const tag = String(r.round).padStart(2, "0");
    // Whole commands, to copy: wrapped at spaces, never cut.
    const buyersLabel = `round ${r.round}'s buyers: `;
    const turnsLabel = "its seller turns: ".padEnd(buyersLabel.length);
    stepIn.push(
      ...labelled(buyersLabel, `bazaar watch ${data.id}-r${tag}-buyers${data.storeFlag}`, w),
      ...labelled(turnsLabel, `bazaar watch ${data.id}-r${tag}-sellers${data.storeFlag}`, w),
    );
  }
  // Where the sellers do not all fit, the lines that repeat what the title and help say, or only
  // space things out, make room for them.
  const parts = {
    title,
    legend,
    marketsBar,
    roundsBar,
    gapTop: [[]] as Line[],
    body: [] as Line[],
    gapBottom: r ? ([[]] as Line[]) : [],
    summary,
    stepIn,
    keys: keysLines,
  };
  const fixed = () =>
    Object.entries(parts).reduce((a, [k, lines]) => a + (k === "body" ? 0 : lines.length), 0);
  const natural = marketBody(data, state, m, w, Number.POSITIVE_INFINITY).lines.length;
  for (const drop of ["gapBottom", "gapTop", "roundsBar", "marketsBar", "legend"] as const)
    if (h - fixed() < natural) parts[drop] = [];
  // The way into the round's episodes goes only when the sellers would be left a line or two.
  if (h - fixed() < Math.min(natural, 7)) parts.stepIn = [];
  const body = marketBody(data, state, m, w, Math.max(2, h - fixed()));
  parts.body = body.lines;
  return { lines: Object.values(parts).flat(), page: body.page, maxScroll: body.maxScroll };
}

/** The screen's middle: the round's seller table, its descriptions or help, in `room` lines. */
function marketBody(
  data: MarketViewData,
  state: MarketViewState,
  m: MarketResult,
  w: number,
  room: number,
): { lines: Line[]; page: number; maxScroll: number } {
  const r = m.rounds[state.round];
  if (state.help) {
    const kw = Math.max(...MARKET_KEYS.map((k) => k.keys.length));
    const lines: Line[] = [
      [{ text: "keys (market)", bold: true }],
      ...MARKET_KEYS.map((k): Line => [{ text: k.keys.padEnd(kw), color: "cyan" }, { text: `  ${k.does}` }]),
      [],
      ...wrapped(
        "★ marks an adopter. price: what the round's buyers saw, ▲/▼ its change from the round before. booked: the round's bookings and share of them (the bar is the share, a full bar 100%). its turn: what the seller did after the round (the next round's buyers saw its listing so).",
        w,
        { color: "gray" },
      ),
    ];
    return { lines, page: 1, maxScroll: 0 };
  }
  if (!r)
    return {
      lines: wrapped(`no buyer episodes of market ${m.key} are stored yet`, w, { color: "gray" }),
      page: 1,
      maxScroll: 0,
    };
  const rows = sellerRows(m, state.round, data.turns);
  if (rows.length === 0)
    return {
      lines: wrapped(
        `the sellers of market ${m.key} show once their first turn is stored (round ${r.round}'s seller turns are not stored yet)`,
        w,
        { color: "gray" },
      ),
      page: 1,
      maxScroll: 0,
    };
  if (state.panel === "descriptions") {
    const head: Line[] = [[{ text: `descriptions in round ${r.round} of market ${m.key}`, bold: true }]];
    const blocks = descriptionLines(rows, r.round, w);
    const lines = blocks.flatMap((b, i) => (i > 0 ? [[], ...b] : b)).map((l) => [l]);
    const win = windowRows(lines, room - head.length, state.scroll, "lines");
    return { lines: [...head, ...win.lines], page: win.page, maxScroll: win.maxScroll };
  }
  const cells = new TableCells(m.rounds.map((_, i) => sellerRows(m, i, data.turns)));
  const table = sellerTable(cells, rows, w);
  const win = windowRows(table.rows, room - table.header.length, state.scroll, "sellers");
  return { lines: [...table.header, ...win.lines], page: win.page, maxScroll: win.maxScroll };
}
