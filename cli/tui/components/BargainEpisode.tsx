// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text } from "ink";
import { clip, usd } from "../format.ts";
import type { BargainEpisodeModel } from "../records/index.ts";
import { dialogueLines } from "./dialogue.ts";
import { PriceLadder } from "./PriceLadder.tsx";

export interface BargainEpisodeProps {
  model: BargainEpisodeModel;
  /** Messages shown so far; the outcome appears once all are. */
  step: number;
  width: number;
  /** Rows available; the dialogue and the chart share them. */
  height: number;
}

function Outcome({ model }: { model: BargainEpisodeModel }) {
  if (model.outcome === "deal" && model.profits) {
    const p = model.profits;
    return (
      <Box flexDirection="column">
        <Text color="green" bold>
          deal at {usd(model.dealPrice)} (ended by {model.endedBy})
        </Text>
        <Text>
          profit buyer {usd(p.buyer)} (normalized {p.normalizedBuyer.toFixed(3)}) · seller {usd(p.seller)}{" "}
          (normalized {p.normalizedSeller.toFixed(3)})
        </Text>
      </Box>
    );
  }
  if (model.outcome === "invalid") {
    return (
      <Text color="red" bold>
        invalid: {model.endedBy}
        {model.invalidSide ? ` by the ${model.invalidSide}` : ""} — excluded from valid sessions
      </Text>
    );
  }
  return <Text color="yellow">no deal ({model.endedBy})</Text>;
}

/** One bargaining session: who and what, the dialogue so far, the price ladder, the outcome. */
export function BargainEpisode({ model, step, width, height }: BargainEpisodeProps) {
  const shown = Math.max(0, Math.min(step, model.messages.length));
  // Rows: 2 of header, the dialogue, the chart with its axis and legend, 2 of outcome.
  const chartHeight = Math.max(3, Math.min(10, Math.floor((height - 6) / 2)));
  const dialogueRows = Math.max(2, height - chartHeight - 6);
  const lines = dialogueLines(model.messages, shown, width, dialogueRows);
  return (
    <Box flexDirection="column" width={width}>
      <Text bold wrap="truncate">
        {clip(`${model.product}${model.category ? ` (${model.category})` : ""}`, width)}
      </Text>
      <Text wrap="truncate">
        {clip(
          `${model.scenarioId} · ${model.interest} · listed ${usd(model.listedPrice)} · B ${usd(model.budget)} · C ${usd(model.cost)} · ${model.buyer} (buyer) vs ${model.seller} (seller)`,
          width,
        )}
      </Text>
      <Box flexDirection="column">
        {lines.length === 0 ? <Text color="gray">(no message yet)</Text> : null}
        {lines.map((l, i) => (
          <Text
            // biome-ignore lint/suspicious/noArrayIndexKey: lines are positions in a window
            key={i}
            wrap="truncate"
            color={l.part === "elided" ? "gray" : l.role === "seller" ? "magenta" : "green"}
            bold={l.part === "head"}
            dimColor={l.part === "talk"}
          >
            {l.text}
          </Text>
        ))}
      </Box>
      <Box>
        <PriceLadder
          messages={model.messages}
          shown={shown}
          budget={model.budget}
          cost={model.cost}
          width={width}
          height={chartHeight}
        />
      </Box>
      <Box>
        {model.live ? (
          <Text color="cyan">
            in progress · turn {model.messages.at(-1)?.turn ?? 0} ·{" "}
            {model.messages.at(-1)?.role === "buyer" ? "the seller" : "the buyer"} is answering
          </Text>
        ) : shown >= model.messages.length ? (
          <Outcome model={model} />
        ) : (
          <Text color="gray">
            turn {model.messages[shown - 1]?.turn ?? 0} · message {shown} of {model.messages.length}
          </Text>
        )}
      </Box>
    </Box>
  );
}
