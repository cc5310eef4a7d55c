// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text } from "ink";
import { agentColumnWidth, clip, wrap } from "../format.ts";
import type { ListItem } from "../replay/source.ts";
import { wrapSegments } from "./NegotiationPanel.tsx";

export interface EpisodeListProps {
  items: readonly ListItem[];
  cursor: number;
  width: number;
  /** Rows for the list; it scrolls to keep the cursor in view. */
  height: number;
  moreBefore: boolean;
  moreAfter: boolean;
  loading: boolean;
}

/** The detail column narrower than this: the cursor's detail wraps under the agent column instead. */
const MIN_DETAIL = 20;

interface Columns {
  agent: number;
  outcome: number;
}

/**
 * An episode's rows: one, with the detail cut at the line's end — unless the agent's name is wider
 * than its column ("<shopper> for <client>" labels), which then goes on in the column below; the
 * cursor's episode with its whole detail too, wrapped between its parts. Names are never cut.
 */
function itemRows(item: ListItem, selected: boolean, cols: Columns, width: number): string[] {
  const s = item.summary;
  const names = s.agent.length > cols.agent ? wrap(s.agent, cols.agent) : [s.agent];
  const lead = `${selected ? "▶" : " "} #${String(s.seq).padEnd(7)} `;
  const margin = " ".repeat(lead.length);
  const outcome = `${clip(s.outcome, cols.outcome).padEnd(cols.outcome)}  `;
  const head = (i: number) =>
    `${i === 0 ? lead : margin}${(names[i] ?? "").padEnd(cols.agent)}  ${i === 0 ? outcome : " ".repeat(outcome.length)}`;
  if (!selected)
    return names.map((_, i) => clip(i === 0 ? `${head(0)}${s.detail}` : head(i).trimEnd(), width));
  const indent = head(0).length;
  if (width - indent < MIN_DETAIL) {
    // Too narrow beside the columns: the detail wraps under the whole line.
    const under = wrapSegments(s.detail.split(" · "), Math.max(MIN_DETAIL, width - 4)).map((l) => `    ${l}`);
    return [...names.map((_, i) => head(i).trimEnd()), ...under];
  }
  const detail = wrapSegments(s.detail.split(" · "), width - indent);
  return Array.from({ length: Math.max(names.length, detail.length) }, (_, i) =>
    `${head(i)}${detail[i] ?? ""}`.trimEnd(),
  );
}

/**
 * Which items fit `rows` rows around the cursor: about as many rows before it as after, the rest
 * filled from whichever side has more (with one-row items, the window a plain list always had).
 */
function windowAround(
  heights: readonly number[],
  cursor: number,
  rows: number,
): { start: number; end: number } {
  const own = heights[cursor] ?? 1;
  const before = Math.floor((rows - (own - 1)) / 2);
  let start = cursor;
  let used = own;
  for (let acc = 0; start > 0 && acc + heights[start - 1]! <= before; start--) acc += heights[start - 1]!;
  for (let i = start; i < cursor; i++) used += heights[i]!;
  let end = cursor + 1;
  while (end < heights.length && used + heights[end]! <= rows) used += heights[end++]!;
  while (start > 0 && used + heights[start - 1]! <= rows) used += heights[--start]!;
  return { start, end };
}

/** The filtered episodes of a run, one line each (the cursor's whole), the cursor's highlighted. */
export function EpisodeList({
  items,
  cursor,
  width,
  height,
  moreBefore,
  moreAfter,
  loading,
}: EpisodeListProps) {
  const rows = Math.max(1, height - 2);
  // Column widths of the whole page, so they stay put as the list scrolls; names whole up to 40%
  // of the line (longer ones go on below).
  const cols: Columns = {
    agent: Math.max(
      8,
      agentColumnWidth(
        items.map((i) => i.summary.agent),
        width,
      ),
    ),
    outcome: Math.min(24, Math.max(8, ...items.map((i) => i.summary.outcome.length))),
  };
  const drawn = items.map((item, i) => itemRows(item, i === cursor, cols, width));
  const { start, end } = windowAround(
    drawn.map((r) => r.length),
    Math.min(cursor, Math.max(0, items.length - 1)),
    rows,
  );
  return (
    <Box flexDirection="column" width={width}>
      <Text color="gray">{start > 0 || moreBefore ? "  ↑ more" : " "}</Text>
      {items.length === 0 ? (
        <Text color="gray">{loading ? "  reading…" : "  no episode matches these filters"}</Text>
      ) : null}
      {items.slice(start, end).map((item, k) => {
        const s = item.summary;
        const selected = start + k === cursor;
        const color = s.error ? "red" : s.nonResponse ? "yellow" : undefined;
        return (
          <Box key={item.seq} flexDirection="column">
            {drawn[start + k]!.slice(0, rows).map((line, j) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the rows of one episode, in order
              <Text key={j} wrap="truncate" inverse={selected} color={color}>
                {clip(line, width)}
              </Text>
            ))}
          </Box>
        );
      })}
      <Text color="gray">
        {end < items.length || moreAfter ? (loading ? "  ↓ reading…" : "  ↓ more") : "  (end)"}
      </Text>
    </Box>
  );
}
