// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text, useApp, useInput, useStdin, useStdout } from "ink";
import { useEffect, useMemo, useReducer, useState } from "react";
import { EpisodeList } from "../components/EpisodeList.tsx";
import { EpisodeView } from "../components/EpisodeView.tsx";
import { FilterBar } from "../components/FilterBar.tsx";
import { Help, type KeyHelp } from "../components/Help.tsx";
import { StatsPanel } from "../components/StatsPanel.tsx";
import { clip, count, pct } from "../format.ts";
import {
  type FilterChoice,
  initialReplay,
  PAGE,
  type ReplayKey,
  type ReplayRequest,
  type ReplayState,
  replayReducer,
} from "../state/replay.ts";
import type { PageResult, ReplayFilter, ReplaySource } from "./source.ts";

export const REPLAY_KEYS: readonly KeyHelp[] = [
  { keys: "↑ ↓", does: "previous / next episode (PgUp/PgDn: ten)" },
  { keys: "g G", does: "first / last episode" },
  { keys: "enter", does: "open the episode" },
  { keys: "space", does: "play / pause (from the list: play from here)" },
  { keys: "← →", does: "step turns back / forward" },
  { keys: "esc", does: "back to the list" },
  { keys: "a o i k n", does: "cycle a filter: agent, outcome, MI/CI, kind, non-response" },
  { keys: "c", does: "clear the filters" },
  { keys: "?", does: "this help" },
  { keys: "q", does: "quit" },
];

/** The filters of a run: agent, the environment's own, and non-response. */
export function filterChoices(source: ReplaySource): FilterChoice[] {
  return [
    { key: "agent", hotkey: "a", label: "agent", values: [null, ...source.run.agents] },
    ...source.facets.map((f) => ({
      key: f.key,
      hotkey: f.hotkey,
      label: f.label,
      values: [null, ...f.values.map((v) => v.value)],
    })),
    { key: "nonResponse", hotkey: "n", label: "non-response", values: [null, "yes", "no"] },
  ];
}

function read(source: ReplaySource, req: ReplayRequest, filter: ReplayFilter): PageResult {
  switch (req.kind) {
    case "first":
      return source.after(-1, PAGE, filter);
    case "last":
      return source.before(Number.MAX_SAFE_INTEGER, PAGE, filter);
    case "at":
      return source.after(req.seq - 1, PAGE, filter);
    case "after":
      return source.after(req.seq, PAGE, filter);
    case "before":
      return source.before(req.seq, PAGE, filter);
  }
}

export interface ReplayAppProps {
  source: ReplaySource;
  filter?: ReplayFilter;
  /** Open this episode first. */
  openSeq?: number;
  width?: number;
  height?: number;
  /** Time between turns when playing. */
  playMs?: number;
}

function keyOf(input: string, key: Parameters<Parameters<typeof useInput>[0]>[1]): ReplayKey | null {
  if (key.upArrow) return "up";
  if (key.downArrow) return "down";
  if (key.pageUp) return "pageUp";
  if (key.pageDown) return "pageDown";
  if (key.leftArrow) return "left";
  if (key.rightArrow) return "right";
  if (key.return) return "enter";
  if (key.escape || key.backspace || key.delete) return "back";
  if (key.ctrl && input === "c") return "quit";
  const keys: Record<string, ReplayKey> = {
    " ": "space",
    "?": "help",
    q: "quit",
    g: "home",
    G: "end",
    c: "clear",
  };
  return keys[input] ?? null;
}

/**
 * `bazaar watch`: the container of the replay — it owns the reducer state, reads what the state
 * asks for from the source, plays episodes on a timer and maps keys to actions.
 */
