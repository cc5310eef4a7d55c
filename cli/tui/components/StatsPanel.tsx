// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text } from "ink";
import { clip } from "../format.ts";
import type { StatsView } from "../records/index.ts";

/** The running statistics of one agent, one labelled figure per line. */
export function StatsPanel({ stats, agent, width }: { stats: StatsView; agent: string; width: number }) {
  const labelWidth = Math.min(20, Math.max(...stats.lines.map((l) => l.label.length), 0));
  return (
    <Box flexDirection="column" width={width}>
      <Text bold wrap="truncate">
        {clip(`── ${stats.title} (${agent}) ──`, width)}
      </Text>
      {stats.lines.map((l) => (
        <Text key={l.label} wrap="truncate">
          <Text color="gray">{clip(l.label, labelWidth).padEnd(labelWidth)} </Text>
          {clip(l.value, Math.max(1, width - labelWidth - 1))}
        </Text>
      ))}
    </Box>
  );
}
