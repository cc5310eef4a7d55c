import { SHOPPER } from "../environments/choice/machine.ts";
import { UserError } from "../errors/index.ts";
import type { AgentEntry } from "../runner/plan.ts";
import { CHOICE_PRESETS } from "./sim/index.ts";

/** Agents every environment can name; LLM agents (`openai:<model>`) join this list. */
export function choiceAgentNames(): string[] {
  return Object.keys(CHOICE_PRESETS).map((k) => `sim:${k}`);
}

/** Splits a comma-separated `--agent` value, rejecting empty and repeated names. */
export function splitAgentSpecs(value: string): string[] {
  const specs = value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (specs.length === 0)
    throw new UserError("--agent is empty", `name one or more of: ${choiceAgentNames().join(", ")}`);
  const seen = new Set<string>();
  for (const s of specs) {
    if (seen.has(s)) throw new UserError(`agent ${s} is named twice in --agent`);
    seen.add(s);
  }
  return specs;
}

/** Resolves an agent spec for the catalog-choice environment (`sim:<preset>`). */
export function resolveChoiceAgent(spec: string): AgentEntry {
  const [kind, name] = spec.includes(":")
    ? [spec.slice(0, spec.indexOf(":")), spec.slice(spec.indexOf(":") + 1)]
    : [spec, ""];
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
  throw new UserError(`unknown agent "${spec}"`, `valid agents: ${choiceAgentNames().join(", ")}`);
}
