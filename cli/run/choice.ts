import path from "node:path";
import {
  choiceAgentNames,
  type LlmContext,
  resolveChoiceAgent,
  splitAgentSpecs,
} from "../../agents/registry.ts";
import { DEFAULT_HOTEL_POOL, type Hotel, loadHotelPool } from "../../datasets/hotels/index.ts";
import { buildChoiceTasks, ChoiceDesignSchema } from "../../environments/choice/design.ts";
import { choiceEnvironment } from "../../environments/choice/environment.ts";
import { PROMPT_VARIANTS } from "../../environments/choice/types.ts";
import { stableHash } from "../../environments/kernel/hash.ts";
import { planRun, type RunPlan } from "../../environments/runner/plan.ts";
import { choiceOf, nonNegativeInt, parseOption, positiveInt } from "../options.ts";
import {
  addAgentOption,
  addMaxReasksOption,
  addReplicatesOption,
  type CommonRunOptions,
  type EnvironmentCli,
  seedValue,
} from "./types.ts";

interface ChoiceOptions extends CommonRunOptions {
  agent?: string;
  replicates: string;
  maxReasks: string;
  pool?: string;
  variant?: string;
  pairs?: string;
  pairAppearances?: string;
  triples?: string;
  tripleAppearances?: string;
  fives?: string;
  fiveAppearances?: string;
}

export const choiceCli: EnvironmentCli = {
  name: "choice",
  summary: "catalog choice: book one of 2, 3 or 5 hotel options (PriceBench)",
  addOptions: (cmd) =>
    addMaxReasksOption(addReplicatesOption(addAgentOption(cmd, "sim:steep", choiceAgentNames())))
      .option("--pool <file>", "hotel pool (bazaar JSON/CSV or PriceBench hotel_pool.json)")
      .option("--variant <name>", `prompt variant: ${PROMPT_VARIANTS.join(", ")} (default plain)`)
      .option("--pairs <n>", "unique hotel pairs (default 450)")
      .option("--pair-appearances <n>", "re-drawn appearances per pair (default 4)")
      .option("--triples <n>", "unique hotel triples (default 300)")
      .option("--triple-appearances <n>", "appearances per triple, a multiple of 3 (default 6)")
      .option("--fives <n>", "unique five-option sets (default 300)")
      .option("--five-appearances <n>", "appearances per five-option set (default 1)"),
  plan(options: CommonRunOptions, llm: LlmContext): RunPlan {
    const o = options as ChoiceOptions;
    const optional = (name: string, v: string | undefined) =>
      v === undefined ? undefined : parseOption(name, nonNegativeInt, v);
    const design = ChoiceDesignSchema.parse({
      seed: seedValue(o.seed ?? "2026"),
      variant: parseOption("variant", choiceOf(PROMPT_VARIANTS), o.variant ?? "plain"),
      pairs: optional("pairs", o.pairs),
      pairAppearances: optional("pair-appearances", o.pairAppearances),
      triples: optional("triples", o.triples),
      tripleAppearances: optional("triple-appearances", o.tripleAppearances),
      fives: optional("fives", o.fives),
      fiveAppearances: optional("five-appearances", o.fiveAppearances),
    });
    const pool: Hotel[] = o.pool ? loadHotelPool(o.pool) : DEFAULT_HOTEL_POOL;
    const agents = splitAgentSpecs(o.agent ?? "sim:steep").map((s) => resolveChoiceAgent(s, llm));
    const tasks = buildChoiceTasks(design, pool);
    const settings = { maxReasks: parseOption("max-reasks", nonNegativeInt, o.maxReasks) };
    return planRun({
      env: choiceEnvironment,
      settings,
      tasks,
      agents,
      replicates: parseOption("replicates", positiveInt, o.replicates),
      design: {
        ...design,
        pool: o.pool ? { file: path.basename(o.pool), hash: stableHash(pool) } : "default",
      },
    });
  },
};
