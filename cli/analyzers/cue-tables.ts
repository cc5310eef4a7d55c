/**
 * The cue analysis as tables (header + rows of strings), shared by the terminal text and the
 * markdown report. Censored price-equivalents print as bounds with their marks — "≤0 ‡" (already
 * dispreferred at equal price) and ">26% †" (no crossing within the sweep) — and stay out of the
 * ranking; "n.i." is a price-equivalent that is not identified.
 */
import type {
  AgentCueAnalysis,
  BoundedValue,
  CategoryCueAnalysis,
  ConditionEstimate,
  FactorialTerm,
  IntervalEnd,
  PeInterval,
  PriceEquivalent,
} from "../../analysis/cue/index.ts";
import { percent, pValue } from "../../analysis/report/format.ts";

export interface Table {
  header: string[];
  rows: string[][];
}

function pct(x: number, digits = 1): string {
  return `${(100 * x).toFixed(digits)}%`;
}

export function peText(pe: PriceEquivalent): string {
  if (pe.kind === "point") return pct(pe.value);
  if (pe.kind === "floor") return "≤0 ‡";
  if (pe.kind === "right") return `>${(100 * pe.bound).toFixed(0)}% †`;
  return "n.i.";
}

function endText(e: IntervalEnd, gMax: number): string {
  if (e === "floor") return "≤0";
  if (e === "right") return `>${(100 * gMax).toFixed(0)}`;
  return (100 * e).toFixed(1);
}

export function intervalText(iv: PeInterval | null | undefined, gMax: number, note?: string | null): string {
  if (iv) return `[${endText(iv.low, gMax)}, ${endText(iv.high, gMax)}]`;
  return note ? `– (${note.split(":")[0]})` : "–";
}

export function boundedText(b: BoundedValue): string {
  if (b.kind === "point") return pct(b.value);
  if (b.kind === "at-most") return `≤${pct(b.value)}`;
  if (b.kind === "above") return `>${pct(b.value)}`;
  return "–";
}

function gMaxOf(c: ConditionEstimate): number {
  return c.curve.at(-1)?.premium ?? 0;
}

/** Point PEs first (largest first), then right-censored, not identified, floor-censored. */
function orderForReport(conditions: readonly ConditionEstimate[]): ConditionEstimate[] {
  const rank = (c: ConditionEstimate) =>
    c.pe.kind === "point" ? 0 : c.pe.kind === "right" ? 1 : c.pe.kind === "not-identified" ? 2 : 3;
  return [...conditions].sort((a, b) => {
    const d = rank(a) - rank(b);
    if (d !== 0) return d;
    if (a.pe.kind === "point" && b.pe.kind === "point") return b.pe.value - a.pe.value;
    return (b.baseRate ?? 0) - (a.baseRate ?? 0);
  });
}

function logitText(c: ConditionEstimate): string {
  return c.logistic.status === "ok" ? peText(c.logistic.pe) : "n.i.";
}

export function conditionTable(cat: CategoryCueAnalysis): Table {
  let rank = 0;
  const rows = orderForReport(cat.conditions).map((c) => [
    c.pe.kind === "point" ? String(++rank) : "–",
    c.condition,
    c.family,
    c.baseRate === null ? "–" : c.baseRate.toFixed(2),
    peText(c.pe),
    intervalText(c.interval?.pooled, gMaxOf(c), c.intervalNote),
    peText(c.cuedFirst),
    peText(c.cuedSecond),
    boundedText(c.pairMedian),
    logitText(c),
    c.firstOptionRate === null ? "–" : percent(c.firstOptionRate, 0),
    String(c.answered),
  ]);
  return {
    header: [
      "rank",
      "condition",
      "family",
      "base rate",
      "PE",
      "95% CI",
      "cued 1st",
      "cued 2nd",
      "pair median",
      "logit PE",
      "1st opt.",
      "n",
    ],
    rows,
  };
}

/** Sorted by equal-price rate: the ceiling where choice rates stop telling cues apart. */
export function ceilingTable(cat: CategoryCueAnalysis): Table {
  const rows = [...cat.conditions]
    .filter((c) => c.family !== "control-price" && c.family !== "control-presence")
    .sort((a, b) => (b.baseRate ?? -1) - (a.baseRate ?? -1))
    .map((c) => [
      c.condition,
      c.baseRate === null ? "–" : c.baseRate.toFixed(2),
      c.baseRate !== null && c.baseRate >= cat.ceiling.rate ? "ceiling" : "",
      peText(c.pe),
    ]);
  return { header: ["condition", "equal-price rate", "", "PE"], rows };
}

export function ceilingSentence(cat: CategoryCueAnalysis): string {
  const c = cat.ceiling;
  if (c.conditions.length === 0) return `No cue reaches an equal-price rate of ${c.rate.toFixed(2)}.`;
  const range =
    c.lowestPe !== null && c.highestPe !== null
      ? `, yet their price-equivalents span ${pct(c.lowestPe)}–${pct(c.highestPe)}`
      : "";
  return `${c.conditions.length} conditions have an equal-price rate ≥ ${c.rate.toFixed(2)} (${c.conditions.join(", ")})${range}: the equal-price rate cannot tell them apart; the price sweep can.`;
}

export function perPairTable(cat: CategoryCueAnalysis): Table {
  return {
    header: ["condition", ...cat.pairs],
    rows: cat.conditions.map((c) => [
      c.condition,
      ...cat.pairs.map((p) => {
        const hit = c.perPair.find((x) => x.pairId === p);
        return hit ? peText(hit.pe) : "–";
      }),
    ]),
  };
}

