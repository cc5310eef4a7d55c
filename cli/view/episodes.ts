/**
 * A run's episode list, a page at a time, never the whole run: in planned order (either way) with
 * filters the store can answer, a keyset page on seq straight from SQL — so the first page of a
 * 100,000-trial run costs what a 10-trial run's does; sorted by another key, or filtered by a test
 * on the record, an index of the matching seqs built once per state of the run by a pass over it in
 * chunks (the server answers other requests between them, and the page says how far it is), kept
 * for the next pages (a few such indexes at most: a seq list each, 4 bytes a trial).
 */
import type { RunSummary, Store } from "../../environments/store/index.ts";
import type { TrialWhere } from "../../environments/store/store.ts";
import {
  countTrials,
  type PagedTrial,
  type TrialCondition,
  trialsAfter,
  trialsBefore,
  trialWhere,
} from "../../environments/store/trial-pages.ts";
import { type AnyAdapter, adapterFor } from "../tui/records/index.ts";
import type { TrialRecord } from "../tui/records/types.ts";
import type { EpisodePage, EpisodeRow, FailedRow } from "./api-types.ts";
import { facetsOf, type ShopShape, sortsOf, type WebFacet, type WebSort } from "./facets.ts";
import { type RecordContext, recordOf } from "./records.ts";

export const PAGE_SIZE = 50;
const INDEX_CHUNK = 1_000;
const MAX_INDEXES = 8;

export interface EpisodeQuery {
  /** Filter values by facet key. */
  filter: Readonly<Record<string, string>>;
  /** `seq` (planned order), `-seq` (newest first), or a sort key, `-` first for descending. */
  sort: string;
  after?: number;
  before?: number;
  page?: number;
  failed?: boolean;
}

/** The query of a URL's search parameters (`agent=…&sort=-seq&after=120`). */
export function queryOf(params: URLSearchParams): EpisodeQuery {
  const filter: Record<string, string> = {};
  for (const [k, v] of params) if (k.startsWith("f.") && v !== "") filter[k.slice(2)] = v;
  const int = (k: string) => {
    const v = params.get(k);
    return v !== null && /^-?\d+$/.test(v) ? Number(v) : undefined;
  };
  const q: EpisodeQuery = { filter, sort: params.get("sort") || "seq" };
  const after = int("after");
  const before = int("before");
  const page = int("page");
  if (after !== undefined) q.after = after;
  if (before !== undefined) q.before = before;
  if (page !== undefined) q.page = Math.max(0, page);
  if (params.get("failed") === "yes") q.failed = true;
  return q;
}

function queryString(q: EpisodeQuery, cursor: Record<string, number>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q.filter)) p.set(`f.${k}`, v);
  if (q.sort !== "seq") p.set("sort", q.sort);
  for (const [k, v] of Object.entries(cursor)) p.set(k, String(v));
  return p.toString();
}

interface SeqIndex {
  /** Matching seqs: those with a sort value in ascending order, then those without, in planned order. */
  seqs: Int32Array;
  /** How many have a sort value (all of them in planned order). */
  known: number;
  done: boolean;
  scanned: number;
  total: number;
  lastUsed: number;
}

/** A run's list as the viewer reads it: its facets and sorts, and pages under a query. */
export class EpisodeSource {
  readonly facets: WebFacet[];
  readonly sorts: WebSort[];
  private readonly adapter: AnyAdapter;
  private readonly counts = new Map<string, number>();
  private readonly indexes = new Map<string, SeqIndex>();

  constructor(
    private readonly store: Store,
    readonly run: RunSummary,
    readonly context: RecordContext,
    shape: ShopShape | null,
    /** The run's state (stored trials and when it last changed): indexes and counts are of one state. */
    readonly state: string,
  ) {
    this.adapter = adapterFor(run.env);
    this.facets = facetsOf(run, shape);
    this.sorts = sortsOf(run.env);
  }

  row(record: TrialRecord): EpisodeRow {
    const s = this.adapter.summary(record);
    return {
      seq: s.seq,
      agent: s.agent,
      outcome: s.outcome,
      detail: s.detail,
      nonResponse: s.nonResponse,
      error: s.error,
    };
  }

