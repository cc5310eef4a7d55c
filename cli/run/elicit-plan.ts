import { type LlmContext, outsideEntry, resolveLlmAgent, splitAgentSpecs } from "../../agents/registry.ts";
import { RESPONDENT_PRESETS } from "../../agents/sim/respondent.ts";
import { ELICIT_DOMAINS } from "../../datasets/elicit/schema.ts";
import { ElicitActionSchema } from "../../environments/elicit/actions.ts";
import { ELICIT_ANSWER } from "../../environments/elicit/answer.ts";
import { buildElicitTasks, ElicitDesignSchema } from "../../environments/elicit/design.ts";
import { elicitEnvironment } from "../../environments/elicit/environment.ts";
import { RESPONDENT } from "../../environments/elicit/machine.ts";
import { COLLECTIONS } from "../../environments/elicit/types.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import type { AgentEntry } from "../../environments/kernel/types.ts";
import { planRun, type RunPlan } from "../../environments/runner/plan.ts";
import { choiceOf, parseOption, positiveInt } from "../options.ts";
import { elicitAgentNames } from "./elicit.ts";
import { type CommonRunOptions, seedValue } from "./types.ts";

interface ElicitOptions extends CommonRunOptions {
  agent?: string;
  replicates?: string;
  completions?: string;
  domains?: string;
  collections?: string;
}

/** `sim:<respondent preset>` or `openai:<model>`, playing the respondent. */
export function resolveElicitAgent(spec: string, llm: LlmContext): AgentEntry {
  const outside = outsideEntry(spec, "elicit", RESPONDENT, llm);
  if (outside) return outside;
  const cut = spec.indexOf(":");
  const kind = cut < 0 ? spec : spec.slice(0, cut);
  const name = cut < 0 ? "" : spec.slice(cut + 1);
  const preset = kind === "sim" ? RESPONDENT_PRESETS[name] : undefined;
  if (preset) {
    return {
      label: spec,
      identity: { kind: "sim-respondent", preset: name, params: preset.params },
      players: { [RESPONDENT]: preset.make(spec) as AgentEntry["players"][string] },
    };
  }
  if (kind === "openai" && name.length > 0)
    return resolveLlmAgent(spec, name, RESPONDENT, ElicitActionSchema, llm, ELICIT_ANSWER);
  throw new UserError(`unknown agent "${spec}" for elicit`, `valid agents: ${elicitAgentNames().join(", ")}`);
}

function listOption<const T extends readonly [string, ...string[]]>(
  name: string,
  values: T,
  raw: string,
): T[number][] {
  const items = raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (items.length === 0)
    throw new UserError(`--${name} is empty`, `name one or more of: ${values.join(", ")}`);
  const out = items.map((s) => parseOption(name, choiceOf(values), s));
  return [...new Set(out)];
}

/** `bazaar run elicit`: its options checked and turned into the run plan (nothing written). */
export function planElicit(options: CommonRunOptions, llm: LlmContext): RunPlan {
  const o = options as ElicitOptions;
  if (o.replicates !== undefined) {
    throw new UserError(
      "elicit takes --completions (independent answers per query), not --replicates",
      `use --completions ${o.replicates}`,
    );
  }
  const completions = parseOption("completions", positiveInt, o.completions ?? "15");
  const design = ElicitDesignSchema.parse({
    seed: seedValue(o.seed ?? "2026"),
    domains: o.domains === undefined ? undefined : listOption("domains", ELICIT_DOMAINS, o.domains),
    collections:
      o.collections === undefined ? undefined : listOption("collections", COLLECTIONS, o.collections),
  });
  const agents = splitAgentSpecs(o.agent ?? "sim:consistent").map((s) => resolveElicitAgent(s, llm));
  const tasks = buildElicitTasks(design);
  return planRun({
    env: elicitEnvironment,
    settings: {},
    tasks,
    agents,
    // Completions are the runner's replicates: each carries its own seed and cache key, so repeated
    // identical prompts are independent calls, never one cached answer.
    replicates: completions,
    design: { ...design, dataset: "default" },
  });
}
