import type { BargainView } from "../../environments/bargain/types.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { floorCents, roundCents } from "../../environments/kernel/money.ts";
import { read } from "./view.ts";

/**
 * The OG-Narrator's Offer Generator: a deterministic schedule of offers as fractions of the budget,
 * with the reference code's acceptance rule. Linear (paper: 0.5 → 1.0 over `maxTurns` steps),
 * exponential (min(end, start · 1.1^i)), or a custom list of factors.
 */
export type OfferSchedule =
  | { kind: "linear"; start: number; end: number }
  | { kind: "exp"; start: number; end: number; growth: number }
  | { kind: "custom"; factors: number[] };

export const PAPER_SCHEDULE: OfferSchedule = { kind: "linear", start: 0.5, end: 1 };

/** The factor of each step; linear and exp schedules have `steps` of them, custom its own list. */
export function scheduleFactors(schedule: OfferSchedule, steps: number): number[] {
  if (schedule.kind === "custom") return schedule.factors.slice();
  const { start, end } = schedule;
  if (schedule.kind === "linear") {
    if (steps === 1) return [end];
    return Array.from({ length: steps }, (_, i) => start + (i / (steps - 1)) * (end - start));
  }
  return Array.from({ length: steps }, (_, i) => Math.min(end, start * (1 + schedule.growth) ** i));
}

const factorCache = new WeakMap<OfferSchedule, Map<number, number[]>>();

function cachedFactors(schedule: OfferSchedule, steps: number): readonly number[] {
  let bySteps = factorCache.get(schedule);
  if (!bySteps) {
    bySteps = new Map();
    factorCache.set(schedule, bySteps);
  }
  let factors = bySteps.get(steps);
  if (!factors) {
    factors = scheduleFactors(schedule, steps);
    bySteps.set(steps, factors);
  }
  return factors;
}

/** The price offered at a factor: f × budget to the cent, never above the budget. */
export function offerAt(factor: number, budget: number): number {
  return Math.min(roundCents(factor * budget), floorCents(budget));
}

export type OgDecision =
  | { type: "offer"; price: number }
  | { type: "deal"; price: number }
  | { type: "quit"; price: null };

/**
 * The generator's move for the buyer's view. It remembers every seller ask (the history). If its
 * next scheduled offer would be above the lowest ask so far, and that ask is within the budget, it
 * accepts that ask. After its last step it accepts the lowest ask within the budget, or quits.
 */
export function ogDecision(view: BargainView, schedule: OfferSchedule): OgDecision {
  const factors = cachedFactors(schedule, view.maxTurns);
  const r = read(view);
  const budget = view.limit;
  let lowest: number | null = null;
  for (const ask of r.counterOffers) if (lowest === null || ask < lowest) lowest = ask;
  if (r.step >= factors.length) {
    return lowest !== null && lowest <= budget
      ? { type: "deal", price: lowest }
      : { type: "quit", price: null };
  }
  const draft = offerAt(factors[r.step]!, budget);
  if (lowest !== null && draft > lowest && lowest <= budget) return { type: "deal", price: lowest };
  return { type: "offer", price: draft };
}

/**
 * Reads a schedule as typed on the command line: `linear`, `exp`, `linear:<start>:<end>`,
 * `exp:<start>:<end>`, or a comma-separated list of factors (`0.5,0.65,0.8,0.9,1`). Factors must
 * lie in (0, 1]: the generator never offers above the budget.
 */
export function parseSchedule(text: string): OfferSchedule {
  const bad = (why: string) =>
    new UserError(
      `--og-schedule "${text}": ${why}`,
      "use linear, exp, linear:0.5:1, exp:0.4:1, or factors such as 0.5,0.6,0.7,0.8,0.9,1",
    );
  const factor = (s: string) => {
    const x = Number(s);
    if (s.trim() === "" || !Number.isFinite(x) || x <= 0 || x > 1)
      throw bad(`"${s}" is not a factor in (0, 1]`);
    return x;
  };
  const [kind, ...rest] = text.trim().split(":");
  if (kind === "linear" || kind === "exp") {
    if (rest.length !== 0 && rest.length !== 2) throw bad("give both start and end, or neither");
    const [start, end] = rest.length === 2 ? [factor(rest[0]!), factor(rest[1]!)] : [0.5, 1];
    if (start > end) throw bad("the start factor is above the end factor");
    return kind === "linear" ? { kind, start, end } : { kind, start, end, growth: 0.1 };
  }
  if (rest.length > 0) throw bad(`unknown schedule "${kind}"`);
  const factors = text.split(",").map(factor);
  return { kind: "custom", factors };
}

/** The schedule as text (the inverse of parseSchedule), for labels and identities. */
export function scheduleText(s: OfferSchedule): string {
  if (s.kind === "custom") return s.factors.join(",");
  return `${s.kind}:${s.start}:${s.end}`;
}
