// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text } from "ink";
import { type CellKind, ladderLayout } from "./ladder.ts";

const COLOR: Partial<Record<CellKind, string>> = {
  buyer: "green",
  seller: "magenta",
  deal: "yellow",
  budget: "cyan",
  cost: "red",
  "both-lines": "cyan",
  axis: "gray",
};

export interface PriceLadderProps {
  messages: Parameters<typeof ladderLayout>[0]["messages"];
  shown: number;
  /** Null: no budget line (a shop request without a price cap). */
  budget: number | null;
  cost: number;
  width: number;
  height: number;
  /** What a column is ("turn" by default). */
  axisLabel?: string;
  /** More prices the axes take in. */
  alsoSpan?: readonly number[];
  /** The key under the chart; off where several ladders share one key. */
  legend?: boolean;
}

/** Buyer offers (b) and seller asks (s) over turns, with budget B and cost C as lines. */
export function PriceLadder(props: PriceLadderProps) {
  const ladder = ladderLayout(props);
  return (
    <Box flexDirection="column">
      {ladder.rows.map((segs, r) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions of a fixed grid
        <Text key={r} wrap="truncate">
          {segs.map((s, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: segments are positions in a row
            <Text key={i} color={COLOR[s.kind]} bold={s.kind === "deal"}>
              {s.text}
            </Text>
          ))}
        </Text>
      ))}
      <Text color="gray" wrap="truncate">
        {ladder.axis}
      </Text>
      {props.legend === false ? null : (
        <Text color="gray" wrap="truncate">
          <Text color="green">b</Text> buyer offer · <Text color="magenta">s</Text> seller ask ·{" "}
          <Text color="yellow">D</Text> deal ·{" "}
          {props.budget === null ? null : (
            <>
              <Text color="cyan">─ B</Text> budget ·{" "}
            </>
          )}
          <Text color="red">┄ C</Text> cost (hidden from the agents)
          {ladder.hiddenTurns > 0 ? ` · ${ladder.hiddenTurns} earlier turns off the left` : ""}
        </Text>
      )}
    </Box>
  );
}
