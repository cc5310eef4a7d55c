/**
 * Result types of the cue analysis. Premiums and price-equivalents are fractions of the reference
 * price (0.129 = 12.9%). A censored price-equivalent is a bound, never a number to rank.
 */

/** The model-free price-equivalent of one S(g) curve. */
export type PriceEquivalent =
  /** The curve crosses ½ at `value` (linear interpolation between the bracketing grid points). */
  | { kind: "point"; value: number }
  /** ‡ S(0) < ½: already dispreferred at equal price; PE ≤ 0, the base rate gives the sign. */
  | { kind: "floor"; baseRate: number }
  /** † No crossing by the top of the grid: PE > `bound` (= g_max). */
  | { kind: "right"; bound: number }
  /** No value at all: e.g. order-following pins the counterbalanced curve at ½. */
  | { kind: "not-identified"; reason: string };

/** A summary (a median, an interval end) that may be a bound because censored values enter it. */
export type BoundedValue =
  | { kind: "point"; value: number }
  | { kind: "at-most"; value: number }
  | { kind: "above"; value: number }
  | { kind: "unknown" };

/** One point of an S(g) curve: the cell-balanced rate of choosing the cued product at premium g. */
export interface CurvePoint {
  premium: number;
  /** null when no trial at this premium was answered. */
  rate: number | null;
  /** Answered trials at this premium. */
  n: number;
}

/** An interval end: a premium, or a censored bound — "floor" (PE ≤ 0) or "right" (PE > g_max). */
export type IntervalEnd = number | "floor" | "right";

/**
 * A pair-clustered bootstrap interval in which censored draws count as ±∞: the plain percentile
 * interval, and the interval to report — the percentile interval stretched for the small number of
 * pairs (see small-sample.ts), its ends clamped to the grid ("floor" below 0, "right" above g_max).
 */
export interface PeInterval {
  level: number;
  low: IntervalEnd;
  high: IntervalEnd;
  percentile: { low: IntervalEnd; high: IntervalEnd };
  /** Pairs resampled, and the stretch applied to each side of the percentile interval. */
  clusters: number;
  stretch: number;
  /** Bootstrap draws that were floor- or right-censored. */
  floorDraws: number;
  rightDraws: number;
  draws: number;
}

/** One trial as the estimators read it (the export contract, reduced). */
export interface CueObservation {
  agent: string;
  block: string;
  condition: string;
  family: string;
  intensity: string | null;
  oneSided: boolean;
  category: string;
  pairId: string;
  premium: number;
  cueTarget: "A" | "B";
  cuedFirst: boolean;
  instruction: number;
  factors: Record<string, boolean> | null;
  /** null for a non-response. */
  choseCued: boolean | null;
  /** 0 = the first card; null for a non-response. */
  chosenSlot: number | null;
  nonResponseReason: string | null;
}
