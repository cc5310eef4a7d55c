// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text } from "ink";
import { clip } from "../format.ts";
import type { EpisodeModel } from "../records/index.ts";
import { BargainEpisode } from "./BargainEpisode.tsx";
import { ChoiceEpisode } from "./ChoiceEpisode.tsx";
import { CueEpisode } from "./CueEpisode.tsx";
import { ElicitEpisode } from "./ElicitEpisode.tsx";
import { GenericEpisode } from "./GenericEpisode.tsx";
import { ShopEpisode } from "./ShopEpisode.tsx";

export interface EpisodeViewProps {
  model: EpisodeModel;
  step: number;
  width: number;
  height: number;
  compact?: boolean;
  /** A note for the title line, e.g. "paused" or "playing". */
  status?: string;
}

/** An episode up close, with a title line; the body is the view for the record's environment. */
export function EpisodeView({ model, step, width, height, compact, status }: EpisodeViewProps) {
  const where = model.live
    ? `in flight · ${model.steps} turn${model.steps === 1 ? "" : "s"} so far`
    : `step ${Math.min(step, model.steps)}/${model.steps}`;
  const title = `── episode #${model.seq} · ${model.agent} · ${model.env} · ${where}${status ? ` · ${status}` : ""} `;
  const body = height - 1;
  return (
    <Box flexDirection="column" width={width}>
      <Text bold wrap="truncate">
        {clip(`${title}──`, width)}
      </Text>
      {model.kind === "choice" ? (
        <ChoiceEpisode model={model} step={step} width={width} height={body} compact={compact} />
      ) : model.kind === "bargain" ? (
        <BargainEpisode model={model} step={step} width={width} height={body} />
      ) : model.kind === "cue" ? (
        <CueEpisode model={model} step={step} width={width} height={body} />
      ) : model.kind === "elicit" ? (
        <ElicitEpisode model={model} width={width} height={body} />
      ) : model.kind === "shop" ? (
        <ShopEpisode model={model} step={step} width={width} height={body} />
      ) : (
        <GenericEpisode model={model} width={width} height={body} />
      )}
    </Box>
  );
}
