/**
 * The simulated model's mind: read the catalog-choice cards out of the conversation, let the preset
 * agent choose, and say which letter (or which off-format text) the reply carries. The agent's rng is
 * seeded from a hash of everything that should make answers differ — the server seed, the model, the
 * full message list, the request's `seed` and `temperature` — so an identical request always gets the
 * identical answer (like a cached model at temperature 0) and requests that differ only in `seed`
 * sample independently. Nothing else (tools, tool_choice, max_tokens) enters the hash, so one task
 * asked in text mode and in tools mode gets the same letter.
 */
import { createHash } from "node:crypto";
import type { ChoiceAction } from "../../environments/choice/actions.ts";
import { parseChoiceCards } from "../../environments/choice/cards.ts";
import type { ChoiceView } from "../../environments/choice/machine.ts";
import { slotLetters } from "../../environments/choice/types.ts";
import { createRng } from "../../environments/kernel/rng.ts";
import type { Agent, Message } from "../../environments/kernel/types.ts";
import { CHOICE_PRESETS } from "../sim/index.ts";
import { SIM_PLUGINS, type SimPlugin } from "./plugins.ts";
import { type ChatRequest, messageText, type WireMessage } from "./request.ts";

/** What a plugin's model says when the conversation is not one its environment would show. */
export const UNKNOWN_PROMPT_REPLY = "I'm sorry, I'm not sure what you would like me to do here.";

async function decideWithPlugin(plugin: SimPlugin, req: ChatRequest, digest: string): Promise<Decision> {
  const agent = plugin.models[req.model]!;
  const texts = req.messages.map((m) => messageText(m));
  const promptChars = texts.reduce((a, t) => a + t.length, 0);
  const observation = plugin.observe(observedMessages(req.messages, texts));
  const replies: SimReply[] = new Array(req.n);
  for (let c = 0; c < req.n; c++) {
    if (observation === null) {
      replies[c] = { kind: "text", text: UNKNOWN_PROMPT_REPLY };
      continue;
    }
    const seed = c === 0 ? digest : `${digest}/${c}`;
    const acted = await agent.act(observation, { rng: createRng(seed), trialKey: digest, replicate: c });
    replies[c] = plugin.reply(acted.action, observation);
  }
  return { digest, replies, chainOfThought: false, promptChars };
}

/** One choice of a reply: a slot letter, or text that names no option. */
export type SimReply =
  | { kind: "letter"; letter: string }
  | { kind: "text"; text: string }
  /** Another environment's action: a call to `tool` when the request lets it be called, else `text`. */
  | { kind: "action"; tool: string; args: Record<string, unknown>; text: string };

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

export const MODEL_PREFIX = "sim-";

/** What a model answers when the conversation holds no option cards: polite, and no choice. */
export const NO_CARDS_REPLY =
  "I'd be happy to help you book a hotel, but I don't see any options in your message. " +
  "Could you share the listings you would like me to choose from?";

/** The served models: `sim-<preset>` for every catalog-choice preset, one agent instance each. */
export class SimModels {
  readonly names: string[];
  private readonly agents = new Map<string, Agent<ChoiceView, ChoiceAction>>();

  constructor(private readonly serverSeed: string) {
    for (const [preset, spec] of Object.entries(CHOICE_PRESETS)) {
      this.agents.set(MODEL_PREFIX + preset, spec.make(`sim:${preset}`));
    }
    this.names = [...this.agents.keys(), ...SIM_PLUGINS.flatMap((p) => Object.keys(p.models))];
  }

  has(model: string): boolean {
    return this.agents.has(model) || SIM_PLUGINS.some((p) => model in p.models);
  }

  async decide(req: ChatRequest): Promise<Decision> {
    const digest = createHash("sha256")
      .update(JSON.stringify([this.serverSeed, req.model, req.messages, req.seed, req.temperature]))
      .digest("hex");
    const plugin = SIM_PLUGINS.find((p) => req.model in p.models);
    if (plugin) return decideWithPlugin(plugin, req, digest);
    const agent = this.agents.get(req.model);
    if (!agent) throw new Error(`serve-sim: no model ${req.model}`);

    let promptChars = 0;
    let cardsText: string | null = null;
    let options: ReturnType<typeof parseChoiceCards> = null;
    let assistantTurns = 0;
    let chainOfThought = false;
    const texts: string[] = new Array(req.messages.length);
    for (let i = 0; i < req.messages.length; i++) {
      const m = req.messages[i] as WireMessage;
      const text = messageText(m);
      texts[i] = text;
      promptChars += text.length;
      if (m.role === "assistant") assistantTurns++;
      else if (m.role === "user" || m.role === "system" || m.role === "developer") {
        if (!chainOfThought && text.includes("Answer: X")) chainOfThought = true;
        if (options === null && m.role === "user") {
          options = parseChoiceCards(text);
          if (options !== null) cardsText = text;
        }
      }
    }
    if (options === null || cardsText === null) {
      const none: SimReply = { kind: "text", text: NO_CARDS_REPLY };
      return { digest, replies: Array.from({ length: req.n }, () => none), chainOfThought, promptChars };
    }

    const letters = slotLetters(options.length);
    const observation = {
      messages: observedMessages(req.messages, texts),
      view: { options, letters, attempt: assistantTurns },
    };
    const replies: SimReply[] = new Array(req.n);
    for (let c = 0; c < req.n; c++) {
      const seed = c === 0 ? digest : `${digest}/${c}`;
      const acted = await agent.act(observation, { rng: createRng(seed), trialKey: digest, replicate: c });
      replies[c] = toReply(acted.action, letters);
    }
    return { digest, replies, chainOfThought, promptChars };
  }
}

function toReply(action: ChoiceAction, letters: readonly string[]): SimReply {
  const said = action.type === "choose" ? action.option : action.text;
  const letter = said.trim().toUpperCase();
  return letters.includes(letter) ? { kind: "letter", letter } : { kind: "text", text: said };
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
