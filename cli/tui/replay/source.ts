/**
 * Where `bazaar watch` reads a stored run: pages of episode summaries under filters, one episode in
 * full, and running statistics as of any episode — all from the store a page at a time, so a run of
 * 100,000 trials opens as fast as a small one. The running statistics come from one background pass
 * over the run that keeps a checkpoint of every agent's fold every `CHECKPOINT` trials; the figures
 * as of trial s are the checkpoint before s plus the few trials after it.
 */

import { emptyUsage, type Usage } from "../../../environments/kernel/types.ts";
import { ENVIRONMENTS } from "../../../environments/registry.ts";
import type { Store, TrialWhere } from "../../../environments/store/store.ts";
import {
  countTrials,
  type PagedTrial,
  type TrialCondition,
  trialsAfter,
  trialsBefore,
  trialWhere,
} from "../../../environments/store/trial-pages.ts";
import { type AnyAdapter, adapterFor, type EpisodeModel, episodeModel } from "../records/index.ts";
import type { EpisodeSummary, FilterFacet, StatsView, TrialRecord } from "../records/types.ts";

/** Selected filter values by filter key (`agent`, `nonResponse`, and the environment's facets). */
export type ReplayFilter = Readonly<Record<string, string | null>>;

export interface ListItem {
  seq: number;
  summary: EpisodeSummary;
}

export interface PageResult {
  items: ListItem[];
  /** The last seq looked at: the next page in the same direction starts beyond it. */
  frontier: number;
  /** Nothing more in that direction. */
  exhausted: boolean;
}

export interface RunHeader {
  id: string;
  env: string;
  total: number;
  done: number;
  agents: string[];
  /**
   * Who plays a role the records name only by role: a shop with offers' seller negotiators
   * (`seller-1` → `rule:boulware`), from the run's design. Absent where there are none.
   */
  roleNames?: Readonly<Record<string, string>>;
}

export interface ReplaySource {
  readonly run: RunHeader;
  readonly facets: readonly FilterFacet[];
  after(seq: number, limit: number, filter: ReplayFilter): PageResult;
  before(seq: number, limit: number, filter: ReplayFilter): PageResult;
  /** Matching trials, or null when a filter can only be checked record by record. */
  count(filter: ReplayFilter): number | null;
  episode(seq: number): { record: TrialRecord; model: EpisodeModel } | null;
  /** The episode's agent's running statistics as of it; null while the pass has not reached it. */
  stats(record: TrialRecord): StatsView | null;
  /** Does a bounded share of the background pass; returns how much of the run it covers (0–1). */
  indexStep(): number;
  /** Whether the pass has reached this seq, so `stats` can answer for it. */
  indexed(seq: number): boolean;
}

/** Rows a filter that needs record tests may scan per page request before it answers. */
const MAX_SCAN = 5_000;
const SCAN_CHUNK = 250;
const CHECKPOINT = 1_000;
const INDEX_CHUNK = 500;

interface Compiled {
  where: TrialWhere | undefined;
  tests: ((r: TrialRecord) => boolean)[];
}

export class StoreReplaySource implements ReplaySource {
  readonly facets: readonly FilterFacet[];
  private readonly adapter: AnyAdapter;
  private readonly counts = new Map<string, number>();
  private indexedSeq = -1;
  private indexDone = false;
  private indexedRows = 0;
  private readonly folds = new Map<string, unknown>();
  private readonly checkpoints: { seq: number; folds: Map<string, unknown> }[] = [
    { seq: -1, folds: new Map() },
  ];

  constructor(
    private readonly store: Store,
    readonly run: RunHeader,
  ) {
    this.adapter = adapterFor(run.env);
    this.facets = this.adapter.facets;
  }

  /** The trial record as `export` writes it; a run of an environment this build lacks shows raw. */
  private record(t: PagedTrial): TrialRecord {
    const result = (t.result ?? {}) as { outcome?: unknown; usage?: Usage };
    const env = ENVIRONMENTS[this.run.env];
    if (!env) {
      return { env: this.run.env, seq: t.seq, agent: t.agent, trialKey: t.trialKey, task: t.task, ...result };
    }
    const record = env.record({
      run: this.run.id,
      trialKey: t.trialKey,
      seq: t.seq,
      agent: t.agent,
      replicate: t.replicate,
      task: t.task,
      outcome: result.outcome,
      usage: result.usage ?? emptyUsage(),
    });
    return this.run.roleNames ? { ...record, roleNames: this.run.roleNames } : record;
  }

