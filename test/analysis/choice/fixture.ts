/** Readers for the statsmodels reference of the choice estimators (see scripts/reference/choice_reference.py). */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ChoiceTrial } from "../../../analysis/choice/index.ts";
import type { ChoiceOption, TaskKind } from "../../../environments/choice/types.ts";

const dir = fileURLToPath(new URL("../../fixtures/choice/", import.meta.url));

interface FixtureTask {
  taskId: string;
  cluster: string;
  kind: TaskKind;
  appearance: number;
  order: number[];
  options: ChoiceOption[];
}

export function fixtureTrials(): ChoiceTrial[] {
  const data = JSON.parse(readFileSync(`${dir}trials.json`, "utf8")) as {
    tasks: FixtureTask[];
    answers: Record<string, (number | null)[]>;
  };
  return Object.entries(data.answers).flatMap(([agent, answers]) =>
    data.tasks.map((t, i) => ({ ...t, agent, chosenSlot: answers[i] ?? null })),
  );
}

export interface RefFit {
  converged: boolean;
  params: number[];
  bse: number[];
  pvalues?: number[];
  bse_cluster?: number[];
  llf: number;
  llnull?: number;
  prsquared?: number;
  aic?: number;
  n?: number;
  wtp?: { estimate: number; se: number };
  wtp_robust_se?: number;
}

export interface RefAgent {
  firstShownRate: number;
  binaryFirstSlotRate: number;
  nonResponses: number;
  meanBookedPrice: number;
  locked?: boolean;
  "first-shown"?: Record<"linear" | "log" | "deciles" | "brand", RefFit>;
  label?: Record<"linear" | "log" | "deciles" | "brand", RefFit>;
  ternary?: RefFit;
  five?: RefFit;
  fiveHitRate?: { hitRate: number; meanRank: number; situations: number };
}

export interface ChoiceReference {
  note: string;
  edges: number[];
  agents: Record<string, RefAgent>;
  tests: { agent: string; test: string; p: number }[];
  multiplicity: { bonferroni: number[]; bh: number[]; survivesBonferroni: number; survivesBh: number };
}

export function choiceReference(): ChoiceReference {
  return JSON.parse(readFileSync(`${dir}reference.json`, "utf8")) as ChoiceReference;
}

/** |a − b| ≤ rel · max(|a|, |b|), with an absolute floor for values that are zero in both. */
export function relClose(a: number, b: number, rel = 1e-6): boolean {
  return Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b)) + 1e-12;
}
