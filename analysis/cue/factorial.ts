/**
 * The additivity test on the 2³ factorial: three cues each present or absent in a fixed slot that
 * otherwise holds a length-matched neutral filler.
 *
 * Log-odds scale: logit P(cued) = a + β·g + γ·f + Σ main effects + Σ interactions, with the factors
 * and f (cued shown first) effect-coded ±½, so each two-way term is averaged over the third cue.
 * Each of the four interaction terms is tested and the p-values Holm-corrected. Inference is
 * model-based: with six pairs there are fewer clusters than the model's eleven coefficients, and a
 * cluster-robust covariance would be singular.
 *
 * Price scale: cues that add in price need not add in log-odds (a cue whose pull varies from trial
 * to trial flattens its curve, and a flatter curve has smaller log-odds at the same PE). So each
 * cell also gets its own logit, α + β·g + γ·f, whose PE −α/β is where its fitted counterbalanced
 * curve crosses ½ (exact, as γ enters symmetrically), and each factorial contrast of cell PEs — for
 * a term T, 2^{|T|−3}·Σ_cells Π_{k∈T}(2c_k − 1)·PE(cell): a main effect is the PE a cue adds
 * averaged over the others, a two-way interaction ½Σ[PE₁₁ − PE₁₀ − PE₀₁ + PE₀₀], the three-way the
 * alternating sum of all eight — gets a delta-method interval (the cells are independent fits).
 * Fitted PEs need no censoring (the fillers-only cell sits at 0 and may come out just below it) and
 * carry no grid-interpolation error, which model-free cell PEs on a coarse grid would add to every
 * contrast.
 */
import { fitBinaryLogit } from "../logit/index.ts";
import { adjustPValues, normalQuantile, twoSidedNormalP } from "../stats/index.ts";
import type { CueObservation } from "./types.ts";

export interface PriceContrast {
  /** Fraction of price; null when a cell's logit is not identified. */
  value: number | null;
  low: number | null;
  high: number | null;
  p: number | null;
}

export interface FactorialTerm {
  /** e.g. "social-proof-strong × authority". */
  term: string;
  factors: string[];
  /** Log-odds coefficient, model-based SE and p-value; Holm-adjusted over the four interactions. */
  estimate: number;
  se: number;
  p: number;
  holmP: number | null;
  price: PriceContrast;
}

export interface FactorialCellFit {
  cell: string;
  /** −α/β of the cell's own logit (fraction of price) and its delta-method SE; null if not identified. */
  pe: number | null;
  se: number | null;
  note: string | null;
}

export type FactorialResult =
  | {
      status: "ok";
      factors: string[];
      trials: number;
      level: number;
      cells: FactorialCellFit[];
      mainEffects: FactorialTerm[];
      interactions: FactorialTerm[];
      /** No interaction survives Holm correction at 5% on the log-odds scale. */
      logOddsAdditive: boolean;
      /** Every price-scale interaction contrast has an interval spanning 0 (null if none estimable). */
      priceAdditive: boolean | null;
    }
  | { status: "not-identified"; factors: string[]; reason: string };

/** Every non-empty subset of the three factors: main effects, then pairs, then the three-way term. */
const TERMS: number[][] = [[0], [1], [2], [0, 1], [0, 2], [1, 2], [0, 1, 2]];

/** Cell index 0–7 from the factor levels, first factor the high bit ("additivity-101" = 5). */
function cellOf(levels: readonly boolean[]): number {
  return (levels[0] ? 4 : 0) + (levels[1] ? 2 : 0) + (levels[2] ? 1 : 0);
}

function weight(term: readonly number[], cell: number): number {
  const bits = [(cell >> 2) & 1, (cell >> 1) & 1, cell & 1];
  let sign = 1;
  for (const k of term) sign *= 2 * (bits[k] as number) - 1;
  return sign / 2 ** (3 - term.length);
}

