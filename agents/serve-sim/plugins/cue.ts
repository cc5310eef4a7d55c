/**
 * The cue environment behind `bazaar serve-sim`: models `sim-cue-<preset>` answer a real client's
 * cue prompt as the simulated shopper would, so the LLM path (ChatOpenAI over HTTP, tool calls
 * included) runs against known price-equivalents.
 */

import type { CueAction } from "../../../environments/cue/actions.ts";
import { observeCue } from "../../../environments/cue/observe.ts";
import { CUE_LETTERS } from "../../../environments/cue/types.ts";
import type { Agent } from "../../../environments/kernel/types.ts";
import { CUE_PRESETS } from "../../sim/cue-presets.ts";
import { lazyModels, type SimPlugin } from "../plugin.ts";

export const CUE_MODEL_PREFIX = "sim-cue-";

export const cueSimPlugin: SimPlugin = {
  models: lazyModels(
    Object.entries(CUE_PRESETS).map(([name, preset]) => [
      CUE_MODEL_PREFIX + name,
      () => preset.make(`sim:${name}`) as unknown as Agent<unknown, unknown>,
    ]),
  ),
  observe: observeCue,
  reply(action) {
    const a = action as CueAction;
    if (a.type === "choose")
      return { kind: "action", tool: "choose", args: { option: a.option }, text: a.option };
    const letter = a.text.trim().toUpperCase();
    return CUE_LETTERS.includes(letter)
      ? { kind: "action", tool: "choose", args: { option: letter }, text: letter }
      : { kind: "text", text: a.text };
  },
};
