import { observeBargain } from "../../../environments/bargain/observe.ts";
import { renderAction, renderReply } from "../../../environments/bargain/text.ts";
import type { BargainView, MoveType } from "../../../environments/bargain/types.ts";
import type { Agent, Observation } from "../../../environments/kernel/types.ts";
import { RULE_PRESETS, SIM_PRESETS } from "../../bargain/presets.ts";
import type { SimPlugin, SimReply } from "../plugin.ts";

/** serve-sim model names: `sim-bargain-<preset>` for every rule and simulated negotiator. */
export const BARGAIN_MODEL_PREFIX = "sim-bargain-";

function models(): Record<string, Agent<unknown, unknown>> {
  const out: Record<string, Agent<unknown, unknown>> = {};
  for (const [name, preset] of [...Object.entries(RULE_PRESETS), ...Object.entries(SIM_PRESETS)]) {
    out[BARGAIN_MODEL_PREFIX + name] = preset.make(BARGAIN_MODEL_PREFIX + name) as Agent<unknown, unknown>;
  }
  return out;
}

const THOUGHT: Readonly<Record<MoveType, string>> = {
  offer: "We are not there yet, so I make a new offer.",
  deal: "That offer is acceptable, so I accept it.",
  reject: "That offer does not work for me.",
  quit: "We are too far apart to reach a deal.",
};

/**
 * Bargaining behind serve-sim: every rule and simulated negotiator plays either role (the system
 * prompt says which), answering with a call to the environment's action tool when the request
 * offers it, or with the paper's Thought/Talk/Action text.
 */
export const bargainSimPlugin: SimPlugin = {
  models: models(),
  observe: (messages) => observeBargain(messages),
  reply(action: unknown, observation: Observation<unknown>): SimReply {
    const view = observation.view as BargainView;
    const a = action as { type: string; price?: number; talk?: string; text?: string };
    if (a.type === "reply") return { kind: "text", text: a.text ?? "" };
    const type = a.type as MoveType;
    const talk = a.talk ?? "";
    const price = type === "offer" || type === "deal" ? (a.price ?? null) : null;
    const args: Record<string, unknown> = price === null ? { talk } : { price, talk };
    const text = renderReply(THOUGHT[type], talk, renderAction(view.role, type, price, view.codename));
    return { kind: "action", tool: type, args, text };
  },
};
