/** The ink dashboard of `bazaar run --watch` (loaded only on a terminal; see run-view.ts). */
import { type Instance, render } from "ink";
import { createElement } from "react";
import { feedText } from "../components/feed.ts";
import { agentColumnWidth } from "../format.ts";
import type { DashboardView } from "../state/dashboard.ts";
import { LiveApp, type LiveCommands } from "./LiveApp.tsx";
import { agentIndexOf, dashboardState, episodeEvents, type RunView, type RunViewOptions } from "./view.ts";

/** Wall time per unit of frame time: 50 keeps the live view near 2% of a busy run. */
const DUTY = 50;
const MAX_GAP_MS = 1_000;
const FIRST_FRAME_MS = 500;

export function inkRunView(o: RunViewOptions): RunView {
  const now = o.now ?? Date.now;
  const state = dashboardState(o, now());
  const commands: LiveCommands = {
    togglePause: () => {
      state.togglePause();
      draw();
    },
    step: (d) => {
      state.stepFeatured(d);
      draw();
    },
    latest: () => {
      state.jumpToLatest(now());
      draw();
    },
    focus: (d) => {
      state.moveFocus(d, now());
      draw();
    },
    pin: () => {
      state.togglePin(now());
      draw();
    },
    stop: o.onStop,
  };
  let view: DashboardView = state.snapshot(now());
  // Mounted by the first frame.
  let app: Instance | null = null;
  let frames = 0;
  let drawingMs = 0;
  /** The id of the last feed line printed, and the last text printed above the live area. */
  let feedShown = view.feed.at(-1)?.id ?? -1;
  let above: { id: number; text: string } | null = null;
  // Colours where the terminal shows them (NO_COLOR, FORCE_COLOR and TERM as Node reads them).
  const colors = typeof o.stdout.hasColors === "function" && o.stdout.hasColors();
  /** A frame: a snapshot, and React and ink render it before `draw` returns. */
  function draw(): void {
    const t0 = performance.now();
    frames++;
    view = state.snapshot(now());
    const last = view.feed.at(-1);
    if (last && last.id > feedShown) {
      const items = view.feed.filter((item) => item.id > feedShown);
      feedShown = last.id;
      // As wide as the live area's lines (LiveApp: a column less than the terminal, so none wraps).
      const width = Math.max(1, (o.stdout.columns || 80) - 1);
      const agentWidth = agentColumnWidth(
        view.agents.map((a) => a.agent),
        width,
      );
      above = { id: (above?.id ?? 0) + 1, text: feedText(items, width, colors, agentWidth) };
    }
    const element = createElement(LiveApp, { view, commands, above });
    if (app) app.rerender(element);
    else {
      app = render(element, {
        stdout: o.stdout,
        ...(o.stdin ? { stdin: o.stdin } : {}),
        exitOnCtrlC: false,
        patchConsole: false,
        // The pacing below decides when frames happen; ink need not hold them back.
        maxFps: 60,
        // Not ink 6.8's incremental rendering: when a frame is taller than the one before, it leaves
        // copies of earlier lines (the status line) above the live area. Whole frames are rewritten.
        incrementalRendering: false,
      });
    }
    drawingMs += performance.now() - t0;
  }
  // Frames at a pace that keeps the view's share of the run small: the last frame's cost decides
  // the wait for the next, DUTY times as long and at least `refreshMs` — fast when frames are cheap,
  // sparse when the screen is big or the machine busy.
  const minMs = o.refreshMs ?? 200;
  let timer: NodeJS.Timeout | undefined;
  const frame = () => {
    const t0 = performance.now();
    draw();
    timer = setTimeout(frame, Math.min(MAX_GAP_MS, Math.max(minMs, DUTY * (performance.now() - t0))));
    timer.unref();
  };
  // The first frame waits a little: a run that ends sooner shows only its final state.
  timer = setTimeout(frame, FIRST_FRAME_MS);
  timer.unref();
  return {
    onProgress: (p) => state.progress(p),
    onTrial: (r) => state.trial(agentIndexOf(o.plan, r), r),
    episodes: episodeEvents(state, now),
    retry: (m) => state.retry(m),
    error: (m) => state.error(m),
    drawn: () => ({ frames, ms: drawingMs }),
    async finish(result, failure) {
      clearTimeout(timer);
      const message =
        failure === undefined ? undefined : `run failed: ${(failure as Error)?.message ?? failure}`;
      state.finish(result ?? { stored: view.stored, elapsedMs: view.elapsedMs, interrupted: true }, message);
      draw();
      const t0 = performance.now();
      const exited = app!.waitUntilExit().catch(() => {});
      app!.unmount();
      await exited;
      drawingMs += performance.now() - t0;
      // Ink leaves its last frame without a line end; the command's summary starts below it.
      o.stdout.write("\n");
    },
  };
}
