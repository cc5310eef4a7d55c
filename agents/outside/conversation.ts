/**
 * Which conversation of an episode an observation belongs to. Most roles hold one conversation an
 * episode; a shop's seller negotiator holds one per listing whose offers it answers, each a
 * bargaining session of its own, all in one episode and taken turn about. An outside agent reaches
 * each conversation through a link (and an MCP session, an `exec:` process, a graph run) of its own,
 * so it never reads one negotiation's moves as the continuation of another's.
 *
 * A conversation is named by its opening — the leading system messages and the first message after
 * them, which every later turn of it repeats — as the LLM agent names its threads
 * (agents/llm/agent.ts `conversationKey`; not imported, so that outside agents load no LangChain).
 */
import { createHash } from "node:crypto";
import type { Message } from "../../environments/kernel/types.ts";

/**
 * A short name of the conversation `messages` opens (the same for every turn of it). Hashed afresh
 * each turn: a few microseconds against the hundreds an outside agent's tool call costs.
 */
export function conversationOf(messages: readonly Message[]): string {
  const h = createHash("sha256");
  for (const m of messages) {
    h.update(m.role).update("\0").update(m.content).update("\0");
    if (m.role !== "system") break;
  }
  return h.digest("hex").slice(0, 16);
}

/** A link's key: the trial, and the conversation within it. */
export function linkKey(trialKey: string, conversation: string): string {
  return `${trialKey}#${conversation}`;
}
