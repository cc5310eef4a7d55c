/**
 * Everything the viewer's pages show, read from one store (SQLite or PostgreSQL, read-only) through
 * the same reads the terminal uses: the runs and markets (`bazaar runs`), pages of a run's episodes
 * (trial-pages.ts, as `watch` pages), one episode's view model (cli/tui/records), the live log
 * (`watch --follow`'s reads), and the analysis `bazaar analyze` computes, kept per state of the run
 * (jobs.ts). Every answer goes through the redactor before it leaves.
 */
import { UserError } from "../../environments/kernel/errors.ts";
import type { RunSummary, Store } from "../../environments/store/index.ts";
import { liveEpisodes, runIsActive, runnersOf } from "../../environments/store/live.ts";
import {
  getMarket,
  listMarkets,
  type MarketRecord,
  marketOfRun,
  marketSummary,
} from "../../environments/store/markets.ts";
import { trialsAfter } from "../../environments/store/trial-pages.ts";
import { liveModel } from "../tui/records/live.ts";
import { roleNamesOf } from "../tui/records/roles.ts";
import type {
  AnalysisView,
  ComparePage,
  EpisodePage,
  EpisodePageData,
  LivePage,
  MarketPage,
  RunPage,
  RunRow,
  RunsPage,
} from "./api-types.ts";
import { episodePage } from "./episode.ts";
import { EpisodeSource, queryOf, ViewRequestError } from "./episodes.ts";
import type { ShopShape } from "./facets.ts";
import { Jobs } from "./jobs.ts";
import { marketPage } from "./market.ts";
import type { RecordContext } from "./records.ts";
import { Redactor } from "./redact.ts";

const COMPARE_PAGE = 50;

/** How long a run's summary (its counts) is reused. */
const SUMMARY_MS = 1000;

export class ViewData {
  readonly jobs: Jobs;
  private readonly sources = new Map<string, EpisodeSource>();
  private readonly summaries = new Map<string, { at: number; run: RunSummary }>();
  private readonly tasks = new Map<string, unknown[]>();
  private readonly markets = new Map<string, { state: string; page: MarketPage }>();

  constructor(
    readonly store: Store,
    /** Where the store is, as given (the worker threads open it again). */
    storeLocation: string,
    readonly redactor: Redactor = new Redactor(),
    /** Runs a bundle holds (null: every run of the store). */
    private readonly only: ReadonlySet<string> | null = null,
  ) {
    this.jobs = new Jobs(storeLocation);
  }

  close(): Promise<unknown> {
    return this.jobs.close();
  }

  private allowed(id: string): boolean {
    return this.only === null || this.only.has(id);
  }

  /**
   * A run or a market, by id, as a summary. Kept for SUMMARY_MS: a summary counts the run's trials
   * (≈ 50 ms at 100,000), and one page asks for it several times; the pages poll every 1.5 s, so a
   * second-old count is as live as they are.
   */
  summary(id: string): RunSummary {
    const now = Date.now();
    const kept = this.summaries.get(id);
    if (kept && now - kept.at < SUMMARY_MS) return kept.run;
    const run = this.allowed(id) ? (this.store.getRun(id) ?? marketSummary(this.store, id)) : undefined;
    if (!run) throw new ViewRequestError(`no run "${id}" in this store`, 404);
    this.summaries.set(id, { at: now, run });
    return run;
  }

  /** What identifies a state of the run: its stored and failed trials and its last write. */
  stateOf(run: RunSummary): string {
    return `${run.done}/${run.failed}/${run.updatedAt}`;
  }

  private row(run: RunSummary, market: MarketRecord | null): RunRow {
    const partOf = market ? null : (marketOfRun(this.store, run.id) ?? null);
    const runIds = market ? market.runs.map((l) => l.runId) : [run.id];
    return {
      id: run.id,
      env: run.env,
      agents: run.agents,
      total: run.total,
      done: run.done,
      failed: run.failed,
      nonResponses: run.nonResponses,
      createdAt: run.createdAt,
      updatedAt: run.updatedAt,
      active: runIds.some((id) => runIsActive(runnersOf(this.store, id))),
      market: partOf,
      parts: market ? market.runs.map((l) => ({ runId: l.runId, round: l.round, part: l.part })) : null,
      headline: this.jobs.headline(run.id),
    };
  }

  runRow(id: string): RunRow {
    const run = this.summary(id);
    return this.row(run, run.env === "market" ? (getMarket(this.store, id) ?? null) : null);
  }

  runs(bundle = false): RunsPage {
    const markets = listMarkets(this.store).filter((m) => this.allowed(m.id));
    const inMarket = new Set(markets.flatMap((m) => m.runs.map((l) => l.runId)));
    const rows = [
      ...this.store
        .listRuns()
        .filter((r) => this.allowed(r.id) && !inMarket.has(r.id))
        .map((r) => this.row(r, null)),
      ...markets.map((m) => this.row(marketSummary(this.store, m.id)!, m)),
    ].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    return this.redactor.value({ store: this.store.path, runs: rows, bundle });
  }

  private context(run: RunSummary): RecordContext {
    const roleNames = roleNamesOf(run.config);
    return { id: run.id, env: run.env, ...(roleNames ? { roleNames } : {}) };
  }

