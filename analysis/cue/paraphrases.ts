/**
 * Robustness to the task's wording: the same conditions under each instruction paraphrase
 * (instruction 0 is the main block). PE is ordinal-to-interval, so what should survive rewording is
 * the ranking and the coarse magnitude, not the exact percentage.
 */
import { spearman } from "../stats/index.ts";
import type { ConditionEstimate } from "./condition.ts";

export interface ParaphraseSummary {
  conditions: string[];
  instructions: number[];
  /** Per condition: the estimate under each instruction (null where that cell was not run). */
  table: { condition: string; byInstruction: (ConditionEstimate | null)[] }[];
  /** Spearman correlation of point PEs with instruction 0, over conditions that are points in both. */
  rankCorrelation: { instruction: number; rho: number | null; conditions: number }[];
  /** Largest spread of point PEs across instructions, and the condition it belongs to. */
  maxDrift: { condition: string; drift: number } | null;
}

export function summarizeParaphrases(estimates: readonly ConditionEstimate[]): ParaphraseSummary | null {
  const paraphrased = new Set(estimates.filter((e) => e.instruction > 0).map((e) => e.condition));
  if (paraphrased.size === 0) return null;
  const conditions = [...paraphrased];
  const instructions = [...new Set(estimates.map((e) => e.instruction))].sort((a, b) => a - b);
  const table = conditions.map((condition) => ({
    condition,
    byInstruction: instructions.map(
      (i) => estimates.find((e) => e.condition === condition && e.instruction === i) ?? null,
    ),
  }));
  const point = (e: ConditionEstimate | null) => (e && e.pe.kind === "point" ? e.pe.value : null);
  const rankCorrelation = instructions
    .filter((i) => i > 0)
    .map((instruction) => {
      const col = instructions.indexOf(instruction);
      const x: number[] = [];
      const y: number[] = [];
      for (const row of table) {
        const a = point(row.byInstruction[0] ?? null);
        const b = point(row.byInstruction[col] ?? null);
        if (a === null || b === null) continue;
        x.push(a);
        y.push(b);
      }
      const rho = x.length >= 3 ? spearman(x, y) : null;
      return { instruction, rho: rho === null || Number.isNaN(rho) ? null : rho, conditions: x.length };
    });
  let maxDrift: ParaphraseSummary["maxDrift"] = null;
  for (const row of table) {
    const values = row.byInstruction.map(point).filter((v): v is number => v !== null);
    if (values.length < 2) continue;
    const drift = Math.max(...values) - Math.min(...values);
    if (!maxDrift || drift > maxDrift.drift) maxDrift = { condition: row.condition, drift };
  }
  return { conditions, instructions, table, rankCorrelation, maxDrift };
}
