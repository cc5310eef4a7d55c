// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text } from "ink";
import { formatUsd } from "../../../environments/kernel/money.ts";
import { wrap } from "../format.ts";
import { negotiationStatus, type ShopMoveLine, type ShopNegotiationModel } from "../records/shop.ts";
import { PriceLadder } from "./PriceLadder.tsx";

/** What the panel reveals of a negotiation: its moves up to a step, and whether the episode is over. */
export interface NegotiationReveal {
  /** Moves at steps up to this one are shown (Infinity: all). */
  upToStep: number;
  /** The episode is over and shown in full: an open negotiation reads as a deadlock or no deal. */
  over: boolean;
  /** The episode ended out of steps with a negotiation open. */
  deadlock: boolean;
}

/** The text of a panel (everything but the chart), wrapped to its width: names are never cut. */
export interface PanelText {
  title: string[];
  meta: string[];
  moves: string[];
  /** How it stands or ended, wrapped (never cut). */
  status: { lines: string[]; color: string };
  /** Moves revealed (a prefix of the negotiation's moves and of its ladder). */
  shown: number;
}

/** Segments joined by " · ", wrapped between segments (a segment wider than the line is wrapped inside). */
export function wrapSegments(segments: readonly string[], width: number, sep = " · "): string[] {
  const out: string[] = [];
  let line = "";
  for (const seg of segments) {
    if (!line) line = seg;
    else if (line.length + sep.length + seg.length <= width) line += sep + seg;
    else {
      out.push(line);
      line = seg;
    }
    if (line.length > width) {
      const parts = wrap(line, width);
      out.push(...parts.slice(0, -1));
      line = parts.at(-1) ?? "";
    }
  }
  if (line) out.push(line);
  return out;
}

/** A round in a few characters: "#3 $150→$230", "#5 $170→reject", "#6 $200 deal", "#9 $190→…". */
function roundTokens(moves: readonly ShopMoveLine[], pending: ShopNegotiationModel["pending"]): string[] {
  const out: string[] = [];
  for (let i = 0; i < moves.length; i++) {
    const b = moves[i]!;
    if (b.side !== "buyer") continue;
    const offer = `#${b.step} ${b.price === null ? "?" : formatUsd(b.price)}`;
    if (b.answer === "deal") {
      out.push(`${offer} deal`);
      continue;
    }
    const s = moves[i + 1];
    if (s?.side !== "seller") {
      out.push(`${offer}→…`);
      continue;
    }
    out.push(
      s.move === "counter" && s.price !== null
        ? `${offer}→${formatUsd(s.price)}`
        : s.move === "accept"
          ? `${offer}→deal`
          : `${offer}→${s.move}`,
    );
  }
  if (pending) out.push(`#${pending.step} ${formatUsd(pending.price)}→…`);
  return out;
}

/** Moves revealed at `upToStep`: a prefix, since moves are in step order. */
export function revealedMoves(n: ShopNegotiationModel, upToStep: number): number {
  let k = 0;
  while (k < n.moves.length && n.moves[k]!.step <= upToStep) k++;
  return k;
}

export function panelText(
  n: ShopNegotiationModel,
  reveal: NegotiationReveal,
  width: number,
  maxMoveLines: number,
): PanelText {
  const shown = revealedMoves(n, reveal.upToStep);
  const moves = n.moves.slice(0, shown);
  const pending = reveal.upToStep === Number.POSITIVE_INFINITY ? n.pending : null;
  // What the revealed moves say, not what the record says at the end (stepping must not tell the future).
  const deal = moves.reduce<number | null>(
    (d, m) =>
      d ?? (m.side === "buyer" && m.answer === "deal" ? m.price : m.move === "accept" ? m.price : null),
    null,
  );
  const closed = moves.some((m) => m.move === "quit");
  const invalid = moves.filter((m) => m.side === "seller" && m.move === "invalid").length;
  const [said = "", ...more] =
    pending !== null
      ? [`is answering ${formatUsd(pending.price)}…`]
      : negotiationStatus(
          { deal, closed, booked: n.booked && reveal.over },
          { over: reveal.over, deadlock: reveal.deadlock },
        ).split(" · ");
  // The seller is named on the meta line (a run's spec can be long); the status is how it stands.
  const status = pending !== null ? [`${n.seller} ${said}`] : [said, ...more];
  const color =
    pending !== null
      ? "cyan"
      : deal !== null
        ? "green"
        : closed || (reveal.over && reveal.deadlock)
          ? "yellow"
          : "gray";
  const tokens = roundTokens(moves, pending);
  let moveLines = tokens.length === 0 ? ["no offer yet"] : wrapSegments(tokens, width, "  ");
  // The latest rounds when all do not fit: the ladder above holds the earlier ones.
  for (let drop = 1; moveLines.length > Math.max(1, maxMoveLines) && drop < tokens.length; drop++)
    moveLines = wrapSegments(["…", ...tokens.slice(drop)], width, "  ");
  return {
    title: wrap(`${n.id} ${n.name || "(listing)"}`.trim(), width),
    meta: wrapSegments(
      [
        n.seller,
        `list ${formatUsd(n.listPrice)}`,
        `cap ${n.cap === null ? "none" : formatUsd(n.cap)}`,
        `cost ${formatUsd(n.cost)}`,
      ],
      width,
    ),
    moves: moveLines,
    status: {
      lines: wrapSegments(
        [
          ...status,
          ...(invalid > 0 ? [`${invalid} unreadable seller answer${invalid === 1 ? "" : "s"}`] : []),
        ],
        width,
      ),
      color: invalid > 0 && deal === null ? "red" : color,
    },
    // An offer being answered is the ladder's last message, drawn with the moves.
    shown: shown + (pending === null ? 0 : 1),
  };
}