export function ReplayApp({ source, filter, openSeq, width, height, playMs = 500 }: ReplayAppProps) {
  const [state, dispatch] = useReducer(replayReducer, undefined, () =>
    initialReplay(filterChoices(source), filter, openSeq),
  );
  const [matched, setMatched] = useState<number | null>(null);
  const [indexed, setIndexed] = useState(0);
  const { exit } = useApp();
  const { stdout } = useStdout();
  const { isRawModeSupported } = useStdin();

  useEffect(() => {
    const req = state.request;
    if (!req) return;
    // After this frame is drawn, so the screen answers at once and the page follows.
    const t = setImmediate(() =>
      dispatch({ type: "loaded", request: req, page: read(source, req, state.filter) }),
    );
    return () => clearImmediate(t);
  }, [state.request, state.filter, source]);

  useEffect(() => {
    setMatched(null);
    const t = setTimeout(() => setMatched(source.count(state.filter)), 0);
    return () => clearTimeout(t);
  }, [state.filter, source]);

  useEffect(() => {
    let t: NodeJS.Immediate | undefined;
    const step = () => {
      const share = source.indexStep();
      // Whole percents: the screen redraws when the figure it shows changes, not per chunk.
      setIndexed(Math.floor(share * 100) / 100);
      if (share < 1) t = setImmediate(step);
    };
    t = setImmediate(step);
    return () => {
      if (t) clearImmediate(t);
    };
  }, [source]);

  const playing = state.open?.playing === true;
  useEffect(() => {
    if (!playing) return;
    const t = setInterval(() => dispatch({ type: "tick" }), playMs);
    return () => clearInterval(t);
  }, [playing, playMs]);

  useEffect(() => {
    if (state.quit) exit();
  }, [state.quit, exit]);

  useInput(
    (input, key) => {
      const k = keyOf(input, key);
      if (k) dispatch({ type: "key", key: k });
      else if (state.filters.some((f) => f.hotkey === input)) dispatch({ type: "cycle", hotkey: input });
    },
    { isActive: isRawModeSupported === true },
  );

  const openSeqNow = state.open?.seq;
  const episode = useMemo(
    () => (openSeqNow === undefined ? null : source.episode(openSeqNow)),
    [source, openSeqNow],
  );
  const ready = episode !== null && source.indexed(episode.model.seq);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `ready` turns true once the pass reaches the episode
  const stats = useMemo(() => (episode ? source.stats(episode.record) : null), [source, episode, ready]);
  const columns = Math.max(40, (width ?? stdout.columns ?? 80) - 1);
  const rows = Math.max(12, (height ?? stdout.rows ?? 24) - 1);
  return (
    <ReplayScreen
      state={state}
      source={source}
      episode={episode}
      stats={stats}
      matched={matched}
      indexed={indexed}
      width={columns}
      height={rows}
    />
  );
}

/** The replay screen as a pure view of its state. */
export function ReplayScreen(props: {
  state: ReplayState;
  source: ReplaySource;
  episode: ReturnType<ReplaySource["episode"]>;
  stats: ReturnType<ReplaySource["stats"]>;
  matched: number | null;
  indexed: number;
  width: number;
  height: number;
}) {
  const { state, source, episode, stats, matched, indexed, width, height } = props;
  const run = source.run;
  const header = `bazaar watch ${run.id} · ${run.env} · ${count(run.done)} of ${count(run.total)} trials stored · ${run.agents.length} agent${run.agents.length === 1 ? "" : "s"}`;
  const statsRows = stats ? 1 + stats.lines.length : 1;
  const body = height - 3;
  const open = state.open;
  return (
    <Box flexDirection="column" width={width}>
      <Text bold wrap="truncate">
        {clip(header, width)}
      </Text>
      <FilterBar filters={state.filters} filter={state.filter} matched={matched} width={width} />
      {state.help ? (
        <Help title="keys (replay)" keys={REPLAY_KEYS} width={width} />
      ) : state.screen === "episode" && open && episode ? (
        <Box flexDirection="column">
          <EpisodeView
            model={episode.model}
            step={open.step}
            width={width}
            height={Math.max(6, body - statsRows)}
            status={open.playing ? "playing" : open.step < open.steps ? "paused" : undefined}
          />
          {stats ? (
            <StatsPanel stats={stats} agent={episode.model.agent} width={width} />
          ) : (
            <Text color="gray">running statistics: reading the run… {pct(indexed)}</Text>
          )}
        </Box>
      ) : (
        <EpisodeList
          items={state.items}
          cursor={state.cursor}
          width={width}
          height={body}
          moreBefore={state.moreBefore}
          moreAfter={state.moreAfter}
          loading={state.request !== null}
        />
      )}
      <Text color="gray" wrap="truncate">
        {clip(
          state.screen === "episode"
            ? "space play/pause · ←/→ step · ↑/↓ episode · esc list · ? help · q quit"
            : "↑/↓ move · enter open · space play · a/o/n… filter · ? help · q quit",
          width,
        )}
      </Text>
    </Box>
  );
}
