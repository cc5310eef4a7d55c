import type { EnvironmentAnalyzer } from "./types.ts";

/** Every environment's analyzer; an environment adds its analyzer here (one import, one entry). */
export const ANALYZERS: readonly EnvironmentAnalyzer[] = [];

export type { AnalyzeInput, AnalyzeOutput, EnvironmentAnalyzer } from "./types.ts";