  record(t: Pick<PagedTrial, "seq" | "trialKey" | "agent" | "replicate" | "task" | "result">): TrialRecord {
    return recordOf(this.context, t);
  }

  /** The query's store conditions and record tests; unknown keys or values are refused. */
  private compile(filter: EpisodeQuery["filter"]): {
    where: TrialWhere | undefined;
    tests: ((r: TrialRecord) => boolean)[];
    key: string;
  } {
    const conditions: TrialCondition[] = [];
    const tests: ((r: TrialRecord) => boolean)[] = [];
    for (const [key, value] of Object.entries(filter).sort()) {
      const facet = this.facets.find((f) => f.key === key);
      const v = facet?.values.find((x) => x.value === value);
      if (!facet || !v) throw new ViewRequestError(`no filter ${key}=${value} for this run`);
      if (v.conditions) conditions.push(...v.conditions);
      if (v.test) tests.push(v.test);
    }
    return {
      where: trialWhere(this.run.id, conditions),
      tests,
      key: JSON.stringify(Object.entries(filter).sort()),
    };
  }

  private sortOf(sort: string): { sort: WebSort | null; desc: boolean } {
    const desc = sort.startsWith("-");
    const key = desc ? sort.slice(1) : sort;
    if (key === "seq") return { sort: null, desc };
    const s = this.sorts.find((x) => x.key === key);
    if (!s) throw new ViewRequestError(`no sort "${key}" for ${this.run.env} runs`);
    return { sort: s, desc };
  }

  page(q: EpisodeQuery): EpisodePage {
    if (q.failed) return this.failedPage();
    const c = this.compile(q.filter);
    const { sort, desc } = this.sortOf(q.sort);
    if (sort === null && c.tests.length === 0) return this.keysetPage(q, c.where, c.key, desc);
    return this.indexPage(q, c, sort, desc);
  }

  private failedPage(): EpisodePage {
    const failed: FailedRow[] = this.store.failedTrials(this.run.id).map((f) => ({
      seq: f.seq,
      agent: f.agent,
      kind: f.failure.kind,
      message: (f.failure as { message?: string }).message ?? JSON.stringify(f.failure),
      turns: f.turns,
    }));
    return {
      items: [],
      matched: failed.length,
      next: null,
      prev: null,
      indexing: null,
      offset: null,
      failed,
    };
  }

  private matched(where: TrialWhere | undefined, key: string): number {
    if (where === undefined) return this.run.done;
    let n = this.counts.get(key);
    if (n === undefined) {
      n = countTrials(this.store, this.run.id, where);
      this.counts.set(key, n);
    }
    return n;
  }

  /** Planned order, either way: a window of seqs beside a cursor, one query (and one more row). */
  private keysetPage(
    q: EpisodeQuery,
    where: TrialWhere | undefined,
    key: string,
    desc: boolean,
  ): EpisodePage {
    const id = this.run.id;
    let rows: PagedTrial[];
    let beyond: boolean; // rows past the window's far end (in ascending order: after its last)
    let behind: boolean; // rows before its first
    if (q.before !== undefined || (desc && q.after === undefined)) {
      const from = q.before ?? Number.MAX_SAFE_INTEGER;
      const got = trialsBefore(this.store, id, from, PAGE_SIZE + 1, where);
      behind = got.length > PAGE_SIZE;
      rows = behind ? got.slice(1) : got;
      beyond = q.before !== undefined && trialsAfter(this.store, id, from - 1, 1, where).length > 0;
    } else {
      const from = q.after ?? -1;
      const got = trialsAfter(this.store, id, from, PAGE_SIZE + 1, where);
      beyond = got.length > PAGE_SIZE;
      rows = beyond ? got.slice(0, PAGE_SIZE) : got;
      behind = q.after !== undefined && trialsBefore(this.store, id, from + 1, 1, where).length > 0;
    }
    const first = rows[0]?.seq;
    const last = rows.at(-1)?.seq;
    const older = behind && first !== undefined ? queryString(q, { before: first }) : null;
    const newer = beyond && last !== undefined ? queryString(q, { after: last }) : null;
    const items = rows.map((t) => this.row(this.record(t)));
    return {
      items: desc ? items.reverse() : items,
      matched: this.matched(where, key),
      next: desc ? older : newer,
      prev: desc ? newer : older,
      indexing: null,
      offset: null,
      failed: null,
    };
  }

