// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text } from "ink";
import { clip, pct } from "../format.ts";
import type { CueEpisodeModel } from "../records/index.ts";

export interface CueEpisodeProps {
  model: CueEpisodeModel;
  step: number;
  width: number;
  height: number;
}

/** One cue-injection episode: the two cards as the agent read them (the cued one marked), the answer. */
export function CueEpisode({ model, step, width, height }: CueEpisodeProps) {
  const perRow = width >= 80 ? Math.min(2, model.cards.length) : 1;
  const cardWidth = Math.floor(width / Math.max(1, perRow));
  const shown = Math.max(0, Math.min(step, model.replies.length));
  const done = shown >= model.replies.length;
  const cardLines = Math.max(
    3,
    Math.floor((height - 4 - shown) / (perRow === 1 ? model.cards.length : 1)) - 2,
  );
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate" color="gray">
        {clip(
          `condition ${model.condition} · ${model.category}${model.premium === null ? "" : ` · premium on the cued product ${pct(model.premium)}`}`,
          width,
        )}
      </Text>
      <Box flexWrap="wrap">
        {model.cards.map((c, i) => {
          const chosen = done && model.chosenSlot === i;
          return (
            <Box
              key={c.letter}
              flexDirection="column"
              width={cardWidth}
              borderStyle={chosen ? "double" : "round"}
              borderColor={chosen ? "green" : c.cued ? "yellow" : "gray"}
            >
              {c.lines.slice(0, cardLines).map((line, j) => (
                <Text
                  // biome-ignore lint/suspicious/noArrayIndexKey: the lines of a card are positions
                  key={j}
                  wrap="truncate"
                  bold={j === 0}
                  color={j === 0 && chosen ? "green" : undefined}
                >
                  {j === 0 ? `${line}${c.cued ? "  (cued)" : ""}${chosen ? "  ◀ chosen" : ""}` : line}
                </Text>
              ))}
              {c.lines.length > cardLines ? <Text color="gray">…</Text> : null}
            </Box>
          );
        })}
      </Box>
      {model.replies.slice(0, shown).map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: answers are in order
        <Text key={i} wrap="truncate" color="cyan">
          {clip(`answer ${i + 1}: ${r || "(empty)"}`, width)}
        </Text>
      ))}
      {!done ? (
        <Text color="gray">waiting for the answer…</Text>
      ) : model.chosenSlot === null ? (
        <Text color="yellow" wrap="truncate">
          {clip(`non-response: ${model.nonResponse?.reason ?? "no answer"}`, width)}
        </Text>
      ) : (
        <Text color="green">
          chose {model.cards[model.chosenSlot]?.letter ?? "?"} (slot {model.chosenSlot + 1})
          {model.choseCued === null
            ? ""
            : model.choseCued
              ? " — the cued product"
              : " — not the cued product"}
        </Text>
      )}
    </Box>
  );
}
