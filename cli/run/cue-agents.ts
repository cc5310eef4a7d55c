/**
 * `--agent` for cue runs: `sim:<preset>` (a cue-susceptible simulated shopper that recognises the
 * run's cue library) or `openai:<model>` (the LangGraph LLM agent, tools from the cue actions).
 */

import { type LlmContext, outsideEntry, resolveLlmAgent } from "../../agents/registry.ts";
import { CUE_PRESETS } from "../../agents/sim/cue-presets.ts";
import type { CueCondition } from "../../datasets/products/schema.ts";
import { CueActionSchema } from "../../environments/cue/actions.ts";
import { CUE_ANSWER } from "../../environments/cue/answer.ts";
import { CUE_SHOPPER } from "../../environments/cue/machine.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { stableHash } from "../../environments/kernel/hash.ts";
import type { AgentEntry } from "../../environments/kernel/types.ts";

export const DEFAULT_CUE_AGENT = "sim:paper";

export function cueAgentNames(): string[] {
  return [...Object.keys(CUE_PRESETS).map((k) => `sim:${k}`), "openai:<model>"];
}

export function resolveCueAgent(
  spec: string,
  library: readonly CueCondition[],
  llm?: LlmContext,
): AgentEntry {
  const outside = outsideEntry(spec, "cue", CUE_SHOPPER, llm);
  if (outside) return outside;
  const i = spec.indexOf(":");
  const kind = i < 0 ? spec : spec.slice(0, i);
  const name = i < 0 ? "" : spec.slice(i + 1);
  if (kind === "sim") {
    const preset = CUE_PRESETS[name];
    if (preset) {
      return {
        label: spec,
        // The library enters the identity: which sentences pull depends on it.
        identity: { kind: "sim-cue", preset: name, params: preset.params, library: stableHash(library) },
        players: { [CUE_SHOPPER]: preset.make(spec, library) as never },
      };
    }
  }
  if (kind === "openai" && name.length > 0) {
    return resolveLlmAgent(spec, name, CUE_SHOPPER, CueActionSchema, llm ?? { settings: {} }, CUE_ANSWER);
  }
  throw new UserError(`unknown agent "${spec}" for cue runs`, `valid agents: ${cueAgentNames().join(", ")}`);
}
