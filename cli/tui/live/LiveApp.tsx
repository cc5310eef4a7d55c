// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { useInput, useStdin, useStdout } from "ink";
import { useState } from "react";
import { Dashboard, LIVE_KEYS } from "../components/Dashboard.tsx";
import type { DashboardView } from "../state/dashboard.ts";

/** The live area stays small (and each frame cheap); `bazaar watch` shows an episode in full. */
const MAX_EPISODE_ROWS = 20;

/** What the keys of the live view do (the run's glue redraws after each). */
export interface LiveCommands {
  togglePause(): void;
  step(delta: number): void;
  latest(): void;
  /** Stop the run (q or ctrl-c): finished trials stay stored. */
  stop(): void;
}

export interface LiveAppProps {
  /** The latest snapshot: the glue renders the app again with each new one. */
  view: DashboardView;
  commands: LiveCommands;
  width?: number;
  episodeHeight?: number;
}

/**
 * The live dashboard's container: lays out the snapshot it is given for the terminal's size, and
 * maps keys to commands. Snapshots arrive as props, so the glue renders each frame synchronously
 * and knows what a frame costs.
 */
export function LiveApp({ view, commands, width, episodeHeight }: LiveAppProps) {
  const [help, setHelp] = useState(false);
  const { stdout } = useStdout();
  const { isRawModeSupported } = useStdin();
  useInput(
    (input, key) => {
      if (input === "q" || (key.ctrl && input === "c")) commands.stop();
      else if (input === "?") setHelp((h) => !h);
      else if (input === " ") commands.togglePause();
      else if (key.leftArrow) commands.step(-1);
      else if (key.rightArrow) commands.step(1);
      else if (input === "n") commands.latest();
    },
    { isActive: isRawModeSupported === true },
  );
  const columns = width ?? stdout.columns ?? 80;
  const rows = stdout.rows ?? 24;
  // The live area must stay shorter than the terminal, or every frame clears the screen.
  const maxAgents = Math.max(1, Math.floor(rows / 4));
  const shownAgents = Math.min(view.agents.length, maxAgents);
  const agentRows =
    view.agents.length > 3 ? shownAgents + (view.agents.length > shownAgents ? 1 : 0) : 2 * shownAgents;
  const errorRows = view.errorCount > 0 ? 1 + view.errors.length : 0;
  const helpRows = help ? LIVE_KEYS.length + 3 : 0;
  const statsRows = view.stats ? 1 + view.stats.lines.length : 0;
  const fixed = 1 + agentRows + errorRows + helpRows + statsRows + 2;
  return (
    <Dashboard
      view={view}
      width={Math.max(40, columns - 1)}
      episodeHeight={episodeHeight ?? Math.max(6, Math.min(MAX_EPISODE_ROWS, rows - fixed))}
      help={help}
      maxAgents={maxAgents}
      interactive={isRawModeSupported === true}
    />
  );
}
