/**
 * Trials of one condition counted per (pair, premium, state) cell, the four states being cue target
 * (A, B) × cued position (first, second). Every curve is cell-balanced — the mean over cells of each
 * cell's rate of choosing the cued product — so each state and each pair carries the weight the
 * design gives it even when non-responses leave cells uneven. The pair-clustered bootstrap re-weights
 * whole pairs, which is why counts are kept per pair.
 */
import type { CueObservation, CurvePoint } from "./types.ts";

export const STATE_COUNT = 4;

/** State index: cue on A (0, 1) or B (2, 3); cued product shown first (even) or second (odd). */
export function stateIndex(cueTarget: "A" | "B", cuedFirst: boolean): number {
  return (cueTarget === "B" ? 2 : 0) + (cuedFirst ? 0 : 1);
}

export const ALL_STATES: readonly number[] = [0, 1, 2, 3];
export const CUED_FIRST_STATES: readonly number[] = [0, 2];
export const CUED_SECOND_STATES: readonly number[] = [1, 3];

export interface CellTable {
  pairs: string[];
  premiums: number[];
  /** Cued-product choices, answered trials and first-card choices, indexed [pair][premium][state]. */
  chosen: Float64Array;
  answered: Float64Array;
  firstChosen: Float64Array;
  /** Non-responses per pair (all premiums and states). */
  nonResponses: Float64Array;
}

export function cellIndex(t: CellTable, pair: number, premium: number, state: number): number {
  return (pair * t.premiums.length + premium) * STATE_COUNT + state;
}

/** Counts a condition's trials. `premiums` fixes the grid (every premium seen is added to it). */
export function buildCellTable(observations: readonly CueObservation[]): CellTable {
  const pairs = [...new Set(observations.map((o) => o.pairId))].sort();
  const premiums = [...new Set(observations.map((o) => o.premium))].sort((a, b) => a - b);
  const size = pairs.length * premiums.length * STATE_COUNT;
  const t: CellTable = {
    pairs,
    premiums,
    chosen: new Float64Array(size),
    answered: new Float64Array(size),
    firstChosen: new Float64Array(size),
    nonResponses: new Float64Array(pairs.length),
  };
  const pairIndex = new Map(pairs.map((p, i) => [p, i]));
  const premiumIndex = new Map(premiums.map((g, i) => [g, i]));
  for (const o of observations) {
    const p = pairIndex.get(o.pairId) as number;
    if (o.choseCued === null) {
      t.nonResponses[p] = (t.nonResponses[p] as number) + 1;
      continue;
    }
    const i = cellIndex(t, p, premiumIndex.get(o.premium) as number, stateIndex(o.cueTarget, o.cuedFirst));
    t.answered[i] = (t.answered[i] as number) + 1;
    if (o.choseCued) t.chosen[i] = (t.chosen[i] as number) + 1;
    if (o.chosenSlot === 0) t.firstChosen[i] = (t.firstChosen[i] as number) + 1;
  }
  return t;
}

/**
 * The cell-balanced curve over the given states, with pair p weighted by `weights[p]` (1 for every
 * pair in the data; bootstrap multiplicities in a resample). `of` picks the numerator: cued-product
 * choices (the S(g) curve) or first-card choices (the first-option rate).
 */
export function balancedCurve(
  t: CellTable,
  states: readonly number[],
  weights?: ArrayLike<number>,
  of: "chosen" | "firstChosen" = "chosen",
): CurvePoint[] {
  const numer = t[of];
  return t.premiums.map((premium, g) => {
    let sum = 0;
    let cells = 0;
    let n = 0;
    for (let p = 0; p < t.pairs.length; p++) {
      const w = weights ? (weights[p] as number) : 1;
      if (w === 0) continue;
      for (const s of states) {
        const i = cellIndex(t, p, g, s);
        const a = t.answered[i] as number;
        if (a === 0) continue;
        sum += (w * (numer[i] as number)) / a;
        cells += w;
        n += w * a;
      }
    }
    return { premium, rate: cells > 0 ? sum / cells : null, n };
  });
}

/** Weights that keep one pair only (its own curve). */
export function onlyPair(t: CellTable, pair: number): Float64Array {
  const w = new Float64Array(t.pairs.length);
  w[pair] = 1;
  return w;
}
