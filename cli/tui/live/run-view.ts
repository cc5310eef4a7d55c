/**
 * `bazaar run … --watch`: the runner's callbacks folded into the dashboard state, shown either as
 * the ink dashboard (a terminal) or as plain progress lines (a pipe, a CI log). The command keeps
 * its own summary; this only watches.
 */
import { plainAgentLine, plainEndpointLine, plainProgressLine, plainStats } from "../plain.ts";
import { adapterFor } from "../records/index.ts";
import type { DashboardView } from "../state/dashboard.ts";
import { untilTarget } from "../until.ts";
import { agentIndexOf, dashboardState, episodeEvents, type RunView, type RunViewOptions } from "./view.ts";

export type { RunView, RunViewOptions } from "./view.ts";

/**
 * The dashboard on a terminal, plain lines otherwise. Ink and React load only for the dashboard:
 * importing them takes most of a second, which no other command should pay.
 */
export async function startRunView(o: RunViewOptions): Promise<RunView> {
  if (!o.stdout.isTTY) return plainRunView(o);
  // React's development build checks every render; the dashboard is not a React dev session.
  process.env.NODE_ENV ??= "production";
  const { inkRunView } = await import("./ink-view.ts");
  return inkRunView(o);
}

function plainRunView(o: RunViewOptions): RunView {
  const now = o.now ?? Date.now;
  const state = dashboardState(o, now());
  let lastLine = now();
  let lastDecile = -1;
  let lastLookPrinted = 0;
  let errorsShown = 0;
  let lastStored = -1;
  let lastLook = -1;
  /** Each endpoint's last line, so that one is printed again only when it changed. */
  const endpointsShown = new Map<string, string>();
  const line = (v: DashboardView) => {
    // A look of the stopping rule is news too: where the targets stand now.
    const look = v.until?.looks ?? -1;
    if (v.stored !== lastStored || look !== lastLook) o.log(plainProgressLine(v));
    lastStored = v.stored;
    lastLook = look;
    for (const e of v.endpoints) {
      const text = plainEndpointLine(e);
      const key = `${e.url}|${e.model}`;
      if (endpointsShown.get(key) !== text) o.log(text);
      endpointsShown.set(key, text);
    }
  };
  const first = o.until?.();
  const trials = first
    ? `at most ${untilTarget(first, o.target, 0).target.toLocaleString("en-US")} trials (--until ${first.written.join(", ")}: each agent stops once its targets hold)`
    : `${o.target.toLocaleString("en-US")} trials`;
  o.log(
    `watching run ${o.plan.runId} (${o.plan.env.name}): ${trials} · agents ${o.plan.agents.map((a) => a.label).join(", ")}`,
  );
  const flushErrors = (v: DashboardView) => {
    const fresh = v.errorCount - errorsShown;
    if (fresh <= 0) return;
    const listed = v.errors.slice(-Math.min(fresh, v.errors.length));
    if (fresh > listed.length) o.log(`error: … ${fresh - listed.length} more errors`);
    for (const e of listed) o.log(`error: ${e}`);
    errorsShown = v.errorCount;
  };
  const adapter = adapterFor(o.plan.env.name);
  return {
    onProgress(p) {
      state.progress(p);
      const t = now();
      // Tenths of what the run stores at most (with --until, the rule's bound), and each look.
      const u = o.until?.();
      const { target } = untilTarget(u, p.target, p.stored);
      const decile = target === 0 ? 10 : Math.floor((10 * p.stored) / target);
      const look = u?.looks ?? 0;
      if (decile === lastDecile && look === lastLookPrinted && t - lastLine < 5000) return;
      lastDecile = decile;
      lastLookPrinted = look;
      lastLine = t;
      const v = state.snapshot(t);
      flushErrors(v);
      line(v);
    },
    onTrial: (r) => state.trial(agentIndexOf(o.plan, r), r),
    episodes: episodeEvents(state, now),
    retry: (m) => state.retry(m),
    error: (m) => state.error(m),
    drawn: () => ({ frames: 0, ms: 0 }),
    async finish(result, failure) {
      const message =
        failure === undefined ? undefined : `run failed: ${(failure as Error)?.message ?? failure}`;
      const before = state.snapshot(now());
      state.finish(
        result ?? { stored: before.stored, elapsedMs: before.elapsedMs, interrupted: true },
        message,
      );
      const v = state.snapshot(now());
      flushErrors(v);
      line(v);
      for (const a of v.agents) o.log(plainAgentLine(a));
      for (const [i, a] of v.agents.entries()) {
        const stats = state.agentStats(i);
        if (stats && a.ranNow > 0) {
          o.log(`${a.agent} — ${adapter.stats.view(stats, null).title}:`);
          for (const line of plainStats(adapter.stats.view(stats, null))) o.log(line);
        }
      }
    },
  };
}
