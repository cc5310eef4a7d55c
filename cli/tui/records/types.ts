/**
 * What the terminal views are drawn from. A trial record (the export contract of its environment)
 * goes through the environment's adapter into plain view models; components only lay those out.
 * Every adapter reads its record fields in one place, so a renamed field is a one-line fix there.
 */
import type { LiveTurn } from "../../../environments/store/live.ts";
import type { TrialCondition } from "../../../environments/store/trial-pages.ts";

export type { LiveTurn };

/** A trial record as the runner hands it to `onTrial` and as `export` writes it. */
export type TrialRecord = Readonly<Record<string, unknown>>;

/** One finished episode as a line of the feed or of the replay list. */
export interface EpisodeSummary {
  seq: number;
  agent: string;
  /** What happened, briefly: "B", "deal $123.40", "no deal (quit)", "no answer". */
  outcome: string;
  /** One more fact worth a glance: the hotel booked, the product, the number given. */
  detail: string;
  nonResponse: boolean;
  /** Turns the episode view steps through (messages of a dialogue, answers after re-asks). */
  steps: number;
  /** An agent failure (a model error after retries) rather than an unusable answer. */
  error: string | null;
}

/** A labelled figure of the running statistics panel. */
export interface StatLine {
  label: string;
  value: string;
}

export interface StatsView {
  title: string;
  lines: StatLine[];
}

/**
 * Running statistics of one agent, folded one record at a time. `add` mutates (the live view folds
 * every trial of a run); `clone` copies a state for replay checkpoints.
 */
export interface StatsFold<S> {
  init(): S;
  add(state: S, record: TrialRecord): void;
  clone(state: S): S;
  /** The figures to show, for the episode `current` where they depend on it (elicitation's query). */
  view(state: S, current: TrialRecord | null): StatsView;
}

/**
 * One value of a replay filter: store conditions (SQLite finds the matches) and/or a test on the
 * record (the replay scans pages for matches — always right by the export contract, slower).
 */
export interface FacetValue {
  value: string;
  label: string;
  conditions?: TrialCondition[];
  test?: (record: TrialRecord) => boolean;
}

/** An environment's own replay filter (outcome, MI/CI); agent and non-response are common to all. */
export interface FilterFacet {
  key: string;
  /** The key that cycles this filter in `bazaar watch` (a, n and c are taken). */
  hotkey: string;
  label: string;
  values: FacetValue[];
}

/** Any episode model: `kind` picks the view; `steps` is how many turns ←/→ step through. */
export interface EpisodeBase {
  seq: number;
  agent: string;
  env: string;
  steps: number;
  /** An episode still in flight: drawn from its turns so far, with no outcome yet. */
  live?: boolean;
}

/** An episode in flight as the live views know it: its turns so far (from the runner or the store). */
export interface LiveEpisodeState {
  seq: number;
  agent: string;
  startedAt: number;
  turns: readonly LiveTurn[];
}

export interface EnvAdapter<M extends EpisodeBase, S> {
  env: string;
  /**
   * The view model, or a reason the record does not fit (then the generic view shows it). `task` is
   * the trial's task where the caller has it (the replay, the live run's plan): records carry ids
   * where the task has the full text.
   */
  model(record: TrialRecord, task?: unknown): M | { mismatch: string };
  summary(record: TrialRecord): EpisodeSummary;
  /** Whether the episode was a non-response or an agent failure: called for every trial of a live run, so cheap. */
  status(record: TrialRecord): { nonResponse: boolean; error: string | null };
  stats: StatsFold<S>;
  facets: FilterFacet[];
  /**
   * The view model of an episode still in flight, from its task and turns so far (the bargaining
   * dialogue and price ladder grow turn by turn); without it, the turns are listed generically.
   */
  live?(episode: LiveEpisodeState, task: unknown): M | { mismatch: string };
}

/** Reads a field that must be a string, or "" (adapters never throw on a record). */
export function str(r: TrialRecord, key: string): string {
  const v = r[key];
  return typeof v === "string" ? v : v === undefined || v === null ? "" : String(v);
}

export function num(r: TrialRecord, key: string): number | null {
  const v = r[key];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** The non-response of a record (`nonResponse: { reason, raw } | null` in every contract). */
export function nonResponseOf(r: TrialRecord): { reason: string; raw: string } | null {
  const v = r.nonResponse;
  if (v && typeof v === "object") {
    const o = v as { reason?: unknown; raw?: unknown };
    return { reason: String(o.reason ?? "non-response"), raw: String(o.raw ?? "") };
  }
  return null;
}

/** An agent failure reads "agent error: …" in a non-response reason (see the kernel's agent.error). */
export function agentErrorOf(reason: string | null | undefined): string | null {
  return reason?.startsWith("agent error") ? reason : null;
}
