import type { z } from "zod";
import { ChoiceActionSchema } from "../environments/choice/actions.ts";
import { CHOICE_ANSWER } from "../environments/choice/answer.ts";
import { SHOPPER } from "../environments/choice/machine.ts";
import type { AnswerShape } from "../environments/kernel/answer-shape.ts";
import { UserError } from "../environments/kernel/errors.ts";
import type { AgentEntry } from "../environments/kernel/types.ts";
import { LlmAgent } from "./llm/agent.ts";
import type { ResponseCache } from "./llm/cache.ts";
import type { CallEvents } from "./llm/gate.ts";
import { type ModelRule, modelParams, withAnswerDefaults } from "./llm/model-params.ts";
import { type LlmSettings, type LlmSettingsInput, LlmSettingsSchema, llmIdentity } from "./llm/settings.ts";
import type { OutsideResolver } from "./outside/registry.ts";
import { CHOICE_PRESETS, choiceAgentNames } from "./sim/presets.ts";

/** What resolving an `openai:<model>` agent needs besides its name. */
export interface LlmContext {
  /** Settings shared by every LLM agent of the run (model name excluded). */
  settings: Omit<LlmSettingsInput, "model">;
  apiKey?: string;
  cache?: ResponseCache;
  events?: CallEvents;
  /** The user's model-family rules (`--model-rules`), before the defaults. */
  modelRules?: readonly ModelRule[];
  /** Collects what the user should read once (a setting not sent to a model that rejects it). */
  notes?: Set<string>;
  /** Agents from outside bazaar (`exec:`, `module:`, `mcp:`; `agents/outside/registry.ts`). */
  outside?: OutsideResolver;
}

/** The run entry of an agent from outside playing `role`, or null when the spec is not one. */
export function outsideEntry(
  spec: string,
  env: string,
  role: string,
  llm: LlmContext | undefined,
): AgentEntry | null {
  const player = llm?.outside?.(spec, env, role);
  return player
    ? { label: player.label, identity: player.identity, players: { [role]: player.agent } }
    : null;
}

/**
 * Settings as the model accepts them (model-params.ts) with the environment's answer defaults where
 * the user gave none, the note to show once, and the identity that enters trial keys: the requested
 * settings with those defaults, plus what was not sent when anything was not.
 */
export function acceptedSettings(
  spec: string,
  asked: LlmSettings,
  llm: LlmContext,
  answer: AnswerShape,
): { settings: LlmSettings; identity: Record<string, unknown> } {
  const requested = withAnswerDefaults(asked, answer, llm.modelRules);
  const p = modelParams(spec, requested, llm.modelRules);
  if (p.note) llm.notes?.add(p.note);
  const identity = llmIdentity(requested);
  return {
    settings: p.settings,
    identity: p.dropped.length > 0 ? { ...identity, notSent: p.dropped, rule: p.rule } : identity,
  };
}

export { choiceAgentNames };

/**
 * Splits a comma-separated list of agent specs. An `exec:` spec takes the rest of the value whole
 * (a command may hold commas), so it comes last in its list.
 */
export function splitSpecList(value: string): string[] {
  const parts = value.split(",");
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!.trim();
    if (part.startsWith("exec:")) {
      out.push(parts.slice(i).join(",").trim());
      break;
    }
    if (part.length > 0) out.push(part);
  }
  return out;
}

/** Splits a comma-separated `--agent` value, rejecting empty and repeated names. */
export function splitAgentSpecs(value: string): string[] {
  const specs = splitSpecList(value);
  if (specs.length === 0)
    throw new UserError("--agent is empty", `name one or more of: ${choiceAgentNames().join(", ")}`);
  const seen = new Set<string>();
  for (const s of specs) {
    if (seen.has(s)) throw new UserError(`agent ${s} is named twice in --agent`);
    seen.add(s);
  }
  return specs;
}

function splitSpec(spec: string): [string, string] {
  const i = spec.indexOf(":");
  return i < 0 ? [spec, ""] : [spec.slice(0, i), spec.slice(i + 1)];
}

/** An LLM agent entry for any environment: the same graph plays every role of every environment. */
export function resolveLlmAgent(
  spec: string,
  model: string,
  role: string,
  actionSchema: z.ZodDiscriminatedUnion,
  llm: LlmContext,
  answer: AnswerShape,
): AgentEntry {
  const parsed = LlmSettingsSchema.safeParse({ ...llm.settings, model });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(
      `agent ${spec}: ${issue?.path.join(".") ?? ""} ${issue?.message ?? "invalid settings"}`,
    );
  }
  const { settings, identity } = acceptedSettings(spec, parsed.data, llm, answer);
  return {
    label: spec,
    identity,
    players: {
      [role]: new LlmAgent(spec, settings, actionSchema, {
        apiKey: llm.apiKey,
        cache: llm.cache,
        events: llm.events,
        role,
      }) as never,
    },
  };
}

/** Resolves an agent spec for the catalog-choice environment: `sim:<preset>` or `openai:<model>`. */
export function resolveChoiceAgent(spec: string, llm?: LlmContext): AgentEntry {
  const outside = outsideEntry(spec, "choice", SHOPPER, llm);
  if (outside) return outside;
  const [kind, name] = splitSpec(spec);
  if (kind === "sim") {
    const preset = CHOICE_PRESETS[name];
    if (preset) {
      return {
        label: spec,
        identity: { kind: "sim", preset: name, params: preset.params ?? preset.description },
        players: { [SHOPPER]: preset.make(spec) },
      };
    }
  }
  if (kind === "openai" && name.length > 0) {
    return resolveLlmAgent(spec, name, SHOPPER, ChoiceActionSchema, llm ?? { settings: {} }, CHOICE_ANSWER);
  }
  throw new UserError(`unknown agent "${spec}"`, `valid agents: ${choiceAgentNames().join(", ")}`);
}
