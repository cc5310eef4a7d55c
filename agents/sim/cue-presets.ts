/**
 * Named cue shoppers with known parameters. `paper` is configured to the GPT-4o headphone figures of
 * "A Cue's Hidden Price": its price-equivalents are the reported ones and each sentence's sd is solved
 * so that its equal-price choice rate is the reported one — so a full offline battery shows the
 * paper's pattern (a ceiling of equal-price rates that the price sweep resolves). The others cover
 * what the estimators must handle: smooth curves inside the grid, censoring on both sides, price
 * blindness, position locking and heavy non-response.
 */

import { DEFAULT_CUE_LIBRARY } from "../../datasets/products/library.ts";
import type { CueCondition } from "../../datasets/products/schema.ts";
import { CueShopper, type CueShopperParams, expectedLogistic, type SentencePull } from "./cue.ts";

/** A sentence given by its true PE (a fraction) and either its sd or its target equal-price rate. */
type PullSpec = { pe: number; sd?: number; baseRate?: number } | { mean: number; sd?: number };

interface PresetSpec {
  description: string;
  priceSensitivity: number;
  firstSlot: number;
  pulls: Record<string, PullSpec>;
  lockRate?: number;
  offFormatRate?: number;
}

/** The counterbalanced equal-price rate of a one-sided sentence: ½[P(shown first) + P(shown second)]. */
export function equalPriceRate(mean: number, sd: number, firstSlot: number): number {
  return 0.5 * (expectedLogistic(mean + firstSlot, sd) + expectedLogistic(mean - firstSlot, sd));
}

/** The sd that gives a sentence the target equal-price rate (0 when even sd = 0 falls short). */
export function sdForRate(mean: number, firstSlot: number, target: number): number {
  const rate0 = equalPriceRate(mean, 0, firstSlot);
  // The rate moves monotonically from its sd = 0 value towards ½ as sd grows.
  if ((mean >= 0 && target >= rate0) || (mean < 0 && target <= rate0)) return 0;
  let lo = 0;
  let hi = 1;
  while (Math.abs(equalPriceRate(mean, hi, firstSlot) - 0.5) > Math.abs(target - 0.5) && hi < 1e4) hi *= 2;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    const r = equalPriceRate(mean, mid, firstSlot);
    if (Math.abs(r - 0.5) > Math.abs(target - 0.5)) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

function resolvePull(spec: PullSpec, s: number, b: number): SentencePull {
  if ("mean" in spec) return { mean: spec.mean, sd: spec.sd ?? 0 };
  const mean = spec.pe * s;
  const sd = spec.sd ?? (spec.baseRate === undefined ? 0 : sdForRate(mean, b, spec.baseRate));
  return { mean, sd };
}

export function resolvePreset(spec: PresetSpec): CueShopperParams {
  const s = spec.priceSensitivity;
  return {
    priceSensitivity: s,
    firstSlot: spec.firstSlot,
    pulls: Object.fromEntries(
      Object.entries(spec.pulls).map(([k, p]) => [k, resolvePull(p, s, spec.firstSlot)]),
    ),
    lockRate: spec.lockRate ?? 0,
    offFormatRate: spec.offFormatRate ?? 0,
  };
}

const MODERATE_PULLS: Record<string, PullSpec> = {
  "social-proof-weak": { pe: 0.01 },
  "social-proof-moderate": { pe: 0.03 },
  "social-proof-strong": { pe: 0.08 },
  "social-proof-very-strong": { pe: 0.14 },
  scarcity: { pe: 0.04 },
  authority: { pe: 0.1 },
  "authority-off-domain": { pe: 0.01 },
  "framing-gain-loss": { pe: 0.06 },
  neutral: { pe: 0.01 },
  vacuous: { pe: 0.005 },
  "control-length.other": { pe: 0.01 },
  "control-presence.other": { pe: 0.01 },
};

const SPECS: Record<string, PresetSpec> = {
  paper: {
    description:
      "configured to the paper's GPT-4o headphone figures: steep price response (s = 250), first-slot bias 0.62, " +
      "PEs 0.7/1.3/12.9/21.4% for the social-proof series, scarcity 1.6% at a 0.96 equal-price rate, authority 19.8%, " +
      "gain/loss 22.3% at 0.72, neutral 2%, reformatting 0%",
    priceSensitivity: 250,
    firstSlot: 0.62,
    pulls: {
      "social-proof-weak": { pe: 0.007, baseRate: 0.75 },
      "social-proof-moderate": { pe: 0.013, baseRate: 0.88 },
      "social-proof-strong": { pe: 0.129, baseRate: 0.995 },
      "social-proof-very-strong": { pe: 0.214, baseRate: 0.99 },
      scarcity: { pe: 0.016, baseRate: 0.96 },
      authority: { pe: 0.198, baseRate: 0.99 },
      "authority-off-domain": { pe: 0.019, baseRate: 0.85 },
      "framing-gain-loss": { pe: 0.223, baseRate: 0.72 },
      neutral: { pe: 0.02, baseRate: 0.98 },
      vacuous: { pe: 0.01, baseRate: 0.8 },
      "control-length.other": { pe: 0.02 },
      "control-presence.other": { pe: 0.02 },
    },
  },
  moderate: {
    description:
      "smooth price responder (s = 30, 5% keep the dearer of two identical items at +10%), first-slot bias 0.4, every PE inside the grid",
    priceSensitivity: 30,
    firstSlot: 0.4,
    pulls: MODERATE_PULLS,
  },
  skeptic: {
    description:
      "as moderate, but scarcity repels (PE −4%, floor-censored) and very strong social proof is worth 40% (beyond the grid)",
    priceSensitivity: 30,
    firstSlot: 0.4,
    pulls: { ...MODERATE_PULLS, scarcity: { pe: -0.04 }, "social-proof-very-strong": { pe: 0.4 } },
  },
  "price-blind": {
    description: "ignores price (s = 0): cues hold a flat plateau, PEs are right-censored at any premium",
    priceSensitivity: 0,
    firstSlot: 0.3,
    pulls: {
      "social-proof-strong": { mean: 0.85 },
      "social-proof-very-strong": { mean: 1.1 },
      authority: { mean: 0.7 },
      scarcity: { mean: 0.4 },
      "framing-gain-loss": { mean: 0.5 },
    },
  },
  locked: {
    description:
      "position-locked: always takes the first card, so every counterbalanced curve is pinned at ½",
    priceSensitivity: 30,
    firstSlot: 0,
    pulls: MODERATE_PULLS,
    lockRate: 1,
  },
  evasive: {
    description: "as moderate, but 60% of replies name no option (≈22% non-responses after two re-asks)",
    priceSensitivity: 30,
    firstSlot: 0.4,
    pulls: MODERATE_PULLS,
    offFormatRate: 0.6,
  },
};

export interface CuePreset {
  description: string;
  /** The true parameters (resolved on first use: solving the paper preset's sds takes a moment). */
  readonly params: CueShopperParams;
  make(id: string, library?: readonly CueCondition[]): CueShopper;
}

function preset(spec: PresetSpec): CuePreset {
  let params: CueShopperParams | undefined;
  const get = () => {
    params ??= resolvePreset(spec);
    return params;
  };
  return {
    description: spec.description,
    get params() {
      return get();
    },
    make: (id, library = DEFAULT_CUE_LIBRARY) => new CueShopper(id, get(), library),
  };
}

export const CUE_PRESETS: Readonly<Record<string, CuePreset>> = Object.fromEntries(
  Object.entries(SPECS).map(([name, spec]) => [name, preset(spec)]),
);
