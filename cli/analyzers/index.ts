import { bargainAnalyzer } from "./bargain.ts";
import { choiceAnalyzer } from "./choice.ts";
import { cueAnalyzer } from "./cue.ts";
import { elicitAnalyzer } from "./elicit.ts";
import { shopAnalyzer } from "./shop.ts";
import type { EnvironmentAnalyzer } from "./types.ts";

/** Every environment's analyzer; an environment adds its analyzer here (one import, one entry). */
export const ANALYZERS: readonly EnvironmentAnalyzer[] = [
  choiceAnalyzer,
  elicitAnalyzer,
  bargainAnalyzer,
  cueAnalyzer,
  shopAnalyzer,
];

export type { AnalyzeInput, AnalyzeOutput, EnvironmentAnalyzer } from "./types.ts";
