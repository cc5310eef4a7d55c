/**
 * What a precision target (`--until beta-lnp±1.0`) is made of, environment by environment: the
 * estimands an environment offers, how each one's half-width is written, which tasks inform it, and
 * a tracker that turns an agent's trial records, block by block, into the estimate and the interval
 * the stopping rule compares with the target (sequential.ts). Pure: records in, intervals out.
 */
import { dollars, sig } from "../report/format.ts";
import type { EstimandFamily, TargetInterval } from "./sequential.ts";

/**
 * How a half-width is written: `pts`, percentage points of a share or of a price premium
 * (`success±5pts`); `usd`, dollars (`wtp±$5`); `plain`, a bare number in the estimand's own
 * unit (`beta-lnp±1.0`, utils per unit of ln price).
 */
export type HalfWidthUnit = "pts" | "usd" | "plain";

/** One agent's estimate so far: its interval, or why it has none yet. */
export type EstimandValue =
  | {
      interval: TargetInterval;
      /** Where the interval comes from when it is one of several (the widest condition of a PE). */
      detail?: string;
    }
  | {
      interval: null;
      why: string;
      /**
       * The estimand does not apply to this agent, and more trials will not change that (a
       * position-locked agent has no price coefficient): its target asks nothing more of the run.
       */
      settled?: boolean;
    };

/** Takes an agent's trial records a block at a time (earlier blocks are kept) and re-estimates. */
export interface EstimandTracker {
  add(records: readonly Record<string, unknown>[]): void;
  value(): EstimandValue;
}

export interface EstimandSpec {
  /** As written on the command line. */
  name: string;
  /** As printed in a table. */
  label: string;
  family: EstimandFamily;
  unit: HalfWidthUnit;
  /** One line: what the estimate is and how its interval is formed. */
  description: string;
  /** Whether a task's trials enter the estimate: units that inform no target are not played. */
  informs(task: unknown): boolean;
  /** What a design needs for the estimand, said when no task of a run's design informs it. */
  requires?: string;
  /**
   * A fresh tracker (one per agent). `designTrials`: the agent's trials in the whole design, for an
   * estimand that is a total over the design (a bargaining buyer's SNP); `designTasks`: the design's
   * tasks, for an estimand over every cell of the design (cue's PE of every condition).
   */
  tracker(level: number, designTrials: number, designTasks?: readonly unknown[]): EstimandTracker;
}

/** An environment's estimands, and how its design groups tasks into counterbalanced units. */
export interface EnvironmentEstimands {
  env: string;
  estimands: readonly EstimandSpec[];
  /**
   * The key of a task's counterbalanced unit: tasks with the same key are played together (a
   * pair's two display orders; a cue cell's four target × position states), so a block never holds
   * half of a counterbalanced set.
   */
  unitOf(task: unknown): string;
}

/** A target as the run records it: an estimand and a half-width in the estimand's own scale. */
export interface PrecisionTarget {
  estimand: string;
  /** In the estimand's scale: a share's in [0, 1] (5pts = 0.05), dollars, or the bare number. */
  halfWidth: number;
  /** As the user wrote it (`beta-lnp±1.0`), for messages. */
  written: string;
}

/**
 * A half-width an estimate has, as `analyze`, the look lines and the live views show it:
 * `±2.1pts`, `±$4.31`, `±0.939`.
 */
export function shownHalfWidth(x: number, unit: HalfWidthUnit): string {
  return unit === "pts" ? `±${(100 * x).toFixed(1)}pts` : unit === "usd" ? `±${dollars(x)}` : `±${sig(x)}`;
}

/** The half-width as it is written back: `±5pts`, `±$5`, `±1`. */
export function formatHalfWidth(halfWidth: number, unit: HalfWidthUnit): string {
  const num = (x: number) => String(Number(x.toPrecision(6)));
  if (unit === "pts") return `±${num(halfWidth * 100)}pts`;
  if (unit === "usd") return `±$${num(halfWidth)}`;
  return `±${num(halfWidth)}`;
}
