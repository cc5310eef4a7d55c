import type { Command } from "commander";
import {
  addBargainAnalyzeOptions,
  addChoiceAnalyzeOptions,
  addCueAnalyzeOptions,
  addElicitAnalyzeOptions,
  addShopAnalyzeOptions,
} from "./options.ts";
import type { EnvironmentAnalyzer } from "./types.ts";

/**
 * One environment's analysis as the commands see it before they run it: its options, and the
 * analyzer, loaded when a run of that environment is analysed (with its estimators and report code).
 */
export interface AnalyzerEntry {
  env: string;
  /** Options this analysis adds to `bazaar analyze` (options.ts). */
  addOptions(cmd: Command): Command;
  load(): Promise<EnvironmentAnalyzer>;
}

/** An analyzer that leads with the precision targets of a run played under `--until` (targets.ts). */
const targeted = async (analyzer: EnvironmentAnalyzer) =>
  (await import("./targets.ts")).withTargets(analyzer);

/** Every environment's analyzer; an environment adds its analyzer here (one entry). */
export const ANALYZERS: readonly AnalyzerEntry[] = [
  {
    env: "choice",
    addOptions: addChoiceAnalyzeOptions,
    load: async () => targeted((await import("./choice.ts")).choiceAnalyzer),
  },
  {
    env: "elicit",
    addOptions: addElicitAnalyzeOptions,
    load: async () => (await import("./elicit.ts")).elicitAnalyzer,
  },
  {
    env: "bargain",
    addOptions: addBargainAnalyzeOptions,
    load: async () => targeted((await import("./bargain.ts")).bargainAnalyzer),
  },
  {
    env: "cue",
    addOptions: addCueAnalyzeOptions,
    load: async () => targeted((await import("./cue.ts")).cueAnalyzer),
  },
  {
    env: "shop",
    addOptions: addShopAnalyzeOptions,
    load: async () => targeted((await import("./shop.ts")).shopAnalyzer),
  },
  // A market (`bazaar run market`), by its id or the id of one of its rounds' seller runs.
  { env: "market", addOptions: (cmd) => cmd, load: async () => (await import("./market.ts")).marketAnalyzer },
];

export type { AnalysisFigure, AnalyzeInput, AnalyzeOutput, EnvironmentAnalyzer } from "./types.ts";