  private compile(filter: ReplayFilter): Compiled {
    const conditions: TrialCondition[] = [];
    const tests: ((r: TrialRecord) => boolean)[] = [];
    for (const [key, value] of Object.entries(filter)) {
      if (value === null) continue;
      if (key === "agent") conditions.push({ column: "agent", equals: value });
      else if (key === "nonResponse") conditions.push({ column: "nonResponse", equals: value === "yes" });
      else {
        const v = this.facets.find((f) => f.key === key)?.values.find((x) => x.value === value);
        if (v?.conditions) conditions.push(...v.conditions);
        if (v?.test) tests.push(v.test);
      }
    }
    return { where: trialWhere(this.run.id, conditions), tests };
  }

  private page(dir: "after" | "before", seq: number, limit: number, filter: ReplayFilter): PageResult {
    const { where, tests } = this.compile(filter);
    const read = (from: number, n: number) =>
      dir === "after"
        ? trialsAfter(this.store, this.run.id, from, n, where)
        : trialsBefore(this.store, this.run.id, from, n, where).reverse();
    const items: ListItem[] = [];
    let frontier = seq;
    let scanned = 0;
    const chunk = tests.length === 0 ? limit : SCAN_CHUNK;
    for (;;) {
      const rows = read(frontier, chunk);
      for (const t of rows) {
        frontier = t.seq;
        const record = this.record(t);
        if (tests.every((test) => test(record))) {
          items.push({ seq: t.seq, summary: this.adapter.summary(record) });
          if (items.length >= limit) break;
        }
      }
      scanned += rows.length;
      if (rows.length < chunk)
        return { items: ordered(items, dir), frontier, exhausted: items.length < limit };
      if (items.length >= limit || scanned >= MAX_SCAN)
        return { items: ordered(items, dir), frontier, exhausted: false };
    }
  }

  after(seq: number, limit: number, filter: ReplayFilter): PageResult {
    return this.page("after", seq, limit, filter);
  }

  before(seq: number, limit: number, filter: ReplayFilter): PageResult {
    return this.page("before", seq, limit, filter);
  }

  count(filter: ReplayFilter): number | null {
    const { where, tests } = this.compile(filter);
    if (tests.length > 0) return null;
    if (where === undefined) return this.run.done;
    const key = JSON.stringify(where ?? null);
    let n = this.counts.get(key);
    if (n === undefined) {
      n = countTrials(this.store, this.run.id, where);
      this.counts.set(key, n);
    }
    return n;
  }

  episode(seq: number): { record: TrialRecord; model: EpisodeModel } | null {
    const t = trialsAfter(this.store, this.run.id, seq - 1, 1)[0];
    if (!t || t.seq !== seq) return null;
    const record = this.record(t);
    return { record, model: episodeModel(record, t.task) };
  }

  indexStep(): number {
    if (this.indexDone) return 1;
    const rows = trialsAfter(this.store, this.run.id, this.indexedSeq, INDEX_CHUNK);
    for (const t of rows) {
      let fold = this.folds.get(t.agent);
      if (fold === undefined) {
        fold = this.adapter.stats.init();
        this.folds.set(t.agent, fold);
      }
      this.adapter.stats.add(fold, this.record(t));
      this.indexedSeq = t.seq;
      if (++this.indexedRows % CHECKPOINT === 0) {
        this.checkpoints.push({
          seq: t.seq,
          folds: new Map([...this.folds].map(([a, f]) => [a, this.adapter.stats.clone(f)])),
        });
      }
    }
    if (rows.length < INDEX_CHUNK) this.indexDone = true;
    return this.indexDone ? 1 : this.indexedRows / Math.max(1, this.run.done);
  }

  indexed(seq: number): boolean {
    return this.indexDone || this.indexedSeq >= seq;
  }

  stats(record: TrialRecord): StatsView | null {
    const seq = Number(record.seq);
    const agent = String(record.agent ?? "");
    if (!this.indexed(seq)) return null;
    let lo = 0;
    let hi = this.checkpoints.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.checkpoints[mid]!.seq <= seq) lo = mid;
      else hi = mid - 1;
    }
    const cp = this.checkpoints[lo]!;
    const base = cp.folds.get(agent);
    const fold = base === undefined ? this.adapter.stats.init() : this.adapter.stats.clone(base);
    const where = trialWhere(this.run.id, [{ column: "agent", equals: agent }]);
    for (const t of trialsAfter(this.store, this.run.id, cp.seq, CHECKPOINT + 1, where)) {
      if (t.seq > seq) break;
      this.adapter.stats.add(fold, this.record(t));
    }
    return this.adapter.stats.view(fold, record);
  }
}

function ordered(items: ListItem[], dir: "after" | "before"): ListItem[] {
  return dir === "after" ? items : items.reverse();
}
