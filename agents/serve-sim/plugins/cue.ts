/**
 * The cue environment behind `bazaar serve-sim`: models `sim-cue-<preset>` answer a real client's
 * cue prompt as the simulated shopper would, so the LLM path (ChatOpenAI over HTTP, tool calls
 * included) runs against known price-equivalents.
 */

import { DEFAULT_PRODUCT_PAIRS } from "../../../datasets/products/library.ts";
import type { CueAction } from "../../../environments/cue/actions.ts";
import { parseCuePrompt } from "../../../environments/cue/cards.ts";
import type { CueView } from "../../../environments/cue/machine.ts";
import { CUE_LETTERS } from "../../../environments/cue/types.ts";
import type { Agent, Message, Observation } from "../../../environments/kernel/types.ts";
import { CUE_PRESETS } from "../../sim/cue-presets.ts";
import type { SimPlugin } from "../plugins.ts";

export const CUE_MODEL_PREFIX = "sim-cue-";

/** The category a shipped pair's item names; unknown items read as no category (texts fall back to "*"). */
const CATEGORY_OF_ITEM = new Map(DEFAULT_PRODUCT_PAIRS.map((p) => [p.item, p.category]));

/** The shopper's observation read back from the conversation, or null if it is not a cue prompt. */
export function observeCue(messages: Message[]): Observation<CueView> | null {
  const user = messages.find((m) => m.role === "user");
  const read = user ? parseCuePrompt(user.content) : null;
  if (!read) return null;
  const attempt = messages.filter((m) => m.role === "assistant").length;
  return {
    messages,
    view: {
      cards: read.cards,
      letters: CUE_LETTERS,
      category: CATEGORY_OF_ITEM.get(read.item) ?? "",
      item: read.item,
      attempt,
    },
  };
}

/** Models are built on first use: resolving a preset's parameters can take a moment. */
function lazyModels(): Record<string, Agent<unknown, unknown>> {
  const models: Record<string, Agent<unknown, unknown>> = {};
  for (const [name, preset] of Object.entries(CUE_PRESETS)) {
    let agent: Agent<unknown, unknown> | undefined;
    Object.defineProperty(models, CUE_MODEL_PREFIX + name, {
      enumerable: true,
      get: () => {
        agent ??= preset.make(`sim:${name}`) as unknown as Agent<unknown, unknown>;
        return agent;
      },
    });
  }
  return models;
}

export const cueSimPlugin: SimPlugin = {
  models: lazyModels(),
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
