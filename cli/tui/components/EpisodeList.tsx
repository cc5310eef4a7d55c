// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text } from "ink";
import { agentColumnWidth, clip } from "../format.ts";
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

/** The detail column narrower than this wraps under the whole line instead. */
const MIN_DETAIL = 20;

/**
 * The cursor's episode in full: its line, and the rest of its detail (and its agent, where the
 * column cut it) wrapped under the detail column — the other lines keep to one row each, so the
 * list stays a list, and the one being looked at is never cut.
 */
function expanded(head: string, agent: string, agentCut: boolean, detail: string, width: number): string[] {
  const indent = width - head.length >= MIN_DETAIL ? head.length : 4;
  // Broken between the detail's parts where it can ("regret $15.60 · 5 messages · open · …").
  const parts = wrapSegments(
    [...detail.split(" · "), ...(agentCut ? [`agent ${agent}`] : [])],
    Math.max(MIN_DETAIL, width - indent),
  );
  if (indent === head.length) return parts.map((p, i) => (i === 0 ? head : " ".repeat(indent)) + p);
  return [head.trimEnd(), ...parts.map((p) => " ".repeat(indent) + p)];
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
  // Whole agent names (up to 40% of the line), the same width as the list scrolls.
  const agentWidth = Math.max(
    8,
    agentColumnWidth(
      items.map((i) => i.summary.agent),
      width,
    ),
  );
  const outcomeWidth = Math.min(24, Math.max(8, ...items.map((i) => i.summary.outcome.length)));
  const headOf = (item: ListItem, selected: boolean) => {
    const s = item.summary;
    return `${selected ? "▶" : " "} #${String(s.seq).padEnd(7)} ${clip(s.agent, agentWidth).padEnd(agentWidth)}  ${clip(s.outcome, outcomeWidth).padEnd(outcomeWidth)}  `;
  };
  const current = items[cursor];
  const open = current
    ? expanded(
        headOf(current, true),
        current.summary.agent,
        current.summary.agent.length > agentWidth,
        current.summary.detail,
        width,
      ).slice(0, rows)
    : [];
  // One row for each of the others.
  const others = Math.max(1, rows - Math.max(0, open.length - 1));
  const start = Math.max(0, Math.min(cursor - Math.floor(others / 2), items.length - others));
  const shown = items.slice(start, start + others);
  return (
    <Box flexDirection="column" width={width}>
      <Text color="gray">{start > 0 || moreBefore ? "  ↑ more" : " "}</Text>
      {items.length === 0 ? (
        <Text color="gray">{loading ? "  reading…" : "  no episode matches these filters"}</Text>
      ) : null}
      {shown.map((item, i) => {
        const s = item.summary;
        const selected = start + i === cursor;
        const color = s.error ? "red" : s.nonResponse ? "yellow" : undefined;
        if (selected)
          return (
            <Box key={item.seq} flexDirection="column">
              {open.map((line, j) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the rows of one line, in order
                <Text key={j} wrap="truncate" inverse color={color}>
                  {clip(line, width)}
                </Text>
              ))}
            </Box>
          );
        return (
          <Text key={item.seq} wrap="truncate" color={color}>
            {clip(`${headOf(item, false)}${s.detail}`, width)}
          </Text>
        );
      })}
      <Text color="gray">
        {start + others < items.length || moreAfter ? (loading ? "  ↓ reading…" : "  ↓ more") : "  (end)"}
      </Text>
    </Box>
  );
}
