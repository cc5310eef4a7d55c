// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text } from "ink";
import { clip, usd } from "../format.ts";
import type { ElicitEpisodeModel } from "../records/index.ts";

export interface ElicitEpisodeProps {
  model: ElicitEpisodeModel;
  width: number;
  height: number;
}

/** One elicitation question as the agent read it, its answer, and the number parsed from it. */
export function ElicitEpisode({ model, width, height }: ElicitEpisodeProps) {
  const room = Math.max(3, height - 4);
  const lines = model.question.length > room ? model.question.slice(-room) : model.question;
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate" color="gray">
        {clip(
          `${model.group} · query ${model.queryId} (${model.queryType}) · utterance ${model.utterance}`,
          width,
        )}
      </Text>
      {model.question.length > lines.length ? (
        <Text color="gray">… {model.question.length - lines.length} lines above</Text>
      ) : null}
      {lines.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of the question are positions
        <Text key={i} wrap="truncate">
          {l}
        </Text>
      ))}
      <Text wrap="truncate" color="cyan">
        {clip(`answer: ${model.raw || "(empty)"}`, width)}
      </Text>
      {model.value === null ? (
        <Text color="yellow" wrap="truncate">
          {clip(`no number: ${model.nonResponse?.reason ?? "none parsed"}`, width)}
        </Text>
      ) : (
        <Text color="green">parsed number: {usd(model.value)}</Text>
      )}
    </Box>
  );
}
