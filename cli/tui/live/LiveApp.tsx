// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { useInput, useStdin, useStdout } from "ink";
import { useLayoutEffect, useRef, useState } from "react";
import { Dashboard, inFlightListRows, LIVE_KEYS } from "../components/Dashboard.tsx";
import { endpointsLines } from "../endpoints.ts";
import type { DashboardView } from "../state/dashboard.ts";

/** The live area stays small (and each frame cheap); `bazaar watch` shows an episode in full. */
const MAX_EPISODE_ROWS = 20;

/** What the keys of the live view do (the run's glue redraws after each). */
export interface LiveCommands {
  togglePause(): void;
  step(delta: number): void;
  latest(): void;
  /** Focus the next (+1) or previous (−1) episode in flight. */
  focus(delta: number): void;
  pin(): void;
  /** Stop the run (q or ctrl-c): finished trials stay stored. */
  stop(): void;
}

export interface LiveAppProps {
  /** The latest snapshot: the glue renders the app again with each new one. */
  view: DashboardView;
  commands: LiveCommands;
  width?: number;
  episodeHeight?: number;
  /**
   * Text to print once above the live area (the finished-episode feed, already rendered to a
   * string); a new `id` prints the next.
   */
  above?: { id: number; text: string } | null;
}

/**
 * Rows of each part of the live area for a terminal of `rows` rows. Every part is a known number of
 * one-row lines (the episode up close is a box of exactly `episodeHeight` rows), and together they
 * stay shorter than the terminal: ink can only erase what is still on the screen, so a live area
 * taller than the terminal leaves a copy of itself above every frame.
 */
export function liveLayout(
  view: DashboardView,
  o: { rows: number; help: boolean; episodeHeight?: number; width?: number },
): { episodeHeight: number; maxAgents: number; inFlightRows: number; showStats: boolean } {
  const budget = Math.max(1, o.rows - 1);
  const maxAgents = Math.max(1, Math.floor(o.rows / 4));
  const shownAgents = Math.min(view.agents.length, maxAgents);
  const agentRows =
    view.agents.length > 3 ? shownAgents + (view.agents.length > shownAgents ? 1 : 0) : 2 * shownAgents;
  const errorRows = view.errorCount > 0 ? 1 + view.errors.length : 0;
  // The endpoints' lines wrap rather than cut a name: counted at the width they are drawn at.
  const endpointRows = endpointsLines(view.endpoints, o.width ?? 79).length;
  const helpRows = o.help ? LIVE_KEYS.length + 3 : 0;
  const keyRow = 1;
  // The stopping rule (--until): its line, and one per agent shown when there are several.
  const untilRows = view.until ? 1 + (view.agents.length > 1 ? shownAgents : 0) : 0;
  const used = 1 + untilRows + agentRows + endpointRows + errorRows + helpRows + keyRow;
  const statsRows = view.stats ? 1 + view.stats.lines.length : 0;
  // The episode up close wants at least a few rows; the statistics, then the in-flight list, give way.
  const MIN_EPISODE = 6;
  const showStats = used + statsRows + MIN_EPISODE <= budget;
  const listLines = Math.max(1, Math.min(6, Math.floor(o.rows / 8)));
  const listRows = inFlightListRows(view, listLines);
  const showList = used + (showStats ? statsRows : 0) + listRows + MIN_EPISODE <= budget;
  const left = budget - used - (showStats ? statsRows : 0) - (showList ? listRows : 0);
  const episodeHeight = o.episodeHeight ?? (left >= 3 ? Math.min(MAX_EPISODE_ROWS, left) : 0);
  return { episodeHeight, maxAgents, inFlightRows: showList ? listLines : 0, showStats };
}

/**
 * The live dashboard's container: lays out the snapshot it is given for the terminal's size, and
 * maps keys to commands. Snapshots arrive as props, so the glue renders each frame synchronously
 * and knows what a frame costs.
 */
export function LiveApp({ view, commands, width, episodeHeight, above }: LiveAppProps) {
  const [help, setHelp] = useState(false);
  const { stdout, write } = useStdout();
  // After ink has drawn this frame: ink erases it, prints the text, and draws the frame again below
  // (as its <Static> does, without rendering the live area a second time).
  const printed = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (!above || above.id === printed.current) return;
    printed.current = above.id;
    write(above.text.endsWith("\n") ? above.text : `${above.text}\n`);
  }, [above, write]);
  const { isRawModeSupported } = useStdin();
  useInput(
    (input, key) => {
      if (input === "q" || (key.ctrl && input === "c")) commands.stop();
      else if (input === "?") setHelp((h) => !h);
      else if (input === " ") commands.togglePause();
      else if (key.leftArrow) commands.step(-1);
      else if (key.rightArrow) commands.step(1);
      else if (input === "n") commands.latest();
      else if (key.upArrow) commands.focus(-1);
      else if (key.downArrow) commands.focus(1);
      else if (input === "p") commands.pin();
    },
    { isActive: isRawModeSupported === true },
  );
  const columns = width ?? stdout.columns ?? 80;
  const rows = stdout.rows ?? 24;
  const layout = liveLayout(view, { rows, help, episodeHeight, width: Math.max(1, columns - 1) });
  return (
    <Dashboard
      view={view}
      // Every line of the live area is cut to the terminal's width (ink's truncate), so none wraps:
      // each is one row, and ink erases exactly the rows it drew.
      width={Math.max(1, columns - 1)}
      episodeHeight={layout.episodeHeight}
      help={help}
      maxAgents={layout.maxAgents}
      interactive={isRawModeSupported === true}
      inFlightRows={layout.inFlightRows}
      showStats={layout.showStats}
    />
  );
}