  private indexPage(
    q: EpisodeQuery,
    c: { where: TrialWhere | undefined; tests: ((r: TrialRecord) => boolean)[]; key: string },
    sort: WebSort | null,
    desc: boolean,
  ): EpisodePage {
    const indexKey = `${c.key}|${sort?.key ?? "seq"}`;
    let index = this.indexes.get(indexKey);
    if (!index) {
      index = this.buildIndex(c.where, c.tests, sort);
      this.indexes.set(indexKey, index);
      // The least recently used index goes when there are too many.
      if (this.indexes.size > MAX_INDEXES) {
        const oldest = [...this.indexes].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0]!;
        this.indexes.delete(oldest[0]);
      }
    }
    index.lastUsed = Date.now();
    if (!index.done)
      return {
        items: [],
        matched: null,
        next: null,
        prev: null,
        indexing: { done: index.scanned, total: index.total },
        offset: null,
        failed: null,
      };
    const n = index.seqs.length;
    const pages = Math.max(1, Math.ceil(n / PAGE_SIZE));
    const page = Math.min(q.page ?? 0, pages - 1);
    // Either way, episodes without a sort value come last.
    const at = (i: number) => index.seqs[desc && i < index.known ? index.known - 1 - i : i]!;
    const seqs: number[] = [];
    for (let i = page * PAGE_SIZE; i < Math.min(n, (page + 1) * PAGE_SIZE); i++) seqs.push(at(i));
    const byseq = new Map(this.store.trialRowsAt(this.run.id, seqs).map((t) => [t.seq, t]));
    const items = seqs.flatMap((s) => {
      const t = byseq.get(s);
      return t ? [this.row(this.record(t))] : [];
    });
    return {
      items,
      matched: n,
      next: page + 1 < pages ? queryString(q, { page: page + 1 }) : null,
      prev: page > 0 ? queryString(q, { page: page - 1 }) : null,
      indexing: null,
      offset: page * PAGE_SIZE,
      failed: null,
    };
  }

  /** Starts the pass that builds an index; it goes on a chunk at a time between other requests. */
  private buildIndex(
    where: TrialWhere | undefined,
    tests: ((r: TrialRecord) => boolean)[],
    sort: WebSort | null,
  ): SeqIndex {
    const index: SeqIndex = {
      seqs: new Int32Array(0),
      known: 0,
      done: false,
      scanned: 0,
      total: this.run.done,
      lastUsed: Date.now(),
    };
    const seqs: number[] = [];
    const keys: (number | null)[] = [];
    let after = -1;
    const step = () => {
      if (![...this.indexes.values()].includes(index)) return; // dropped meanwhile
      let rows: PagedTrial[];
      try {
        rows = trialsAfter(this.store, this.run.id, after, INDEX_CHUNK, where);
      } catch {
        return; // the store was closed: the server is shutting down
      }
      for (const t of rows) {
        after = t.seq;
        const record = tests.length > 0 || sort ? this.record(t) : null;
        if (record && !tests.every((test) => test(record))) continue;
        seqs.push(t.seq);
        if (sort) keys.push(sort.value(record!));
      }
      index.scanned += rows.length;
      if (rows.length === INDEX_CHUNK) {
        setImmediate(step);
        return;
      }
      if (sort) {
        const known = seqs.map((_, i) => i).filter((i) => keys[i] !== null);
        // Ties in planned order.
        known.sort((i, j) => keys[i]! - keys[j]! || i - j);
        const unknown = seqs.map((_, i) => i).filter((i) => keys[i] === null);
        index.seqs = Int32Array.from([...known, ...unknown], (i) => seqs[i]!);
        index.known = known.length;
      } else {
        index.seqs = Int32Array.from(seqs);
        index.known = seqs.length;
      }
      index.done = true;
    };
    setImmediate(step);
    return index;
  }
}

/** A request the viewer cannot answer as asked (an unknown filter, run or episode): a 400 or 404. */
export class ViewRequestError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}
