// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text } from "ink";
import { clip } from "../format.ts";
import type { ChoiceCard, ChoiceEpisodeModel } from "../records/index.ts";

export interface ChoiceEpisodeProps {
  model: ChoiceEpisodeModel;
  /** Answers shown so far (several after re-asks); the booking appears with the last. */
  step: number;
  width: number;
  height: number;
  /** One line per option instead of the cards (the live dashboard's small area). */
  compact?: boolean;
}

const CARD_WIDTH = 38;
const CARD_LINES = 11;

function Card({ card, chosen, width }: { card: ChoiceCard; chosen: boolean; width: number }) {
  return (
    <Box
      flexDirection="column"
      borderStyle={chosen ? "double" : "round"}
      borderColor={chosen ? "green" : "gray"}
      width={width}
      paddingX={0}
    >
      {card.lines.map((line, i) => (
        <Text
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines of a card are positions
          key={i}
          wrap={line.startsWith("{") ? "wrap" : "truncate"}
          bold={i === 0}
          color={i === 0 && chosen ? "green" : undefined}
        >
          {i === 0 && chosen ? `${line}  ◀ booked` : line}
        </Text>
      ))}
    </Box>
  );
}

/**
 * One catalog-choice episode: the cards exactly as the agent read them (from the environment's own
 * renderer), the answers it gave, and the slot booked.
 */
export function ChoiceEpisode({ model, step, width, height, compact }: ChoiceEpisodeProps) {
  const shown = Math.max(0, Math.min(step, model.replies.length));
  const done = shown >= model.replies.length;
  const chosen = done ? model.chosenSlot : null;
  const perRow = Math.max(1, Math.min(model.cards.length, Math.floor(width / CARD_WIDTH)));
  const cardWidth = Math.floor(width / perRow);
  const gridRows = Math.ceil(model.cards.length / perRow) * (CARD_LINES + 2);
  const useCards = !compact && gridRows + 6 + shown <= height;
  const rows: ChoiceCard[][] = [];
  for (let i = 0; i < model.cards.length; i += perRow) rows.push(model.cards.slice(i, i + perRow));
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate" color="gray">
        {clip(
          `${model.taskId} · ${model.taskKind} · variant ${model.variant} · system: ${model.system}`,
          width,
        )}
      </Text>
      {useCards ? (
        <>
          <Text wrap="truncate">{clip(model.intro, width)}</Text>
          {rows.map((row) => (
            <Box key={row[0]!.letter}>
              {row.map((c) => (
                <Card key={c.letter} card={c} chosen={chosen === model.cards.indexOf(c)} width={cardWidth} />
              ))}
            </Box>
          ))}
          <Text wrap="truncate">{clip(model.instruction, width)}</Text>
        </>
      ) : (
        model.cards.map((c, i) => (
          <Text key={c.letter} wrap="truncate" color={chosen === i ? "green" : undefined} bold={chosen === i}>
            {clip(`${chosen === i ? "▶" : " "} ${c.letter}  ${c.brief}`, width)}
          </Text>
        ))
      )}
      {model.replies.slice(0, shown).map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: answers are in order
        <Text key={i} wrap="truncate" color="cyan">
          {clip(`answer ${i + 1}: ${r || "(empty)"}`, width)}
        </Text>
      ))}
      {done ? (
        model.chosenSlot === null ? (
          <Text color="yellow" wrap="truncate">
            {clip(`non-response: ${model.nonResponse?.reason ?? "no answer"}`, width)}
          </Text>
        ) : (
          <Text color="green" wrap="truncate">
            {clip(
              `booked ${model.cards[model.chosenSlot]?.letter} (slot ${model.chosenSlot + 1} of ${model.cards.length}): ${model.cards[model.chosenSlot]?.brief ?? ""}`,
              width,
            )}
          </Text>
        )
      ) : (
        <Text color="gray">waiting for the answer…</Text>
      )}
    </Box>
  );
}
