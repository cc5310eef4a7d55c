/**
 * Cue injection's precision target (`bazaar run cue --until pe±2pts`): every main-battery
 * condition's price-equivalent, in every category, as tight as asked. The PE a run stops on is the
 * logistic one — logit P(cued) = a + b·g + c·f with f = ±½ for the cued copy shown first or second,
 * so a and b describe the order-averaged curve and PE = −a/b, the premium where it crosses ½ —
 * whose Fieller interval is cheap to refit after every block; the headline's model-free PE and its
 * pair-clustered bootstrap are the same quantity read off the grid (logistic.ts cross-checks the two).
 */
import { PRICE_ONLY } from "../../datasets/products/schema.ts";
import { fitBinaryLogit } from "../logit/index.ts";
import { fiellerInterval, type TargetInterval } from "../stats/sequential.ts";
import type { EnvironmentEstimands, EstimandSpec, EstimandTracker, EstimandValue } from "../stats/targets.ts";
import { cueObservations } from "./observations.ts";

interface CueTaskFields {
  taskId?: unknown;
  block?: unknown;
  condition?: unknown;
  category?: unknown;
  premium?: unknown;
}

/**
 * A cue cell — one condition, pair and premium — is one unit: its four target × position states
 * (the task id's last part) balance each other, and a block takes all four or none.
 */
function unitOf(task: unknown): string {
  return String((task as CueTaskFields).taskId).replace(/\/[^/]*$/, "");
}

const informs = (task: unknown) => {
  const t = task as CueTaskFields;
  return t.block === "main" && t.condition !== PRICE_ONLY;
};

interface Cell {
  X: number[][];
  y: (0 | 1)[];
  pairs: Set<string>;
  /**
   * Answers and cued wins at each premium, per task (pair, cued product, position): the model-free
   * reading where the logit has none. Per task, because a task's replicates may be one answer
   * repeated.
   */
  byPremium: Map<number, Map<string, { pair: string; wins: number; n: number }>>;
  start?: number[];
}

/** What the design holds of the main battery: its conditions (per category) and its price grid. */
interface CueDesign {
  cells: Set<string>;
  /** The grid's first positive premium, and its top. */
  first: number | null;
  top: number;
}

const cellKey = (condition: unknown, category: unknown) => `${condition} (${category})`;

function designOf(tasks: readonly unknown[] | undefined): CueDesign | null {
  if (!tasks) return null;
  const cells = new Set<string>();
  let first: number | null = null;
  let top = 0;
  for (const task of tasks) {
    if (!informs(task)) continue;
    const t = task as CueTaskFields;
    cells.add(cellKey(t.condition, t.category));
    const g = Number(t.premium);
    if (g > 0 && (first === null || g < first)) first = g;
    top = Math.max(top, g);
  }
  return { cells, first, top };
}

type Resolved =
  | { kind: "point"; interval: TargetInterval }
  | { kind: "beyond"; why: string }
  | { kind: "open"; why: string };

/**
 * One condition's PE. A Fieller interval wholly above the grid's top (or wholly below 0) settles
 * the condition as censored — the headline reports "PE > g_max" (or "≤ 0") there, no number to
 * narrow; an unbounded one (a slope that may be 0: a price-blind agent, or too few trials) leaves
 * it open.
 */
function resolve(cell: Cell, gMax: number, first: number | null, level: number): Resolved {
  if (cell.y.length === 0) return { kind: "open", why: "no answers yet" };
  let fit = fitBinaryLogit(
    { X: cell.X, y: cell.y, names: ["intercept", "premium", "cuedFirst"] },
    cell.start ? { start: cell.start } : undefined,
  );
  if (fit.status !== "ok" && cell.start)
    fit = fitBinaryLogit({ X: cell.X, y: cell.y, names: ["intercept", "premium", "cuedFirst"] });
  if (fit.status !== "ok") return belowGrid(cell, first, level) ?? { kind: "open", why: fit.reason };
  cell.start = fit.coefficients.map((c) => c.estimate);
  const [a, b] = cell.start as [number, number];
  const v = fit.vcov;
  // PE = −a / b: numerator −a, denominator b.
  const interval = fiellerInterval(-a, b, v[0]![0]!, v[1]![1]!, -v[0]![1]!, cell.pairs.size, level);
  if (interval === null || !(b < 0)) return { kind: "open", why: "the price slope is not yet below 0" };
  if (interval.low > gMax) return { kind: "beyond", why: `PE above the grid's ${Math.round(gMax * 100)}%` };
  if (interval.high < 0) return { kind: "beyond", why: "PE below 0 (the cued copy loses at equal price)" };
  return { kind: "point", interval };
}

/** P(X ≤ wins) for X ~ Binomial(n, ½), summed in logs (2^−n underflows past n = 1,074). */
function binomialHalfCdf(wins: number, n: number): number {
  let logTerm = -n * Math.LN2;
  let logSum = logTerm;
  for (let k = 0; k < wins; k++) {
    logTerm += Math.log((n - k) / (k + 1));
    const hi = Math.max(logSum, logTerm);
    logSum = hi + Math.log(Math.exp(logSum - hi) + Math.exp(logTerm - hi));
  }
  return Math.exp(logSum);
}

