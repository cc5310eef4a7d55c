// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text } from "ink";
import { clip } from "../format.ts";
import type { GenericEpisodeModel } from "../records/index.ts";

export interface GenericEpisodeProps {
  model: GenericEpisodeModel;
  width: number;
  height: number;
}

/** Any record without its own view: its fields, one per line. */
export function GenericEpisode({ model, width, height }: GenericEpisodeProps) {
  const room = Math.max(1, height - (model.note ? 2 : 1));
  const fields = model.fields.slice(0, room);
  return (
    <Box flexDirection="column" width={width}>
      {model.note ? (
        <Text color="yellow" wrap="truncate">
          {clip(`no ${model.env} view for this record: ${model.note}`, width)}
        </Text>
      ) : null}
      {fields.map((f) => (
        <Text key={f.key} wrap="truncate">
          <Text color="gray">{f.key}: </Text>
          {clip(f.value, Math.max(1, width - f.key.length - 2))}
        </Text>
      ))}
      {model.fields.length > fields.length ? (
        <Text color="gray">… {model.fields.length - fields.length} more fields</Text>
      ) : null}
    </Box>
  );
}