function fitCell(cell: number, observations: readonly CueObservation[]): FactorialCellFit {
  const label = cell.toString(2).padStart(3, "0");
  const answered = observations.filter((o) => o.choseCued !== null);
  if (answered.length === 0) return { cell: label, pe: null, se: null, note: "no answered trials" };
  const fit = fitBinaryLogit({
    X: answered.map((o) => [1, o.premium, o.cuedFirst ? 0.5 : -0.5]),
    y: answered.map((o) => (o.choseCued ? 1 : 0)),
    names: ["intercept", "premium", "cuedFirst"],
  });
  if (fit.status !== "ok") return { cell: label, pe: null, se: null, note: fit.reason };
  const a = fit.coefficients[0]?.estimate as number;
  const b = fit.coefficients[1]?.estimate as number;
  const V = fit.vcov;
  const [vaa, vbb, vab] = [V[0]?.[0] as number, V[1]?.[1] as number, V[0]?.[1] as number];
  // PE = −a/b: ∂/∂a = −1/b, ∂/∂b = a/b².
  const variance = vaa / (b * b) + (a * a * vbb) / b ** 4 - (2 * a * vab) / b ** 3;
  return { cell: label, pe: -a / b, se: Math.sqrt(Math.max(0, variance)), note: null };
}

function priceContrast(
  term: readonly number[],
  cells: readonly FactorialCellFit[],
  z: number,
): PriceContrast {
  let value = 0;
  let variance = 0;
  for (let c = 0; c < 8; c++) {
    const fit = cells[c] as FactorialCellFit;
    if (fit.pe === null || fit.se === null) return { value: null, low: null, high: null, p: null };
    const w = weight(term, c);
    value += w * fit.pe;
    variance += w * w * fit.se * fit.se;
  }
  const se = Math.sqrt(variance);
  return { value, low: value - z * se, high: value + z * se, p: se > 0 ? twoSidedNormalP(value / se) : null };
}

export function analyzeFactorial(
  observations: readonly CueObservation[],
  level = 0.95,
  alpha = 0.05,
): FactorialResult {
  const withFactors = observations.filter((o) => o.factors !== null);
  const factors = withFactors[0] ? Object.keys(withFactors[0].factors as Record<string, boolean>) : [];
  if (factors.length !== 3)
    return { status: "not-identified", factors, reason: "the additivity block needs three factors" };
  const levels = (o: CueObservation) =>
    factors.map((f) => (o.factors as Record<string, boolean>)[f] === true);
  const byCell: CueObservation[][] = Array.from({ length: 8 }, () => []);
  for (const o of withFactors) byCell[cellOf(levels(o))]?.push(o);
  const missing = byCell.findIndex((c) => c.length === 0);
  if (missing >= 0)
    return {
      status: "not-identified",
      factors,
      reason: `cell ${missing.toString(2).padStart(3, "0")} has no trials`,
    };
  const answered = withFactors.filter((o) => o.choseCued !== null);
  if (answered.length === 0) return { status: "not-identified", factors, reason: "no answered trials" };
  const names = [
    "intercept",
    "premium",
    "cuedFirst",
    ...TERMS.map((t) => t.map((i) => factors[i] as string).join(" × ")),
  ];
  const fit = fitBinaryLogit({
    X: answered.map((o) => {
      const code = levels(o).map((on) => (on ? 0.5 : -0.5));
      return [
        1,
        o.premium,
        o.cuedFirst ? 0.5 : -0.5,
        ...TERMS.map((t) => t.reduce((p, i) => p * (code[i] as number), 1)),
      ];
    }),
    y: answered.map((o) => (o.choseCued ? 1 : 0)),
    names,
  });
  if (fit.status !== "ok") return { status: "not-identified", factors, reason: fit.reason };

  const cells = byCell.map((obs, c) => fitCell(c, obs));
  const z = normalQuantile((1 + level) / 2);
  const terms: FactorialTerm[] = TERMS.map((t, j) => {
    const c = fit.coefficients[3 + j] as (typeof fit.coefficients)[number];
    return {
      term: names[3 + j] as string,
      factors: t.map((k) => factors[k] as string),
      estimate: c.estimate,
      se: c.se,
      p: c.p,
      holmP: null,
      price: priceContrast(t, cells, z),
    };
  });
  const interactions = terms.slice(3);
  const holm = adjustPValues(
    interactions.map((t) => t.p),
    "holm",
  );
  interactions.forEach((t, i) => {
    t.holmP = holm[i] as number;
  });
  const estimable = interactions.filter((t) => t.price.low !== null && t.price.high !== null);
  return {
    status: "ok",
    factors,
    trials: answered.length,
    level,
    cells,
    mainEffects: terms.slice(0, 3),
    interactions,
    logOddsAdditive: interactions.every((t) => (t.holmP as number) > alpha),
    priceAdditive:
      estimable.length === 0
        ? null
        : estimable.every((t) => (t.price.low as number) <= 0 && (t.price.high as number) >= 0),
  };
}
