// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text } from "ink";
import { formatUsd } from "../../../environments/kernel/money.ts";
import { clip } from "../format.ts";
import type { ShopNegotiationModel } from "../records/shop.ts";
import {
  ladderBudget,
  NegotiationPanel,
  type NegotiationReveal,
  type PanelText,
  panelText,
  revealedMoves,
  rowOfPanels,
} from "./NegotiationPanel.tsx";

/** Narrowest panel worth drawing side by side: a ladder of a few rounds and a two-line name. */
const MIN_PANEL = 30;
const GAP = 2;
/** Chart rows tried, tallest first; below the last, panels go without a chart. */
const CHART_ROWS = [6, 5, 4, 3];
/** Lines of rounds in figures tried, most first. */
const MOVE_LINES = [2, 1];

export interface GridLayout {
  /** Panels per row. */
  columns: number;
  panelWidth: number;
  chartRows: number;
  /** The negotiations drawn, in episode order, with their text. */
  panels: { negotiation: ShopNegotiationModel; text: PanelText }[];
  /** Negotiations left out for room (named in the header). */
  hidden: ShopNegotiationModel[];
  /** Rows the section takes, its header included. */
  rows: number;
}

/** The negotiations the reveal has reached: a move at or before its step, or an offer being answered. */
export function revealedNegotiations(
  list: readonly ShopNegotiationModel[],
  reveal: NegotiationReveal,
): ShopNegotiationModel[] {
  return list.filter(
    (n) =>
      revealedMoves(n, reveal.upToStep) > 0 ||
      (n.pending !== null && reveal.upToStep === Number.POSITIVE_INFINITY),
  );
}

/** The last step a negotiation moved at (an offer still being answered counts). */
function lastStep(n: ShopNegotiationModel, reveal: NegotiationReveal): number {
  const k = revealedMoves(n, reveal.upToStep);
  return Math.max(
    n.moves[k - 1]?.step ?? 0,
    reveal.upToStep === Number.POSITIVE_INFINITY ? (n.pending?.step ?? 0) : 0,
  );
}

/**
 * Where the panels go in `width` × `maxRows`: side by side as many as fit `MIN_PANEL`, in rows
 * below one another when there are more (stacked, one a row, when narrow). All of them with the
 * tallest chart that fits; else as many as fit with a chart — the booked one first, then those
 * that moved last; the header names the rest — since the ladder is what the section is for; else
 * the same without a chart.
 */
export function gridLayout(
  list: readonly ShopNegotiationModel[],
  reveal: NegotiationReveal,
  width: number,
  maxRows: number,
): GridLayout {
  const columns = Math.max(1, Math.min(list.length, Math.floor((width + GAP) / (MIN_PANEL + GAP))));
  const panelWidth = Math.max(10, Math.floor((width - GAP * (columns - 1)) / columns));
  type Panel = GridLayout["panels"][number];
  const texts = new Map(
    MOVE_LINES.map((lines) => [
      lines,
      list.map((n): Panel => ({ negotiation: n, text: panelText(n, reveal, panelWidth, lines) })),
    ]),
  );
  const rowsOf = (panels: readonly Panel[], chart: number) => {
    let rows = 1;
    for (let i = 0; i < panels.length; i += columns)
      rows += rowOfPanels(
        panels.slice(i, i + columns).map((p) => p.text),
        chart,
      ).rows;
    return rows;
  };
  const tryLayout = (
    keep: (n: ShopNegotiationModel) => boolean,
    charts: readonly number[],
  ): GridLayout | null => {
    for (const chart of charts)
      for (const lines of MOVE_LINES) {
        const panels = texts.get(lines)!.filter((p) => keep(p.negotiation));
        const rows = rowsOf(panels, chart);
        if (rows <= maxRows)
          return {
            columns,
            panelWidth,
            chartRows: chart,
            panels,
            hidden: list.filter((n) => !keep(n)),
            rows,
          };
      }
    return null;
  };
  // Fewer panels: the booked one, then those that moved last; drawn in episode order.
  const priority = list
    .slice()
    .sort((a, b) => Number(b.booked) - Number(a.booked) || lastStep(b, reveal) - lastStep(a, reveal));
  const firstOf = (k: number) => {
    const keep = new Set(priority.slice(0, k));
    return (n: ShopNegotiationModel) => keep.has(n);
  };
  // All panels with a chart; fewer with a chart; all without; fewer without.
  for (const charts of [CHART_ROWS, [0]]) {
    for (let k = list.length; k >= 1; k--) {
      const layout = tryLayout(firstOf(k), charts);
      if (layout) return layout;
    }
  }
  // Not even one panel fits: the one that moved last, cut by the box it is drawn in.
  const keep = firstOf(1);
  const panels = texts.get(1)!.filter((p) => keep(p.negotiation));
  return {
    columns,
    panelWidth,
    chartRows: 0,
    panels,
    hidden: list.filter((n) => !keep(n)),
    rows: rowsOf(panels, 0),
  };
}

/**
 * The section's header: how many negotiations, which are left out, and the key to the ladders —
 * as many of its parts as fit, whole (a part is never cut).
 */
function header(layout: GridLayout, total: number, width: number): string {
  const hidden = layout.hidden.length;
  const named = `${hidden} not shown: ${layout.hidden.map((n) => `${n.id}${n.deal !== null ? ` (deal ${formatUsd(n.deal)})` : ""}`).join(", ")}`;
  const parts = [
    `offers · ${total} negotiation${total === 1 ? "" : "s"}${hidden === 0 ? "" : named.length + total.toString().length + 20 <= width ? ` · ${named}` : ` · ${hidden} not shown`}`,
    ...(layout.chartRows > 0
      ? [
          "b offer",
          "s counter",
          "D deal",
          ...(layout.panels.some((p) => ladderBudget(p.negotiation) !== null) ? ["─ B cap"] : []),
          "┄ C seller's private cost",
        ]
      : []),
  ];
  let line = parts[0]!;
  for (const p of parts.slice(1)) {
    if (line.length + 3 + p.length > width) break;
    line += ` · ${p}`;
  }
  return clip(line, width);
}

export interface NegotiationGridProps {
  negotiations: readonly ShopNegotiationModel[];
  reveal: NegotiationReveal;
  width: number;
  layout: GridLayout;
}

/** Every negotiation of a shop episode, each with its price ladder, side by side or stacked. */
export function NegotiationGrid({ negotiations, width, layout }: NegotiationGridProps) {
  const rows: GridLayout["panels"][] = [];
  for (let i = 0; i < layout.panels.length; i += layout.columns)
    rows.push(layout.panels.slice(i, i + layout.columns));
  return (
    <Box flexDirection="column" width={width}>
      <Text color="gray" wrap="truncate">
        {header(layout, negotiations.length, width)}
      </Text>
      {rows.map((row) => {
        const parts = rowOfPanels(
          row.map((p) => p.text),
          layout.chartRows,
        ).parts;
        return (
          <Box key={row.map((p) => p.negotiation.id).join(" ")} flexDirection="row" gap={GAP}>
            {row.map((p) => (
              <NegotiationPanel
                key={p.negotiation.id}
                negotiation={p.negotiation}
                text={p.text}
                width={layout.panelWidth}
                chartRows={layout.chartRows}
                rows={parts}
              />
            ))}
          </Box>
        );
      })}
    </Box>
  );
}
