import { UserError } from "../../environments/kernel/errors.ts";
import { requireRun } from "../../environments/runner/records.ts";
import { Store } from "../../environments/store/index.ts";
import { liveEpisodes, runIsActive, runnersOf } from "../../environments/store/live.ts";
import { getMarket } from "../../environments/store/markets.ts";
import { nonNegativeInt, parseOption, positiveInt } from "../options.ts";
import type { Output } from "../output.ts";
import { count } from "../tui/format.ts";
import { followRun } from "../tui/live/follow.ts";
import { plainEpisode, plainStats, plainSummary } from "../tui/plain.ts";
import { turnText } from "../tui/records/live.ts";
import { roleNamesOf } from "../tui/records/roles.ts";
import { type ReplayFilter, type ReplaySource, StoreReplaySource } from "../tui/replay/source.ts";

export interface WatchOptions {
  store: string;
  agent?: string;
  outcome?: string;
  interest?: string;
  kind?: string;
  nonResponse?: string;
  episode?: string;
  limit: string;
  follow?: boolean;
  /** A market run's market to show (`k1-m2`). */
  market?: string;
}

/** Episodes a stop or a crash cut short, where they stopped (the live log keeps them until they run again). */
function interruptedLines(store: Store, runId: string): string[] {
  const cut = liveEpisodes(store, runId);
  if (cut.length === 0 || runIsActive(runnersOf(store, runId))) return [];
  return [
    `${cut.length} episode${cut.length === 1 ? " was" : "s were"} interrupted (the same command runs ${cut.length === 1 ? "it" : "them"} again); where they stopped:`,
    ...cut.map((e) => {
      const last = e.turns.at(-1);
      return `  #${e.seq} ${e.agent} · ${last ? `turn ${last.turn} · ${turnText(last, 120)}` : "before its first turn"}`;
    }),
  ];
}

/** The command-line filters, checked against what this run's environment offers. */
function filterFrom(o: WatchOptions, source: ReplaySource): ReplayFilter {
  const filter: Record<string, string | null> = {};
  if (o.agent !== undefined) {
    if (!source.run.agents.includes(o.agent)) {
      throw new UserError(
        `--agent: run ${source.run.id} has no agent "${o.agent}"`,
        `its agents: ${source.run.agents.join(", ")}`,
      );
    }
    filter.agent = o.agent;
  }
  if (o.nonResponse !== undefined) {
    if (o.nonResponse !== "yes" && o.nonResponse !== "no")
      throw new UserError(`--non-response: expected yes or no (got "${o.nonResponse}")`);
    filter.nonResponse = o.nonResponse;
  }
  for (const key of ["outcome", "interest", "kind"] as const) {
    const value = o[key];
    if (value === undefined) continue;
    const facet = source.facets.find((f) => f.key === key);
    if (!facet) throw new UserError(`--${key}: ${source.run.env} runs have no ${key} filter`);
    if (!facet.values.some((v) => v.value === value)) {
      throw new UserError(
        `--${key}: expected one of ${facet.values.map((v) => v.value).join(", ")} (got "${value}")`,
      );
    }
    filter[key] = value;
  }
  return filter;
}

/** Without a terminal: the filtered list (or one episode in full) as plain lines. */
function printPlain(out: Output, source: ReplaySource, filter: ReplayFilter, o: WatchOptions): void {
  const run = source.run;
  if (o.episode !== undefined) {
    const seq = parseOption("episode", nonNegativeInt, o.episode);
    const ep = source.episode(seq);
    if (!ep)
      throw new UserError(
        `--episode: run ${run.id} has no stored trial ${seq}`,
        `its trials are numbered 0 to ${run.total - 1}`,
      );
    for (const line of plainEpisode(ep.model)) out.log(line);
    while (source.indexStep() < 1);
    const stats = source.stats(ep.record);
    if (stats) {
      out.log(`${stats.title} (${ep.model.agent}, up to this episode):`);
      for (const line of plainStats(stats)) out.log(line);
    }
    return;
  }
  const limit = parseOption("limit", positiveInt, o.limit);
  const matched = source.count(filter);
  const active = Object.entries(filter).filter(([, v]) => v !== null);
  out.log(
    `run ${run.id} · ${run.env} · ${count(run.done)} of ${count(run.total)} trials stored · agents ${run.agents.join(", ")}`,
  );
  out.log(
    `filters: ${active.length ? active.map(([k, v]) => `${k}=${v}`).join(", ") : "none"}${matched === null ? "" : ` · ${count(matched)} matching`}`,
  );
  let after = -1;
  let shown = 0;
  while (shown < limit) {
    const page = source.after(after, Math.min(100, limit - shown), filter);
    for (const item of page.items) out.log(plainSummary(item.summary));
    shown += page.items.length;
    after = page.frontier;
    if (page.exhausted) break;
  }
  if (matched !== null && matched > shown)
    out.log(`… ${count(matched - shown)} more (--limit, or open one with --episode <seq>)`);
}

/** `bazaar watch <run>`: replays a stored run, or follows one that is running (--follow). */
export async function watchRun(runId: string, o: WatchOptions, out: Output): Promise<void> {
  const store = Store.open(o.store, { create: false, readonly: true });
  try {
    // A market run (`bazaar run market`): its rounds, seller by seller (watch-market.ts).
    const market = store.getRun(runId) ? undefined : getMarket(store, runId);
    // Awaited here: the store closes in the finally below, after the view is done with it.
    if (market) return await (await import("./watch-market.ts")).watchMarket(store, market, o, out);
    const r = requireRun(store, runId);
    const roleNames = roleNamesOf(r.config);
    const source = new StoreReplaySource(store, {
      id: r.id,
      env: r.env,
      total: r.total,
      done: r.done,
      agents: r.agents,
      ...(roleNames ? { roleNames } : {}),
    });
    const filter = filterFrom(o, source);
    if (o.follow) {
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once("SIGINT", stop);
      try {
        await followRun(store, r, {
          stdout: process.stdout,
          stdin: process.stdin,
          log: (l) => out.log(l),
          signal: controller.signal,
        });
      } finally {
        process.off("SIGINT", stop);
      }
      return;
    }
    const cut = interruptedLines(store, runId);
    if (!process.stdout.isTTY) {
      printPlain(out, source, filter, o);
      for (const line of cut) out.log(line);
      return;
    }
    for (const line of cut) out.log(line);
    const openSeq = o.episode === undefined ? undefined : parseOption("episode", nonNegativeInt, o.episode);
    // Ink and React load only for the terminal view (they take most of a second to import).
    process.env.NODE_ENV ??= "production";
    const [{ render }, { createElement }, { ReplayApp }] = await Promise.all([
      import("ink"),
      import("react"),
      import("../tui/replay/ReplayApp.tsx"),
    ]);
    const app = render(createElement(ReplayApp, { source, filter, openSeq }), { exitOnCtrlC: false });
    await app.waitUntilExit();
  } finally {
    store.close();
  }
}