export function additivityTables(
  cat: CategoryCueAnalysis,
): { cells: Table; tests: Table; verdict: string } | null {
  const a = cat.additivity;
  if (!a) return null;
  const t = a.test;
  const fitted = (c: ConditionEstimate) => {
    if (t.status !== "ok") return "–";
    const f = t.cells.find((x) => `additivity-${x.cell}` === c.condition);
    return f?.pe === null || f?.pe === undefined ? "n.i." : pct(f.pe);
  };
  const cells: Table = {
    header: ["cell", "cues", "base rate", "PE", "95% CI", "logit PE"],
    rows: a.cells.map((c) => [
      c.condition,
      Object.entries(c.factors ?? {})
        .filter(([, on]) => on)
        .map(([f]) => f)
        .join(" + ") || "(fillers only)",
      c.baseRate === null ? "–" : c.baseRate.toFixed(2),
      peText(c.pe),
      intervalText(c.interval?.pooled, gMaxOf(c), c.intervalNote),
      fitted(c),
    ]),
  };
  if (t.status !== "ok") {
    return { cells, tests: { header: ["test"], rows: [[t.reason]] }, verdict: `Not identified: ${t.reason}` };
  }
  const priceCells = (c: FactorialTerm["price"]) => [
    c.value === null ? "n.i." : pct(c.value),
    c.low === null || c.high === null ? "–" : `[${(100 * c.low).toFixed(1)}, ${(100 * c.high).toFixed(1)}]`,
  ];
  const tests: Table = {
    header: ["term", "log-odds", "SE", "p", "Holm p", "price scale", `${Math.round(t.level * 100)}% CI`],
    rows: [...t.mainEffects, ...t.interactions].map((i) => [
      i.term,
      i.estimate.toFixed(3),
      i.se.toFixed(3),
      pValue(i.p),
      i.holmP === null ? "" : pValue(i.holmP),
      ...priceCells(i.price),
    ]),
  };
  const logOdds = t.logOddsAdditive
    ? "no interaction survives Holm correction on the log-odds scale"
    : "an interaction survives Holm correction on the log-odds scale";
  const price =
    t.priceAdditive === null
      ? "the price-scale contrasts are not estimable"
      : t.priceAdditive
        ? "every price-scale interaction interval spans 0"
        : "a price-scale interaction interval excludes 0";
  const verdict = `${t.logOddsAdditive && t.priceAdditive ? "Consistent with additivity" : "Not fully additive"}: ${logOdds}; ${price}.`;
  return { cells, tests, verdict };
}

export function paraphraseTable(cat: CategoryCueAnalysis): { table: Table; notes: string[] } | null {
  const p = cat.paraphrases;
  if (!p) return null;
  const table: Table = {
    header: ["condition", ...p.instructions.map((i) => `v${i}`)],
    rows: p.table.map((r) => [r.condition, ...r.byInstruction.map((e) => (e ? peText(e.pe) : "–"))]),
  };
  const notes = p.rankCorrelation.map(
    (r) =>
      `v${r.instruction} vs v0: Spearman ρ ${r.rho === null ? "–" : r.rho.toFixed(2)} over ${r.conditions} conditions`,
  );
  if (p.maxDrift)
    notes.push(`largest drift: ${p.maxDrift.condition}, ${(100 * p.maxDrift.drift).toFixed(1)} points`);
  return { table, notes };
}

/** One-line summaries of an agent and a category: non-response, price sensitivity, primacy. */
export function agentLines(a: AgentCueAnalysis): string[] {
  const lines = [
    `${a.agent}: ${a.trials.toLocaleString("en-US")} trials, ${a.nonResponses.toLocaleString("en-US")} non-responses (${percent(a.nonResponseRate)})`,
  ];
  if (a.nonResponseReasons.length > 0) {
    lines.push(
      `  reasons: ${a.nonResponseReasons
        .slice(0, 5)
        .map((r) => `${r.reason} (${r.count})`)
        .join(", ")}`,
    );
  }
  if (a.exclusionNote) lines.push(`  ${a.exclusionNote}`);
  return lines;
}

export function categoryLines(cat: CategoryCueAnalysis): string[] {
  const lines: string[] = [];
  const s = cat.priceSensitivity;
  if (s) {
    const slope = s.slope
      ? `logit slope ${s.slope.estimate.toFixed(1)} per unit premium (SE ${s.slope.se.toFixed(1)})`
      : `logit slope n.i. (${s.slopeNote})`;
    lines.push(
      `price sensitivity (price-only control): equal-price rate ${s.equalPriceRate === null ? "–" : s.equalPriceRate.toFixed(2)}; ` +
        `keeps the dearer identical item ${percent(s.keepDearerAt10)} at +10% and ${percent(s.keepDearerAtTop)} at +${(100 * s.topPremium).toFixed(0)}%; ${slope}; ` +
        `the first slot is worth ${peText(s.positionPrice)} of price`,
    );
    if (s.priceInsensitive)
      lines.push("  price-insensitive: PEs that never cross measure indifference to price, not cue strength");
  } else lines.push("price sensitivity: no price-only control in this run — read raw PEs with care");
  const p = cat.primacy;
  lines.push(
    `primacy: first option ${percent(p.firstOptionRate)} of ${p.answered.toLocaleString("en-US")} answers; ` +
      `${percent(p.lowSignal.firstOptionRate)} in low-signal conditions (${p.lowSignal.conditions.join(", ") || "none"})`,
  );
  if (p.orderFollowing.length > 0) {
    lines.push(`  order-following pins the curve at ½: PE not identified for ${p.orderFollowing.join(", ")}`);
  }
  return lines;
}
