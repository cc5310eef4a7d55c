import path from "node:path";
import type { LlmContext } from "../../agents/registry.ts";
import { splitAgentSpecs } from "../../agents/registry.ts";
import {
  DEFAULT_CUE_LIBRARY,
  DEFAULT_PRODUCT_PAIRS,
  loadCueLibrary,
  loadProductPairs,
  runnableConditions,
  selectNames,
} from "../../datasets/products/index.ts";
import {
  buildCueTasks,
  CUE_BLOCKS,
  type CueBlock,
  CueDesignSchema,
  callsPerState,
  cueEnvironment,
  PARAPHRASE_CONDITIONS,
} from "../../environments/cue/index.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { stableHash } from "../../environments/kernel/hash.ts";
import { planRun, type RunPlan } from "../../environments/runner/plan.ts";
import { nonNegativeInt, parseOption, positiveInt } from "../options.ts";
import { DEFAULT_CUE_AGENT, resolveCueAgent } from "./cue-agents.ts";
import { type CommonRunOptions, seedValue } from "./types.ts";

interface CueOptions extends CommonRunOptions {
  agent?: string;
  replicates: string;
  maxReasks: string;
  conditions?: string;
  pairs?: string;
  cues?: string;
  categories?: string;
  grid?: string;
  nPerCell?: string;
  blocks?: string;
  additivityCues?: string;
  additivityGrid?: string;
  paraphraseConditions?: string;
}

function list(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** "0,2,4,6" (percent) → [0, 0.02, 0.04, 0.06], checked. */
export function parseGrid(name: string, value: string): number[] {
  const parts = list(value);
  const grid = parts.map((p) => {
    const x = Number(p.replace(/%$/, ""));
    if (p === "" || !Number.isFinite(x) || x < 0) {
      throw new UserError(
        `--${name}: "${p}" is not a premium in percent (got ${JSON.stringify(value)})`,
        "e.g. 0,2,4,6,8,12,18,26",
      );
    }
    return Number((x / 100).toPrecision(12));
  });
  if (grid[0] !== 0)
    throw new UserError(`--${name} must start at 0 (equal prices), got ${JSON.stringify(value)}`);
  if (grid.length < 2 || grid.some((g, i) => i > 0 && g <= (grid[i - 1] as number))) {
    throw new UserError(
      `--${name} must list at least two premiums in increasing order, got ${JSON.stringify(value)}`,
    );
  }
  return grid;
}

function parseBlocks(value: string): CueBlock[] {
  const blocks = list(value);
  for (const b of blocks) {
    if (!(CUE_BLOCKS as readonly string[]).includes(b)) {
      throw new UserError(`--blocks: unknown block "${b}"`, `blocks: ${CUE_BLOCKS.join(", ")}`);
    }
  }
  if (blocks.length === 0) throw new UserError("--blocks is empty", `blocks: ${CUE_BLOCKS.join(", ")}`);
  return blocks as CueBlock[];
}

/** `bazaar run cue`: its options checked and turned into the run plan (nothing written). */
export function planCue(options: CommonRunOptions, llm: LlmContext): RunPlan {
  const o = options as CueOptions;
  const pairs = o.pairs ? loadProductPairs(o.pairs) : DEFAULT_PRODUCT_PAIRS;
  const library = o.cues ? loadCueLibrary(o.cues) : DEFAULT_CUE_LIBRARY;
  const names = runnableConditions(library).map((c) => c.name);
  const conditions =
    o.conditions === undefined ? undefined : selectNames(list(o.conditions), names, "condition");
  const blocks: CueBlock[] =
    o.blocks !== undefined
      ? parseBlocks(o.blocks)
      : o.conditions !== undefined || o.cues !== undefined
        ? ["main"]
        : ["main", "additivity"];
  // Paraphrases default to the paper's subset, narrowed to the conditions asked for (if any).
  let paraphraseConditions: string[] | undefined;
  if (o.paraphraseConditions !== undefined) {
    paraphraseConditions = selectNames(list(o.paraphraseConditions), names, "condition");
  } else if (blocks.includes("paraphrases")) {
    const subset = PARAPHRASE_CONDITIONS.filter(
      (n) => names.includes(n) && (!conditions || conditions.includes(n)),
    );
    paraphraseConditions = subset.length > 0 ? subset : (conditions ?? names);
  }
  const nPerCell = o.nPerCell === undefined ? 24 : parseOption("n-per-cell", positiveInt, o.nPerCell);
  if (nPerCell % 4 !== 0) {
    throw new UserError(
      `--n-per-cell must be a multiple of 4 (the four target × position states), got ${nPerCell}`,
    );
  }
  const additivityCues = o.additivityCues === undefined ? undefined : list(o.additivityCues);
  if (additivityCues && additivityCues.length !== 3) {
    throw new UserError(
      `--additivity-cues needs exactly three cue names, got ${JSON.stringify(o.additivityCues)}`,
    );
  }
  const design = CueDesignSchema.parse({
    seed: seedValue(o.seed ?? "2026"),
    grid: o.grid === undefined ? undefined : parseGrid("grid", o.grid),
    nPerCell,
    conditions,
    categories: o.categories === undefined ? undefined : list(o.categories),
    blocks,
    additivity: {
      cues: additivityCues,
      grid: o.additivityGrid === undefined ? undefined : parseGrid("additivity-grid", o.additivityGrid),
    },
    paraphrases: { conditions: paraphraseConditions },
  });
  const tasks = buildCueTasks(design, pairs, library);
  const agents = splitAgentSpecs(o.agent ?? DEFAULT_CUE_AGENT).map((s) => resolveCueAgent(s, library, llm));
  const settings = { maxReasks: parseOption("max-reasks", nonNegativeInt, o.maxReasks) };
  const source = (file: string | undefined, data: unknown) =>
    file ? { file: path.basename(file), hash: stableHash(data) } : "default";
  return planRun({
    env: cueEnvironment,
    settings,
    tasks,
    agents,
    // The N calls of a cell are independent samples of the same prompt: replicates of its four tasks.
    replicates: callsPerState(design) * parseOption("replicates", positiveInt, o.replicates),
    design: { ...design, pairs: source(o.pairs, pairs), cues: source(o.cues, library) },
  });
}