  private shape(run: RunSummary): ShopShape | null {
    if (run.env !== "shop") return null;
    const task = trialsAfter(this.store, run.id, -1, 1)[0]?.task as
      | { client?: unknown; rules?: { offers?: unknown } }
      | undefined;
    return { clients: task?.client != null, offers: task?.rules?.offers === true };
  }

  /** The run's episode source for its current state (a new state: new counts and indexes). */
  source(id: string): EpisodeSource {
    const run = this.summary(id);
    if (run.env === "market" && getMarket(this.store, id))
      throw new ViewRequestError(`${id} is a market: its episodes are its rounds' runs`, 404);
    const state = this.stateOf(run);
    let s = this.sources.get(id);
    if (!s || s.state !== state) {
      s = new EpisodeSource(this.store, run, this.context(run), this.shape(run), state);
      this.sources.set(id, s);
    }
    return s;
  }

  runPage(id: string): RunPage {
    const run = this.summary(id);
    const isMarket = run.env === "market" && getMarket(this.store, id) !== undefined;
    const source = isMarket ? null : this.source(id);
    return this.redactor.value({
      run: this.runRow(id),
      config: run.config,
      facets: (source?.facets ?? []).map((f) => ({
        key: f.key,
        label: f.label,
        values: f.values.map((v) => ({ value: v.value, label: v.label })),
      })),
      sorts: (source?.sorts ?? []).map((s) => ({ key: s.key, label: s.label })),
    });
  }

  analysis(id: string): AnalysisView {
    const run = this.summary(id);
    return this.redactor.value(this.jobs.analysis(id, this.stateOf(run), run.done));
  }

  episodes(id: string, params: URLSearchParams): EpisodePage {
    return this.redactor.value(this.source(id).page(queryOf(params)));
  }

  episode(id: string, seq: number): EpisodePageData {
    const run = this.summary(id);
    return this.redactor.value(episodePage(this.store, this.context(run), seq));
  }

  live(id: string): LivePage {
    const run = this.summary(id);
    const ids = run.env === "market" ? (getMarket(this.store, id)?.runs.map((l) => l.runId) ?? [id]) : [id];
    const inFlight = ids.flatMap((rid) => {
      const r = this.store.getRun(rid);
      if (!r) return [];
      const episodes = liveEpisodes(this.store, rid);
      if (episodes.length === 0) return [];
      let tasks = this.tasks.get(rid);
      if (!tasks) {
        tasks = this.store.runTasks(rid);
        this.tasks.set(rid, tasks);
      }
      const replicates = (r.config as { replicates?: unknown }).replicates;
      const per = r.agents.length * (typeof replicates === "number" ? replicates : 1);
      return episodes.map((e) => ({
        seq: e.seq,
        agent: e.agent,
        startedAt: e.startedAt,
        turns: e.turns,
        model: liveModel(r.env, e, tasks[Math.floor(e.seq / Math.max(1, per))]),
      }));
    });
    const runners = ids.flatMap((rid) =>
      runnersOf(this.store, rid).map((x) => ({
        runner: x.runner,
        status: x.status,
        heartbeatAt: x.heartbeatAt,
        endedAt: x.endedAt,
      })),
    );
    return this.redactor.value({ run: this.runRow(id), inFlight, runners });
  }

  market(id: string): MarketPage {
    const run = this.summary(id);
    const market = getMarket(this.store, id);
    if (!market) throw new ViewRequestError(`no market "${id}" in this store`, 404);
    const state = this.stateOf(run);
    const cached = this.markets.get(id);
    if (cached?.state === state) return cached.page;
    const page = this.redactor.value(marketPage(this.store, market));
    this.markets.set(id, { state, page });
    return page;
  }

  compare(params: URLSearchParams): ComparePage {
    const side = (k: "a" | "b") => {
      const spec = params.get(k);
      if (!spec) throw new ViewRequestError(`compare needs ${k}=<run>[:agent]`);
      const at = spec.indexOf("::");
      const run = at >= 0 ? spec.slice(0, at) : spec;
      this.summary(run);
      return { run, agent: at >= 0 ? spec.slice(at + 2) : null };
    };
    const job = { a: side("a"), b: side("b") };
    const state = [job.a.run, job.b.run].map((r) => this.stateOf(this.summary(r))).join("|");
    const c = this.jobs.compare(job, state);
    if (c.error) throw new UserError(c.error);
    const page = Math.max(0, Number(params.get("page") ?? 0) || 0);
    const r = c.result;
    const link = (p: number) => {
      const q = new URLSearchParams(params);
      q.set("page", String(p));
      return q.toString();
    };
    const differ = r ? r.differ.slice(page * COMPARE_PAGE, (page + 1) * COMPARE_PAGE) : [];
    const out: ComparePage = r
      ? {
          ...r,
          differ,
          next: (page + 1) * COMPARE_PAGE < r.differ.length ? link(page + 1) : null,
          prev: page > 0 ? link(page - 1) : null,
          status: c.running ? "running" : "ready",
          progress: c.running ? c.progress : null,
        }
      : {
          a: { run: job.a.run, agent: job.a.agent, env: "", label: job.a.run },
          b: { run: job.b.run, agent: job.b.agent, env: "", label: job.b.run },
          paired: 0,
          onlyA: 0,
          onlyB: 0,
          metrics: [],
          differ: [],
          differing: 0,
          next: null,
          prev: null,
          status: "running",
          progress: c.progress,
        };
    return this.redactor.value(out);
  }
}
