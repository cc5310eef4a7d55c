/**
 * What a model family accepts. Reasoning models (OpenAI's o-series and GPT-5 family) reject
 * `temperature` and `top_p` and take the answer cap as `max_completion_tokens`; other servers ignore
 * or refuse other settings. One table says which; bazaar sends what the model accepts, records in the
 * run what it dropped (the agent's identity), and says so once when it dropped a setting the user
 * asked for — never silently. Users extend the table with `--model-rules <file>` (their rules come
 * first, so they also override these).
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import type { AnswerShape } from "../../environments/kernel/answer-shape.ts";
import { InvalidFileError, type Problem, UserError } from "../../environments/kernel/errors.ts";
import type { LlmSettings } from "./settings.ts";

export const DROPPABLE = ["temperature", "topP", "seed", "reasoningEffort"] as const;
export type Droppable = (typeof DROPPABLE)[number];

/** The settings' names on the wire, for messages. */
const WIRE: Record<Droppable, string> = {
  temperature: "temperature",
  topP: "top_p",
  seed: "seed",
  reasoningEffort: "reasoning_effort",
};

export const ModelRuleSchema = z.object({
  /** A short name, quoted in messages and in the run's record. */
  name: z.string().min(1),
  /** A regular expression tested against the model name (as given after `openai:`). */
  match: z.string().min(1),
  /** Settings the model does not accept: never sent to it. */
  drop: z.array(z.enum(DROPPABLE)).default([]),
  /** Where the answer-length cap (`--max-tokens`) goes. */
  maxTokensField: z.enum(["max_tokens", "max_completion_tokens"]).optional(),
  /**
   * Tokens a reasoning model spends thinking before it answers, added to an environment's default
   * cap (the cap counts them: a default sized for the answer alone would cut the reasoning).
   */
  reasoningRoom: z.number().int().nonnegative().optional(),
  /** Why (shown when a setting the user asked for is dropped). */
  why: z.string().min(1),
});
export type ModelRule = z.infer<typeof ModelRuleSchema>;

export const DEFAULT_MODEL_RULES: readonly ModelRule[] = [
  {
    name: "openai-o-series",
    match: "^o\\d",
    drop: ["temperature", "topP"],
    maxTokensField: "max_completion_tokens",
    reasoningRoom: 16_384,
    why: "OpenAI's o-series reasoning models reject temperature and top_p (HTTP 400 unsupported_parameter) and take max_completion_tokens",
  },
  {
    name: "openai-gpt-5",
    match: "^gpt-5(?!-chat)",
    drop: ["temperature", "topP"],
    maxTokensField: "max_completion_tokens",
    reasoningRoom: 16_384,
    why: "OpenAI's GPT-5 reasoning models reject temperature and top_p and take max_completion_tokens",
  },
  {
    name: "deepseek-reasoner",
    match: "^deepseek-reasoner",
    drop: ["temperature", "topP"],
    reasoningRoom: 16_384,
    why: "DeepSeek's reasoner does not support temperature and top_p (its API ignores them)",
  },
];

/** What an agent's calls actually carry for its model, and what was left out and why. */
export interface ModelParams {
  settings: LlmSettings;
  /** The rule that applied, if any. */
  rule: string | null;
  /** Settings the user asked for that are not sent. */
  dropped: Droppable[];
  /** One line for the user when something they asked for is dropped. */
  note: string | null;
}

/** The first rule for a model (the user's before the defaults), or null. */
export function ruleFor(model: string, rules: readonly ModelRule[]): ModelRule | null {
  for (const r of rules) if (new RegExp(r.match).test(model)) return r;
  return null;
}

/**
 * The settings with the environment's answer defaults where the user gave none: the output cap for
 * the answer mode (plus the model family's reasoning room), `--max-tokens 0` as no cap at all, and
 * tools mode's `tool_choice`. What this returns is what the agent's identity records.
 */
export function withAnswerDefaults(
  settings: LlmSettings,
  answer: AnswerShape,
  userRules: readonly ModelRule[] = [],
): LlmSettings {
  const rule = ruleFor(settings.model, [...userRules, ...DEFAULT_MODEL_RULES]);
  const cap =
    settings.maxTokens === undefined
      ? answer.maxTokens[settings.answerMode] + (rule?.reasoningRoom ?? 0)
      : settings.maxTokens === 0
        ? undefined
        : settings.maxTokens;
  return { ...settings, maxTokens: cap, toolChoice: settings.toolChoice ?? answer.toolChoice };
}

/** The settings as the model accepts them (first matching rule; user rules before the defaults). */
export function modelParams(
  agent: string,
  settings: LlmSettings,
  userRules: readonly ModelRule[] = [],
): ModelParams {
  const rule = ruleFor(settings.model, [...userRules, ...DEFAULT_MODEL_RULES]);
  if (!rule) return { settings, rule: null, dropped: [], note: null };
  const out: LlmSettings = {
    ...settings,
    ...(rule.maxTokensField ? { maxTokensField: rule.maxTokensField } : {}),
  };
  const dropped: Droppable[] = [];
  for (const d of rule.drop) {
    if (d === "seed") out.sendSeed = false; // the per-replicate seed is sent unless a rule says not
    if (out[d] === undefined) continue;
    dropped.push(d);
    out[d] = undefined;
  }
  const note =
    dropped.length === 0
      ? null
      : `${agent}: ${dropped.map((d) => WIRE[d]).join(" and ")} not sent to ${settings.model} — ${rule.why} (rule ${rule.name}; --model-rules adds or overrides rules)`;
  return { settings: out, rule: rule.name, dropped, note };
}

/** Reads a `--model-rules` file: a JSON array of rules; every problem named by index and field. */
export function loadModelRules(file: string): ModelRule[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new UserError(
      `cannot read the model rules ${file}: ${(err as Error).message}`,
      'give a JSON array such as [{"name": "my-reasoner", "match": "^my-r", "drop": ["temperature"], "why": "…"}]',
    );
  }
  if (!Array.isArray(raw)) throw new UserError(`${file} must hold a JSON array of model rules`);
  const problems: Problem[] = [];
  const rules: ModelRule[] = [];
  raw.forEach((item, row) => {
    const r = ModelRuleSchema.safeParse(item);
    if (!r.success) {
      for (const issue of r.error.issues)
        problems.push({ file, row, field: issue.path.join(".") || undefined, message: issue.message });
      return;
    }
    try {
      new RegExp(r.data.match);
    } catch (err) {
      problems.push({
        file,
        row,
        field: "match",
        message: `not a regular expression: ${(err as Error).message}`,
      });
      return;
    }
    rules.push(r.data);
  });
  if (problems.length > 0) throw new InvalidFileError(file, problems, "fix the rules; nothing was run");
  return rules;
}
