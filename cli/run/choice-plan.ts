import { readFileSync } from "node:fs";
import path from "node:path";
import { type LlmContext, resolveChoiceAgent, splitAgentSpecs } from "../../agents/registry.ts";
import { DEFAULT_HOTEL_POOL, type Hotel, loadHotelPool } from "../../datasets/hotels/index.ts";
import { releaseRunTasks } from "../../datasets/pricebench/index.ts";
import { buildChoiceTasks, ChoiceDesignSchema } from "../../environments/choice/design.ts";
import { choiceEnvironment } from "../../environments/choice/environment.ts";
import {
  type PromptTemplate,
  parsePromptTemplate,
  templateCounts,
} from "../../environments/choice/template.ts";
import { type ChoiceTask, PROMPT_VARIANTS, type PromptVariant } from "../../environments/choice/types.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { sha256Hex, stableHash } from "../../environments/kernel/hash.ts";
import { planRun, type RunPlan } from "../../environments/runner/plan.ts";
import { choiceOf, nonNegativeInt, parseOption, positiveInt } from "../options.ts";
import { type CommonRunOptions, seedValue } from "./types.ts";

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
  tasks?: string;
  promptTemplate?: string;
}

/** Options that size or seed bazaar's own design: meaningless with the release's tasks. */
const DESIGN_OPTIONS = [
  ["pool", "--pool"],
  ["pairs", "--pairs"],
  ["pairAppearances", "--pair-appearances"],
  ["triples", "--triples"],
  ["tripleAppearances", "--triple-appearances"],
  ["fives", "--fives"],
  ["fiveAppearances", "--five-appearances"],
] as const;

function readTemplate(file: string, variant: PromptVariant): { template: PromptTemplate; sha256: string } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UserError(`--prompt-template: cannot read ${file}: ${(error as Error).message}`);
  }
  if (variant === "json" || variant === "value-persona")
    throw new UserError(
      `--prompt-template and --variant ${variant} both set the wording`,
      'with a template use --variant plain, price-first (bazaar\'s card, price first, where the template has no [card]) or cot (answers read from a final "Answer: X" line)',
    );
  return { template: parsePromptTemplate(text, path.basename(file)), sha256: sha256Hex(text).slice(0, 16) };
}

/** Every option count of the run's tasks must have a user message in the template. */
function checkTemplateCovers(template: PromptTemplate, tasks: readonly ChoiceTask[]): void {
  const counts = templateCounts(template);
  if (counts === null) return;
  const missing = [...new Set(tasks.map((t) => t.options.length))].filter((n) => !counts.includes(n));
  if (missing.length > 0)
    throw new UserError(
      `${template.source} has no user message for ${missing.join(" or ")} options (it has [user ${counts.join("], [user ")}])`,
      "add a plain [user] section, or one per option count",
    );
}

/** `bazaar run choice`: its options checked and turned into the run plan (nothing written). */
export function planChoice(options: CommonRunOptions, llm: LlmContext): RunPlan {
  const o = options as ChoiceOptions;
  const optional = (name: string, v: string | undefined) =>
    v === undefined ? undefined : parseOption(name, nonNegativeInt, v);
  const variant = parseOption("variant", choiceOf(PROMPT_VARIANTS), o.variant ?? "plain");
  const template = o.promptTemplate ? readTemplate(o.promptTemplate, variant) : null;
  let tasks: ChoiceTask[];
  let designConfig: Record<string, unknown>;
  if (o.tasks !== undefined) {
    const given = DESIGN_OPTIONS.filter(([key]) => o[key] !== undefined).map(([, flag]) => flag);
    if (given.length > 0)
      throw new UserError(
        `--tasks runs the release's own tasks; ${given.join(", ")} ${given.length === 1 ? "sizes" : "size"} bazaar's design instead`,
        `drop ${given.join(", ")}`,
      );
    const release = releaseRunTasks(o.tasks, variant);
    tasks = release.tasks;
    designConfig = { source: "pricebench", tasks: release.files, variant };
  } else {
    const design = ChoiceDesignSchema.parse({
      seed: seedValue(o.seed ?? "2026"),
      variant,
      pairs: optional("pairs", o.pairs),
      pairAppearances: optional("pair-appearances", o.pairAppearances),
      triples: optional("triples", o.triples),
      tripleAppearances: optional("triple-appearances", o.tripleAppearances),
      fives: optional("fives", o.fives),
      fiveAppearances: optional("five-appearances", o.fiveAppearances),
    });
    const pool: Hotel[] = o.pool ? loadHotelPool(o.pool) : DEFAULT_HOTEL_POOL;
    tasks = buildChoiceTasks(design, pool);
    designConfig = {
      ...design,
      pool: o.pool ? { file: path.basename(o.pool), hash: stableHash(pool) } : "default",
    };
  }
  if (template) checkTemplateCovers(template.template, tasks);
  const agents = splitAgentSpecs(o.agent ?? "sim:steep").map((s) => resolveChoiceAgent(s, llm));
  const settings = {
    maxReasks: parseOption("max-reasks", nonNegativeInt, o.maxReasks),
    ...(template ? { promptTemplate: template.template } : {}),
  };
  return planRun({
    env: choiceEnvironment,
    settings,
    tasks,
    agents,
    replicates: parseOption("replicates", positiveInt, o.replicates),
    design: {
      ...designConfig,
      ...(template ? { promptTemplate: { file: template.template.source, sha256: template.sha256 } } : {}),
    },
  });
}
