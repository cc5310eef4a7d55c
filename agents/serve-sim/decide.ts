/**
 * The simulated model's mind: read the environment's observation back out of the conversation, let
 * the preset agent act, and say what the reply carries (a letter, an action, or text). The agent's rng is
 * seeded from a hash of everything that should make answers differ — the server seed, the model, the
 * full message list, the request's `seed` and `temperature` — so an identical request always gets the
 * identical answer (like a cached model at temperature 0) and requests that differ only in `seed`
 * sample independently. Nothing else (tools, tool_choice, max_tokens) enters the hash, so one task
 * asked in text mode and in tools mode gets the same letter. Which environment's reading of the
 * conversation applies is the model's plugin's (`plugins/`).
 */
import { createHash } from "node:crypto";
import { createRng } from "../../environments/kernel/rng.ts";
import type { Message } from "../../environments/kernel/types.ts";
import { type SimPlugin, type SimReply, UNKNOWN_PROMPT_REPLY } from "./plugin.ts";
import { SIM_PLUGINS } from "./plugins/index.ts";
import { type ChatRequest, messageText, type WireMessage } from "./request.ts";

export interface Decision {
  /** Hex digest of the decision inputs; also names the tool call, so it is stable across retries. */
  digest: string;
  /** One reply per requested choice (`n`). */
  replies: SimReply[];
  /** The prompt asked for a final "Answer: X" line (the `cot` variant). */
  chainOfThought: boolean;
  /** Characters of message text, for the prompt-token estimate. */
  promptChars: number;
}

/** The served models: every environment plugin's, catalog choice's (`sim-<preset>`) first. */
export class SimModels {
  readonly names: string[];
  private readonly byModel = new Map<string, SimPlugin>();

  constructor(private readonly serverSeed: string) {
    for (const plugin of SIM_PLUGINS)
      for (const name of Object.keys(plugin.models)) this.byModel.set(name, plugin);
    this.names = [...this.byModel.keys()];
  }

  has(model: string): boolean {
    return this.byModel.has(model);
  }

  async decide(req: ChatRequest): Promise<Decision> {
    const digest = createHash("sha256")
      .update(JSON.stringify([this.serverSeed, req.model, req.messages, req.seed, req.temperature]))
      .digest("hex");
    const plugin = this.byModel.get(req.model);
    if (!plugin) throw new Error(`serve-sim: no model ${req.model}`);
    const agent = plugin.models[req.model]!;
    const texts = req.messages.map((m) => messageText(m));
    const promptChars = texts.reduce((a, t) => a + t.length, 0);
    const messages = observedMessages(req.messages, texts);
    const observation = plugin.observe(messages);
    const chainOfThought = plugin.chainOfThought?.(messages) ?? false;
    const replies: SimReply[] = new Array(req.n);
    for (let c = 0; c < req.n; c++) {
      if (observation === null) {
        replies[c] = { kind: "text", text: plugin.unrecognized ?? UNKNOWN_PROMPT_REPLY };
        continue;
      }
      const seed = c === 0 ? digest : `${digest}/${c}`;
      const acted = await agent.act(observation, { rng: createRng(seed), trialKey: digest, replicate: c });
      replies[c] = plugin.reply(acted.action, observation);
    }
    return { digest, replies, chainOfThought, promptChars };
  }
}

/** The conversation as the kernel's Message type shows it (tool results read as user turns). */
function observedMessages(messages: readonly WireMessage[], texts: readonly string[]): Message[] {
  return messages.map((m, i) => {
    const role =
      m.role === "assistant"
        ? "assistant"
        : m.role === "system" || m.role === "developer"
          ? "system"
          : "user";
    let content = texts[i] as string;
    if (role === "assistant" && content === "" && Array.isArray(m.tool_calls)) {
      content = m.tool_calls
        .map((t) => `${t.function?.name ?? "tool"}(${t.function?.arguments ?? ""})`)
        .join("\n");
    }
    return { role, content };
  });
}
