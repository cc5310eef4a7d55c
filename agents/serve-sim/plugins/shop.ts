/**
 * The shop behind serve-sim: models `sim-shop-<preset>` are the simulated shoppers of
 * `agents/sim/shop`, the hagglers among them (`sim-shop-seller-playing-haggler`, …: they make
 * offers where the system prompt gives them the offer tool), reading their observation back out of
 * the conversation (`observeShop`) and answering with tool calls — several in one message where
 * the shopper makes several — when the request offers the shop's tools, else with the text
 * grammar's `Action:` lines.
 */
import type { Observation } from "../../../environments/kernel/types.ts";
import { MESSAGE_CLIENT, TOOL_CALL_BATCH } from "../../../environments/shop/actions.ts";
import { actionLine } from "../../../environments/shop/grammar.ts";
import { observeShop } from "../../../environments/shop/observe.ts";
import { HAGGLER_PRESETS, SHOP_PRESETS, TALKER_PRESETS } from "../../sim/shop/presets.ts";
import { asArgs, lazyModels, type SimPlugin, type SimReply } from "../plugin.ts";

export const SHOP_MODEL_PREFIX = "sim-shop-";

/** What a shop model says to a conversation that is not a shop episode. */
export const NO_SHOP_REPLY =
  "I can book a hotel for you once I have the shop's tools and your requirements; I don't see them here.";

export const shopSimPlugin: SimPlugin = {
  models: lazyModels(
    [
      ...Object.entries(SHOP_PRESETS),
      ...Object.entries(HAGGLER_PRESETS),
      ...Object.entries(TALKER_PRESETS),
    ].map(([name, preset]) => [SHOP_MODEL_PREFIX + name, () => preset.make(`sim:${name}`) as never]),
  ),
  observe: (messages) => observeShop(messages),
  reply(action: unknown, _observation: Observation<unknown>): SimReply {
    const a = asArgs(action);
    if (a.type === "reply") return { kind: "text", text: String(a.text ?? "") };
    if (a.type === TOOL_CALL_BATCH && Array.isArray(a.calls)) {
      const calls = a.calls.map((c) => {
        const o = asArgs(c);
        return { tool: String(o.name ?? ""), args: asArgs(o.args) };
      });
      return { kind: "calls", calls, text: calls.map((c) => actionLine(c.tool, c.args)).join("\n") };
    }
    const { type, ...args } = a;
    const tool = String(type ?? "");
    if (tool === MESSAGE_CLIENT) {
      const text = String(args.text ?? "");
      return { kind: "message", text, line: actionLine(tool, { text }) };
    }
    return { kind: "action", tool, args, text: actionLine(tool, args) };
  },
  unrecognized: NO_SHOP_REPLY,
};
