// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text } from "ink";
import { endpointsLines } from "../endpoints.ts";
import { agentColumnWidth, clip, count, duration, rate } from "../format.ts";
import type { DashboardView } from "../state/dashboard.ts";
import { untilAgentLines, untilHeadText } from "../until.ts";
import { AgentProgress } from "./AgentProgress.tsx";
import { EpisodeView } from "./EpisodeView.tsx";
import { Help, type KeyHelp } from "./Help.tsx";
import { StatsPanel } from "./StatsPanel.tsx";

export const LIVE_KEYS: readonly KeyHelp[] = [
  { keys: "↑ ↓", does: "focus another episode in flight (slow agents: shown turn by turn)" },
  { keys: "p", does: "pin the focused episode (it stays until it ends)" },
  { keys: "space", does: "pause / resume the episode up close" },
  { keys: "← →", does: "step its turns back / forward (pauses)" },
  { keys: "n", does: "show the latest finished episode" },
  { keys: "?", does: "this help" },
  { keys: "q, ctrl-c", does: "stop the run (finished trials are kept; run again to resume)" },
];

/** Rows the list of episodes in flight takes below the focused one. */
export function inFlightListRows(view: DashboardView, rows: number): number {
  if (!view.focus) return 0;
  const listed = Math.min(view.inFlight.length, rows);
  return 1 + listed + (view.inFlightCount > listed ? 1 : 0);
}

function InFlightList({ view, width, rows }: { view: DashboardView; width: number; rows: number }) {
  const listed = view.inFlight.slice(0, rows);
  return (
    <Box flexDirection="column" width={width}>
      <Text color="gray" wrap="truncate">
        {clip(`in flight: ${count(view.inFlightCount)} episode${view.inFlightCount === 1 ? "" : "s"}`, width)}
      </Text>
      {listed.map((e) => (
        <Text key={e.seq} wrap="truncate" color={e.focused ? "cyan" : undefined} bold={e.focused}>
          {clip(`${e.focused ? "▸" : " "} ${e.line}`, width)}
        </Text>
      ))}
      {view.inFlightCount > listed.length ? (
        <Text color="gray" wrap="truncate">
          {clip(`  … ${count(view.inFlightCount - listed.length)} more in flight`, width)}
        </Text>
      ) : null}
    </Box>
  );
}

export interface DashboardProps {
  view: DashboardView;
  /** Lines for the list of episodes in flight (shown with a focused one); 0 hides it. */
  inFlightRows?: number;
  /** Whether the running statistics fit below the episode. */
  showStats?: boolean;
  width: number;
  /** Rows for the episode up close (the live area stays small; the feed scrolls above it). */
  episodeHeight: number;
  help?: boolean;
  /** Agents listed at most (the rest are summed in one line); more than 3 get one line each. */
  maxAgents?: number;
  /** Whether keys work (a terminal on stdin); otherwise the key line is not shown. */
  interactive?: boolean;
}

/**
 * The live run's area: run totals, a progress row per agent, errors, one episode up close, its
 * agent's running statistics (the finished-episode feed scrolls above it, printed by the glue: components/feed.ts). Once the
 * run has ended, the totals stay (the episode goes: the feed above shows the last ones, and the
 * command's summary follows).
 */
