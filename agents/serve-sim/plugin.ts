/**
 * How an environment puts its simulated agents behind serve-sim: the models it serves, how to read
 * the agent's observation back out of the conversation a real client sends (the inverse of the
 * environment's prompt rendering), and how the agent's action is said — a call to one of the
 * environment's action tools when the request offers it, or text. One plugin per environment, in
 * `plugins/`; the server knows none of them by name.
 */
import type { Agent, Message, Observation } from "../../environments/kernel/types.ts";

/** One choice of a reply. */
export type SimReply =
  /** A catalog-choice letter: the `choose` tool in tools mode, else the letter (or the cot answer). */
  | { kind: "letter"; letter: string }
  | { kind: "text"; text: string }
  /** Another environment's action: a call to `tool` when the request lets it be called, else `text`. */
  | { kind: "action"; tool: string; args: Record<string, unknown>; text: string }
  /**
   * Several tool calls in one message (parallel tool calls), in order, when the request lets every
   * one be called; else `text` (the environment's text form of the same calls).
   */
  | { kind: "calls"; calls: { tool: string; args: Record<string, unknown> }[]; text: string }
  /**
   * A message to the person the agent works for (the shop's client): in tools mode a reply without
   * any tool call (τ²-bench's convention), in text mode `line`, the text grammar's form of it.
   */
  | { kind: "message"; text: string; line: string };

export interface SimPlugin {
  /** Model name (e.g. `sim-bargain-conceder`) → the simulated agent that answers as it. */
  models: Record<string, Agent<unknown, unknown>>;
  /** The observation the agent would have had; null when the conversation is not this environment's. */
  observe(messages: Message[]): Observation<unknown> | null;
  reply(action: unknown, observation: Observation<unknown>): SimReply;
  /** What the models say to a conversation `observe` cannot read (default UNKNOWN_PROMPT_REPLY). */
  unrecognized?: string;
  /** Whether the prompt asks for reasoning before an "Answer: X" line (catalog choice's `cot`). */
  chainOfThought?(messages: Message[]): boolean;
}

/** What a plugin's model says when the conversation is not one its environment would show. */
export const UNKNOWN_PROMPT_REPLY = "I'm sorry, I'm not sure what you would like me to do here.";

/** Models built on first use: resolving a preset's parameters can take a moment. */
export function lazyModels(
  makers: Iterable<[name: string, make: () => Agent<unknown, unknown>]>,
): Record<string, Agent<unknown, unknown>> {
  const models: Record<string, Agent<unknown, unknown>> = {};
  for (const [name, make] of makers) {
    let agent: Agent<unknown, unknown> | undefined;
    Object.defineProperty(models, name, {
      enumerable: true,
      get: () => {
        agent ??= make();
        return agent;
      },
    });
  }
  return models;
}

/** A tool call's arguments as an object (anything else a model sent reads as no arguments). */
export function asArgs(x: unknown): Record<string, unknown> {
  return x !== null && typeof x === "object" && !Array.isArray(x) ? (x as Record<string, unknown>) : {};
}
