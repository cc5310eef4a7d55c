import type { Agent, Message, Observation } from "../../environments/kernel/types.ts";
import type { SimReply } from "./decide.ts";
import { bargainSimPlugin } from "./plugins/bargain.ts";
import { cueSimPlugin } from "./plugins/cue.ts";
import { elicitSimPlugin } from "./plugins/elicit.ts";

/**
 * How an environment other than catalog choice puts its simulated agents behind serve-sim: the
 * models it serves, how to read the agent's observation back out of the conversation a real client
 * sends (the inverse of the environment's prompt rendering), and how the agent's action is said —
 * a call to one of the environment's action tools when the request offers it, or text.
 */
export interface SimPlugin {
  /** Model name (e.g. `sim-bargain-conceder`) → the simulated agent that answers as it. */
  models: Record<string, Agent<unknown, unknown>>;
  /** The observation the agent would have had; null when the conversation is not this environment's. */
  observe(messages: Message[]): Observation<unknown> | null;
  reply(action: unknown, observation: Observation<unknown>): SimReply;
}

/**
 * Every environment's plugin. Catalog choice is built into the server; an environment adds its
 * plugin here (one import, one entry).
 */
export const SIM_PLUGINS: SimPlugin[] = [bargainSimPlugin, elicitSimPlugin, cueSimPlugin];