export function Dashboard({
  view,
  width,
  episodeHeight,
  help,
  maxAgents = 12,
  interactive = true,
  inFlightRows = 4,
  showStats = true,
}: DashboardProps) {
  const nameWidth = agentColumnWidth(
    view.agents.map((a) => a.agent),
    width,
  );
  const compact = view.agents.length > 3;
  const listed = view.agents.slice(0, maxAgents);
  const rest = view.agents.slice(listed.length);
  const f = view.featured;
  // With a stopping rule (--until) the total and the ETA are bounds: `123/≤3,600 stored · ETA ≤5m00s`.
  const le = view.bounded ? "≤" : "";
  const figures = `${count(view.stored)}/${le}${count(view.target)} stored · ${rate(view.trialsPerSecond)} · ETA ${le}${duration(view.etaSeconds)} · ${duration(view.elapsedMs / 1000)} elapsed${view.failed > 0 ? ` · ${count(view.failed)} failed` : ""}`;
  // The run's name gives way before the figures do.
  const header = [
    `bazaar run ${view.runId} · ${view.env} · ${figures}`,
    `${view.runId} · ${figures}`,
    figures,
  ].find((h, i, all) => h.length <= width || i === all.length - 1)!;
  const until = view.until
    ? [untilHeadText(view.until, view.stored), ...untilAgentLines(view.until, nameWidth).slice(0, maxAgents)]
    : [];
  return (
    <Box flexDirection="column" width={width}>
      <Text bold wrap="truncate">
        {clip(header, width)}
      </Text>
      {until.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the stopping rule's lines, in order
        <Text key={`until-${i}`} color={i === 0 ? "yellow" : undefined} wrap="truncate">
          {clip(line, width)}
        </Text>
      ))}
      {listed.map((a) => (
        <AgentProgress key={a.agent} row={a} width={width} nameWidth={nameWidth} compact={compact} />
      ))}
      {rest.length > 0 ? (
        <Text color="gray" wrap="truncate">
          {clip(
            `… ${rest.length} more agents: ${count(rest.reduce((s, a) => s + a.done, 0))}/${count(rest.reduce((s, a) => s + a.total, 0))} done · non-responses ${count(rest.reduce((s, a) => s + a.nonResponses, 0))} · errors ${count(rest.reduce((s, a) => s + a.errors, 0))}`,
            width,
          )}
        </Text>
      ) : null}
      {endpointsLines(view.endpoints, width).map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the endpoints' lines, in order
        <Text key={`endpoint-${i}`} color="gray" wrap="truncate">
          {line}
        </Text>
      ))}
      {view.errorCount > 0 ? (
        <Box flexDirection="column">
          <Text color="red" bold>
            {count(view.errorCount)} error{view.errorCount === 1 ? "" : "s"}
            {view.errorCount > view.errors.length ? ` (latest ${view.errors.length})` : ""}:
          </Text>
          {view.errors.map((e, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the latest errors, in order
            <Text key={i} color="red" wrap="truncate">
              {clip(`  ${e}`, width)}
            </Text>
          ))}
        </Box>
      ) : null}
      {help ? <Help title="keys (live run)" keys={LIVE_KEYS} width={width} /> : null}
      {view.finished || episodeHeight === 0 ? null : (
        // Exactly `episodeHeight` rows, whatever the view inside would draw: the live area's
        // height is then known, and stays below the terminal's.
        <Box height={episodeHeight} overflowY="hidden" flexDirection="column">
          {view.focus ? (
            <EpisodeView
              model={view.focus.model}
              step={view.focus.model.steps}
              width={width}
              height={episodeHeight}
              compact
              status={view.focus.pinned ? "pinned" : undefined}
            />
          ) : f ? (
            <EpisodeView
              model={f.model}
              step={f.step}
              width={width}
              height={episodeHeight}
              compact
              status={f.paused ? "paused" : undefined}
            />
          ) : (
            <Text color="gray">waiting for the first finished episode…</Text>
          )}
        </Box>
      )}
      {view.focus && !view.finished && inFlightRows > 0 ? (
        <InFlightList view={view} width={width} rows={inFlightRows} />
      ) : null}
      {showStats && view.stats && f && !view.finished ? (
        <StatsPanel stats={view.stats} agent={f.model.agent} width={width} />
      ) : null}
      {view.finished ? (
        <Text color={view.finished.interrupted || view.finished.failure ? "yellow" : "green"} bold>
          {view.finished.failure
            ? "run failed"
            : view.finished.interrupted
              ? "run stopped: run the same command again to resume"
              : "run finished"}
        </Text>
      ) : interactive ? (
        <Text color="gray" wrap="truncate">
          {clip(
            view.focus
              ? "↑/↓ focus · p pin · ? help · q stop"
              : "space pause · ←/→ step · n latest · ? help · q stop",
            width,
          )}
        </Text>
      ) : null}
    </Box>
  );
}
