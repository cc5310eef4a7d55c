// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text } from "ink";
import { clip } from "../format.ts";
import type { ListItem } from "../replay/source.ts";

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

/** The filtered episodes of a run, one line each, the cursor's line highlighted. */
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
  const start = Math.max(0, Math.min(cursor - Math.floor(rows / 2), items.length - rows));
  const shown = items.slice(start, start + rows);
  const agentWidth = Math.min(28, Math.max(8, ...shown.map((i) => i.summary.agent.length)));
  const outcomeWidth = Math.min(24, Math.max(8, ...shown.map((i) => i.summary.outcome.length)));
  return (
    <Box flexDirection="column" width={width}>
      <Text color="gray">{start > 0 || moreBefore ? "  ↑ more" : " "}</Text>
      {items.length === 0 ? (
        <Text color="gray">{loading ? "  reading…" : "  no episode matches these filters"}</Text>
      ) : null}
      {shown.map((item, i) => {
        const s = item.summary;
        const selected = start + i === cursor;
        const line = `${selected ? "▶" : " "} #${String(s.seq).padEnd(7)} ${clip(s.agent, agentWidth).padEnd(agentWidth)}  ${clip(s.outcome, outcomeWidth).padEnd(outcomeWidth)}  ${s.detail}`;
        return (
          <Text
            key={item.seq}
            wrap="truncate"
            inverse={selected}
            color={s.error ? "red" : s.nonResponse ? "yellow" : undefined}
          >
            {clip(line, width)}
          </Text>
        );
      })}
      <Text color="gray">
        {start + rows < items.length || moreAfter ? (loading ? "  ↓ reading…" : "  ↓ more") : "  (end)"}
      </Text>
    </Box>
  );
}
