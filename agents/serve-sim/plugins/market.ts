/**
 * Market sellers behind serve-sim: models `sim-market-<preset>` are the simulated sellers of
 * `agents/sim/market`, reading their observation back out of the conversation (`observeSeller`) and
 * answering with tool calls — both `set_description` and `set_price` in one message where a seller
 * makes both — when the request offers the seller's tools, else with the text grammar's Action lines.
 */
import type { Observation } from "../../../environments/kernel/types.ts";
import { observeSeller } from "../../../environments/market/observe.ts";
import { sellerSystemPrompt } from "../../../environments/market/prompt.ts";
import { TOOL_CALL_BATCH } from "../../../environments/shop/actions.ts";
import { actionLine } from "../../../environments/shop/grammar.ts";
import { SELLER_PRESETS } from "../../sim/market/presets.ts";
import { asArgs, lazyModels, type SimPlugin, type SimReply } from "../plugin.ts";

export const MARKET_MODEL_PREFIX = "sim-market-";

/** What a market model says to a conversation that is not a seller's turn. */
export const NO_MARKET_REPLY =
  "I can manage a listing for you once I see its round report and the seller's tools; I don't see them here.";

export const marketSimPlugin: SimPlugin = {
  models: lazyModels(
    Object.entries(SELLER_PRESETS).map(([name, preset]) => [
      MARKET_MODEL_PREFIX + name,
      () => preset.make(`sim:${name}`) as never,
    ]),
  ),
  observe(messages): Observation<unknown> | null {
    const seen = observeSeller(messages);
    // observeSeller reads the rules out of the system prompt by pattern; the prompt must also be
    // exactly the one those rules write, or a framework's text beside it would read as part of it.
    return seen && messages[0]?.content === sellerSystemPrompt(seen.view.rules) ? seen : null;
  },
  reply(action: unknown): SimReply {
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
    return { kind: "action", tool, args, text: actionLine(tool, args) };
  },
  unrecognized: NO_MARKET_REPLY,
};