/**
 * A condition whose cued copy (almost) never wins once it costs more — a cue with no pull — has
 * separated data: the logit has no finite slope and no Fieller interval, yet the crossing is
 * plainly below the grid's first step, and more trials cannot place it between grid points. It
 * settles as censored (the headline's "n.i." logit PE, model-free PE ≤ the first step) once the
 * cued copy's win rate at the grid's first positive premium is below ½ by the exact binomial test at
 * the interval's one-sided level: with a win rate falling in the premium, the crossing is below it.
 * Only then: the cell must have answers at that step and at another premium (else the fit failed
 * for want of a premium's variation, not for separation), from at least two pairs; the test counts
 * tasks, each by its replicates' majority (a tie counts as a win), since a task's replicates may be
 * one answer repeated.
 */
function belowGrid(cell: Cell, first: number | null, level: number): Resolved | null {
  if (first === null || cell.byPremium.size < 2) return null;
  const tasks = [...(cell.byPremium.get(first)?.values() ?? [])];
  if (new Set(tasks.map((t) => t.pair)).size < 2) return null;
  const wins = tasks.filter((t) => 2 * t.wins >= t.n).length;
  if (!(binomialHalfCdf(wins, tasks.length) < (1 - level) / 2)) return null;
  return {
    kind: "beyond",
    why: `PE below the grid's first step (${+(first * 100).toFixed(2)}%): the cued copy won ${wins} of ${tasks.length} tasks there`,
  };
}

/**
 * `designTasks` (the run's design) name the conditions every PE must come from and the price grid;
 * without them (a tracker fed only records) the grid is what the records show.
 */
function peTracker(level: number, _designTrials: number, designTasks?: readonly unknown[]): EstimandTracker {
  const cells = new Map<string, Cell>();
  const design = designOf(designTasks);
  let gMax = 0;
  let gFirst: number | null = null;
  return {
    add(records) {
      for (const o of cueObservations(records)) {
        if (o.block !== "main" || o.condition === PRICE_ONLY || o.choseCued === null) continue;
        const key = cellKey(o.condition, o.category);
        const cell: Cell = cells.get(key) ?? { X: [], y: [], pairs: new Set(), byPremium: new Map() };
        cell.X.push([1, o.premium, o.cuedFirst ? 0.5 : -0.5]);
        cell.y.push(o.choseCued ? 1 : 0);
        cell.pairs.add(o.pairId);
        const byTask = cell.byPremium.get(o.premium) ?? new Map();
        const task = `${o.pairId}|${o.cueTarget}|${o.cuedFirst}`;
        const at = byTask.get(task) ?? { pair: o.pairId, wins: 0, n: 0 };
        at.n++;
        if (o.choseCued) at.wins++;
        byTask.set(task, at);
        cell.byPremium.set(o.premium, byTask);
        cells.set(key, cell);
        gMax = Math.max(gMax, o.premium);
        if (o.premium > 0 && (gFirst === null || o.premium < gFirst)) gFirst = o.premium;
      }
    },
    value(): EstimandValue {
      if (cells.size === 0) return { interval: null, why: "no answered main-battery trials yet" };
      // Every condition of the design counts: one not yet answered is open, not absent.
      for (const key of [...(design?.cells ?? [])].sort())
        if (!cells.has(key)) return { interval: null, why: `${key}: no answers yet` };
      const top = design ? Math.max(design.top, gMax) : gMax;
      const first = design ? design.first : gFirst;
      let widest: { key: string; interval: TargetInterval } | null = null;
      let beyond = 0;
      for (const [key, cell] of [...cells].sort(([a], [b]) => a.localeCompare(b))) {
        const r = resolve(cell, top, first, level);
        if (r.kind === "open") return { interval: null, why: `${key}: ${r.why}` };
        if (r.kind === "beyond") beyond++;
        else if (!widest || r.interval.halfWidth > widest.interval.halfWidth)
          widest = { key, interval: r.interval };
      }
      if (!widest) return { interval: null, why: "every condition's PE lies beyond the grid", settled: true };
      return {
        interval: widest.interval,
        detail: `widest of ${cells.size} conditions: ${widest.key}${beyond > 0 ? `; ${beyond} beyond the grid` : ""}`,
      };
    },
  };
}

const ESTIMANDS: EstimandSpec[] = [
  {
    name: "pe",
    label: "PE",
    family: "ratio",
    unit: "pts",
    description:
      "every main-battery condition's price-equivalent (the premium, in points of the reference price, at which the cued copy wins half the time; logistic, Fieller interval): the widest must be this tight",
    informs,
    requires: "pe is read off the main battery's conditions: include the main block (--blocks main)",
    tracker: peTracker,
  },
];

export const CUE_ESTIMANDS: EnvironmentEstimands = { env: "cue", estimands: ESTIMANDS, unitOf };
