// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text, useApp, useInput, useStdin, useStdout } from "ink";
import { useEffect, useMemo, useReducer, useState } from "react";
import { type Line, type MarketViewData, marketScreen } from "./screen.ts";
import { initialMarketView, type MarketViewKey, type MarketViewState, marketViewReducer } from "./state.ts";

export interface MarketAppProps {
  data: MarketViewData;
  /** The market shown first (`--market`), by index. */
  market?: number;
  width?: number;
  height?: number;
}

function keyOf(input: string, key: Parameters<Parameters<typeof useInput>[0]>[1]): MarketViewKey | null {
  if (key.leftArrow) return "prevRound";
  if (key.rightArrow) return "nextRound";
  if (key.upArrow) return "prevMarket";
  if (key.downArrow) return "nextMarket";
  if (key.tab) return key.shift ? "cycleMarketBack" : "cycleMarket";
  if (key.pageUp) return "scrollUp";
  if (key.pageDown) return "scrollDown";
  if (key.home) return "firstRound";
  if (key.end) return "lastRound";
  if (key.escape) return "back";
  if (key.ctrl && input === "c") return "quit";
  const keys: Record<string, MarketViewKey> = {
    h: "prevRound",
    l: "nextRound",
    k: "prevMarket",
    j: "nextMarket",
    g: "firstRound",
    G: "lastRound",
    d: "descriptions",
    "?": "help",
    q: "quit",
  };
  return keys[input] ?? null;
}

/** One line of segments as ink text; the screen has decided every width already. */
function ScreenLine({ line }: { line: Line }) {
  if (line.length === 0) return <Text> </Text>;
  return (
    <Text wrap="truncate">
      {line.map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a line's segments never reorder
        <Text key={i} color={s.color} bold={s.bold} inverse={s.inverse}>
          {s.text}
        </Text>
      ))}
    </Text>
  );
}

/** The screen as a pure view of its state (screen.ts lays it out). */
export function MarketScreenView({ lines, width }: { lines: readonly Line[]; width: number }) {
  return (
    <Box flexDirection="column" width={width}>
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the screen is redrawn whole, line by line
        <ScreenLine key={i} line={line} />
      ))}
    </Box>
  );
}

/**
 * `bazaar watch <market>` on a terminal: the container — it owns the state, maps keys to it and draws
 * the screen that screen.ts computes for the terminal's size.
 */
export function MarketApp({ data, market = 0, width, height }: MarketAppProps) {
  const shape = useMemo(() => data.markets.map((m) => m.rounds.length), [data]);
  const [state, dispatch] = useReducer(
    (s: MarketViewState, a: { key: MarketViewKey; page: number; maxScroll: number }) =>
      marketViewReducer(s, a.key, shape, a),
    undefined,
    () => initialMarketView(shape, market),
  );
  const { exit } = useApp();
  const { stdout } = useStdout();
  const { isRawModeSupported } = useStdin();
  // Ink lays its output out again when the terminal is resized, but the screen is laid out here.
  const [, setResized] = useState(0);
  useEffect(() => {
    const resized = () => setResized((n) => n + 1);
    stdout.on("resize", resized);
    return () => {
      stdout.off("resize", resized);
    };
  }, [stdout]);
  const columns = Math.max(40, (width ?? stdout.columns ?? 100) - 1);
  const rows = Math.max(12, (height ?? stdout.rows ?? 40) - 1);
  const screen = useMemo(() => marketScreen(data, state, columns, rows), [data, state, columns, rows]);

  useEffect(() => {
    // Without keys to read (stdin not a terminal) the first screen is all there is to show.
    if (state.quit || isRawModeSupported !== true) exit();
  }, [state.quit, isRawModeSupported, exit]);

  useInput(
    (input, key) => {
      // Letters typed faster than a frame (or sent at once, as tmux send-keys does) come as one
      // input ("ll"): each is a key.
      const plain = input.length > 1 && !key.ctrl && !key.meta && /^[ -~]+$/.test(input);
      for (const k of plain ? [...input].map((c) => keyOf(c, key)) : [keyOf(input, key)])
        if (k) dispatch({ key: k, page: screen.page, maxScroll: screen.maxScroll });
    },
    { isActive: isRawModeSupported === true },
  );

  return <MarketScreenView lines={screen.lines} width={columns} />;
}
