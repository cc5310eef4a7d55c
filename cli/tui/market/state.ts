/**
 * The market view's state (`bazaar watch <market>` on a terminal), a pure reducer: which market and
 * which of its rounds is shown, the table or the descriptions panel, how far a view too tall for the
 * terminal is scrolled, help, quit. The screen (screen.ts) is a function of this state and the data.
 */

export type MarketViewKey =
  | "prevRound"
  | "nextRound"
  | "firstRound"
  | "lastRound"
  | "prevMarket"
  | "nextMarket"
  /** Tab and shift-tab: markets round the ring. */
  | "cycleMarket"
  | "cycleMarketBack"
  | "descriptions"
  | "scrollUp"
  | "scrollDown"
  | "help"
  /** Esc: closes help or the descriptions panel. */
  | "back"
  | "quit";

export interface MarketViewState {
  /** Index of the market shown, in the analysis' order. */
  market: number;
  /** Index of the round shown, into that market's stored rounds. */
  round: number;
  panel: "sellers" | "descriptions";
  /** Rows (table) or lines (panel) scrolled past; the screen clamps it. */
  scroll: number;
  help: boolean;
  quit: boolean;
}

/** The shape the reducer needs of the data: stored rounds per market. */
export type MarketShape = readonly number[];

export function initialMarketView(shape: MarketShape, market = 0, round = 0): MarketViewState {
  const m = clamp(market, shape.length);
  return {
    market: m,
    round: clamp(round, shape[m] ?? 0),
    panel: "sellers",
    scroll: 0,
    help: false,
    quit: false,
  };
}

function clamp(i: number, n: number): number {
  return Math.max(0, Math.min(n - 1, i));
}

/** Another market keeps the round number where it can: comparing markets at one round is the point. */
function toMarket(s: MarketViewState, shape: MarketShape, market: number): MarketViewState {
  const m = ((market % shape.length) + shape.length) % shape.length;
  if (m === s.market) return s;
  return { ...s, market: m, round: clamp(s.round, shape[m] ?? 0), scroll: 0 };
}

function toRound(s: MarketViewState, shape: MarketShape, round: number): MarketViewState {
  const r = clamp(round, shape[s.market] ?? 0);
  return r === s.round ? s : { ...s, round: r, scroll: 0 };
}

/**
 * One key. `page` is how far a scroll key moves and `maxScroll` the furthest it may go (what the
 * screen last drawn could show), both from screen.ts.
 */
export function marketViewReducer(
  s: MarketViewState,
  key: MarketViewKey,
  shape: MarketShape,
  scroll: { page: number; maxScroll: number } = { page: 1, maxScroll: 0 },
): MarketViewState {
  if (key === "quit") return { ...s, quit: true };
  if (key === "help") return { ...s, help: !s.help };
  if (s.help) return key === "back" ? { ...s, help: false } : s;
  if (shape.length === 0) return s;
  switch (key) {
    case "prevRound":
      return toRound(s, shape, s.round - 1);
    case "nextRound":
      return toRound(s, shape, s.round + 1);
    case "firstRound":
      return toRound(s, shape, 0);
    case "lastRound":
      return toRound(s, shape, (shape[s.market] ?? 1) - 1);
    case "prevMarket":
      return s.market > 0 ? toMarket(s, shape, s.market - 1) : s;
    case "nextMarket":
      return s.market < shape.length - 1 ? toMarket(s, shape, s.market + 1) : s;
    case "cycleMarket":
      return toMarket(s, shape, s.market + 1);
    case "cycleMarketBack":
      return toMarket(s, shape, s.market - 1);
    case "descriptions":
      return { ...s, panel: s.panel === "sellers" ? "descriptions" : "sellers", scroll: 0 };
    case "back":
      return s.panel === "descriptions" ? { ...s, panel: "sellers", scroll: 0 } : s;
    case "scrollUp":
      return { ...s, scroll: Math.max(0, Math.min(s.scroll, scroll.maxScroll) - scroll.page) };
    case "scrollDown":
      return { ...s, scroll: Math.min(scroll.maxScroll, s.scroll + scroll.page) };
  }
}