/** Rows of each part of a panel: panels side by side give each part the most any of them needs, so their charts line up. */
export interface PanelRows {
  title: number;
  meta: number;
  moves: number;
  status: number;
}

/** The rows panels side by side take: each part as tall as the tallest, and the chart with its axis. */
export function rowOfPanels(
  texts: readonly PanelText[],
  chartRows: number,
): { parts: PanelRows; rows: number } {
  const parts: PanelRows = {
    title: Math.max(...texts.map((t) => t.title.length)),
    meta: Math.max(...texts.map((t) => t.meta.length)),
    moves: Math.max(...texts.map((t) => t.moves.length)),
    status: Math.max(...texts.map((t) => t.status.lines.length)),
  };
  return {
    parts,
    rows: parts.title + parts.meta + (chartRows > 0 ? chartRows + 1 : 0) + parts.moves + parts.status,
  };
}

/** Lines padded with blank ones to `rows`. */
function padded(lines: readonly string[], rows: number): string[] {
  return [...lines, ...new Array<string>(Math.max(0, rows - lines.length)).fill(" ")];
}

/**
 * The cap as the chart's B line only where it falls among the prices of the negotiation: a shop's
 * cap is often far above a cheap listing's price, and a line there would squash every offer into
 * a row or two (the line above the chart says the cap).
 */
export function ladderBudget(n: ShopNegotiationModel): number | null {
  if (n.cap === null) return null;
  const top = Math.max(n.listPrice, ...n.ladder.map((m) => m.price ?? 0));
  const bottom = Math.min(n.cost, ...n.ladder.map((m) => m.price ?? n.cost));
  return n.cap <= top + 0.25 * (top - bottom) ? n.cap : null;
}

export interface NegotiationPanelProps {
  negotiation: ShopNegotiationModel;
  text: PanelText;
  width: number;
  /** Price rows of the chart; 0 draws no chart (too little room). */
  chartRows: number;
  /** Rows of each part (at least the panel's own), so that panels side by side line up. */
  rows: PanelRows;
}

/**
 * One listing's negotiation: the listing (id and name, whole), its list price, the buyer's cap and
 * the seller's private cost; the price ladder of the shopper's offers and the seller's counters,
 * one column a round; the rounds in figures; its seller and how it stands or ended.
 */
export function NegotiationPanel({ negotiation: n, text, width, chartRows, rows }: NegotiationPanelProps) {
  return (
    <Box flexDirection="column" width={width}>
      {padded(text.title, rows.title).map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: wrapped lines of one title
        <Text key={`t${i}`} bold color={n.booked && text.status.color === "green" ? "green" : undefined}>
          {l}
        </Text>
      ))}
      {padded(text.meta, rows.meta).map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: wrapped lines of one line
        <Text key={`m${i}`} color="gray" wrap="truncate">
          {l}
        </Text>
      ))}
      {chartRows > 0 ? (
        <PriceLadder
          messages={n.ladder}
          shown={text.shown}
          budget={ladderBudget(n)}
          cost={n.cost}
          width={width}
          height={chartRows}
          axisLabel="round"
          alsoSpan={[n.listPrice]}
          legend={false}
        />
      ) : null}
      {padded(text.moves, rows.moves).map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: wrapped lines of the rounds
        <Text key={`r${i}`} wrap="truncate">
          {l}
        </Text>
      ))}
      {padded(text.status.lines, rows.status).map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: wrapped lines of the status
        <Text key={`s${i}`} color={text.status.color} bold={text.status.color === "green"} wrap="truncate">
          {l}
        </Text>
      ))}
    </Box>
  );
}
