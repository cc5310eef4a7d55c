// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text } from "ink";
import { bar, clip, count, cost as dollars, duration, rate, tokens, tokensInOut, wrap } from "../format.ts";
import type { AgentRow } from "../state/dashboard.ts";

/**
 * One agent's progress: a bar with done/total, trials/s and ETA on the first line; non-responses,
 * errors, retries, tokens and cost on the second (so the whole fits 80 columns). `compact` puts it
 * all on one line, for runs with many agents.
 */
export function AgentProgress({
  row,
  width,
  nameWidth,
  compact,
}: {
  row: AgentRow;
  width: number;
  nameWidth: number;
  compact?: boolean;
}) {
  const share = row.total === 0 ? 1 : row.done / row.total;
  // With a stopping rule the total and the ETA are bounds: `300/≤3,600 · ETA ≤5m00s`.
  const le = row.bounded ? "≤" : "";
  const figures = ` ${count(row.done)}/${le}${count(row.total)} · ${rate(row.trialsPerSecond, "")} · ETA ${le}${duration(row.etaSeconds)}`;
  const name = clip(row.agent, nameWidth).padEnd(nameWidth);
  const u = row.usage;
  const cost = `tokens ${tokensInOut(u)} · cost ${dollars(row.costUsd)}`;
  const counts = `non-responses ${count(row.nonResponses)} · errors ${count(row.errors)} · retries ${count(row.retries)}`;
  const color = row.errors > 0 ? "red" : "gray";
  const room = Math.max(0, width - nameWidth - 1);
  // Shorter names, then fewer words, where the long ones would push the cost off the line.
  const short = `nr ${count(row.nonResponses)} · err ${count(row.errors)} · rt ${count(row.retries)}`;
  if (compact) {
    const cached = u.cachedInputTokens ? ` (${tokens(u.cachedInputTokens)} cached)` : "";
    const tail = ` · nr ${count(row.nonResponses)} · err ${count(row.errors)} · rt ${count(row.retries)} · ${tokens(u.inputTokens)}${cached}/${tokens(u.outputTokens)} tok · ${dollars(row.costUsd)}`;
    const barWidth = Math.max(4, Math.min(20, width - nameWidth - 1 - figures.length - tail.length));
    return (
      <Text wrap="truncate">
        <Text bold>{name}</Text> <Text color={share >= 1 ? "green" : "cyan"}>{bar(share, barWidth)}</Text>
        {figures}
        <Text color={color}>{tail}</Text>
      </Text>
    );
  }
  const barWidth = Math.max(5, Math.min(40, width - nameWidth - 1 - figures.length));
  // A name wider than its column ("<shopper> for <client>") goes on over the second line's
  // margin rather than being cut, where two lines of the column hold it.
  const parts = row.agent.length > nameWidth ? wrap(row.agent, nameWidth) : [];
  const [first, second] = parts.length === 2 ? [parts[0]!.padEnd(nameWidth), parts[1]!] : [name, ""];
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate">
        <Text bold>{first}</Text> <Text color={share >= 1 ? "green" : "cyan"}>{bar(share, barWidth)}</Text>
        {figures}
      </Text>
      <Text wrap="truncate">
        <Text bold>{second.padEnd(nameWidth + 1)}</Text>
        <Text color={color}>
          {clip(
            fitting(
              [
                `${counts} · ${cost}`,
                `${short} · ${cost}`,
                `${short} · ${tokensInOut(u)} · ${dollars(row.costUsd)}`,
                `${short} · ${tokens(u.inputTokens)}/${tokens(u.outputTokens)} tok · ${dollars(row.costUsd)}`,
              ],
              room,
            ),
            room,
          )}
        </Text>
      </Text>
    </Box>
  );
}

/** The first of the texts that fits `width`, else the last (cut by the caller). */
function fitting(texts: readonly string[], width: number): string {
  return texts.find((t) => t.length <= width) ?? texts.at(-1)!;
}
