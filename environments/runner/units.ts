/**
 * A design's counterbalanced units and the looks of a run that stops itself. A unit is the set of
 * tasks that balance each other (a pair shown in both orders; a cue cell's four target × position
 * states): a run that stops early must stop between units, never inside one, or its sample would
 * carry a position effect the full design cancels.
 */
import { createRng } from "../kernel/rng.ts";

/** Units of the first look. Few enough that a position-locked agent is clear in a few dozen calls. */
export const FIRST_LOOK_UNITS = 10;
/**
 * Each look plays this factor more units than the last (at least one more): the overshoot past the
 * look where a target first holds is at most 15% of the units played, and a run of n units has about
 * log(n / 10) / log(1.15) looks — 40 for 3,000 units, each a cheap re-estimate.
 */
export const LOOK_GROWTH = 1.15;

/** The tasks of each unit (task indices in design order), units in the order their first task comes. */
export function designUnits(tasks: readonly unknown[], unitOf: (task: unknown) => string): number[][] {
  const byKey = new Map<string, number[]>();
  tasks.forEach((task, i) => {
    const key = unitOf(task);
    const unit = byKey.get(key);
    if (unit) unit.push(i);
    else byKey.set(key, [i]);
  });
  return [...byKey.values()];
}

/**
 * The order in which a run that stops itself plays its units: a seeded shuffle, so that any prefix
 * is a random sample of the design (the design lists tasks by kind and set, and a prefix of it is
 * not). Seeded by the run, so every runner of the run and every later invocation play the same order.
 */
export function unitOrder(units: number, seed: string): number[] {
  return createRng(`unit-order|${seed}`).shuffle(Array.from({ length: units }, (_, i) => i));
}

/**
 * How many units have been played at each look: FIRST_LOOK_UNITS, then LOOK_GROWTH times more each
 * time, the last look at the whole design. It depends on the design's size alone, never on the
 * target, so a run asked for ±0.6 looks at the same points as one asked for ±1.0: that is what lets
 * a tighter target extend a stopped run into the run it would have been.
 */
export function lookPoints(units: number, first = FIRST_LOOK_UNITS, growth = LOOK_GROWTH): number[] {
  if (!(Number.isInteger(units) && units >= 0))
    throw new RangeError(`lookPoints needs a unit count, got ${units}`);
  if (!(first >= 1 && growth > 1)) throw new RangeError(`lookPoints needs first ≥ 1 and growth > 1`);
  const looks: number[] = [];
  for (let at = Math.ceil(first); at < units; at = Math.max(at + 1, Math.ceil(at * growth))) looks.push(at);
  if (units > 0) looks.push(units);
  return looks;
}
