/**
 * The shop's client behind serve-sim: models `sim-client-<name>` are the simulated clients of
 * `agents/sim/client` (`sim-client-terse`, …, `sim-client-faulty`), reading their view back out of
 * the conversation an LLM client sends (`observeClient`) and answering in text. So a shop run
 * with `--client openai:sim-client-terse` plays the whole LLM path — an LLM shopper facing an LLM
 * client — offline, and its replies are the native sim client's, word for word.
 */

import type { Observation } from "../../../environments/kernel/types.ts";
import { observeClient } from "../../../environments/shop/client/observe.ts";
import { CLIENT_PRESETS, SimClient } from "../../sim/client/index.ts";
import { asArgs, lazyModels, type SimPlugin, type SimReply } from "../plugin.ts";

export const CLIENT_MODEL_PREFIX = "sim-client-";

export const NO_CLIENT_REPLY = "I'm not sure what you are asking.";

export const clientSimPlugin: SimPlugin = {
  models: lazyModels(
    Object.entries(CLIENT_PRESETS).map(([name, preset]) => [
      CLIENT_MODEL_PREFIX + name,
      () => new SimClient(`sim:${name}`, preset.persona, preset.faulty) as never,
    ]),
  ),
  observe: (messages) => observeClient(messages),
  reply(action: unknown, _observation: Observation<unknown>): SimReply {
    return { kind: "text", text: String(asArgs(action).text ?? "") };
  },
  unrecognized: NO_CLIENT_REPLY,
};
