/**
 * The simulated model's mind: find the episode in the conversation however the client framed it
 * (`episode.ts`), read the environment's observation back out of it via the model's plugin, let the
 * preset agent act, and say what the reply carries (a letter, an action, or text). The agent's rng
 * is seeded from a hash of everything that should make answers differ — the server seed, the model,
 * the episode as read (the conversation in the environment's own shape, so the same episode framed
 * by any framework gets the same answer; the messages as sent when no episode is found), the
 * request's `seed` and `temperature` — so an identical request always gets the identical answer
 * (like a cached model at temperature 0) and requests that differ only in `seed` sample
 * independently. Nothing else (tools, tool_choice, max_tokens, tool call ids, a framework's own
 * instructions) enters the hash, so one task asked in text mode and in tools mode gets the same
 * letter. Which environment's reading of the conversation applies is the model's plugin's (`plugins/`).
 */
import { createHash } from "node:crypto";
import { createRng } from "../../environments/kernel/rng.ts";
import { EpisodeFinder } from "./episode.ts";
import { type SimPlugin, type SimReply, UNKNOWN_PROMPT_REPLY } from "./plugin.ts";
import { SIM_PLUGINS } from "./plugins/index.ts";
import { type ChatRequest, promptChars } from "./request.ts";

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
  private readonly finders = new Map<SimPlugin, EpisodeFinder>();

  constructor(private readonly serverSeed: string) {
    for (const plugin of SIM_PLUGINS) {
      this.finders.set(plugin, new EpisodeFinder(plugin));
      for (const name of Object.keys(plugin.models)) this.byModel.set(name, plugin);
    }
    this.names = [...this.byModel.keys()];
  }

  has(model: string): boolean {
    return this.byModel.has(model);
  }

  async decide(req: ChatRequest): Promise<Decision> {
    const plugin = this.byModel.get(req.model);
    if (!plugin) throw new Error(`serve-sim: no model ${req.model}`);
    const agent = plugin.models[req.model]!;
    const reading = (this.finders.get(plugin) as EpisodeFinder).read(req.messages);
    const hashed = reading.kind === "read" ? reading.messages : req.messages;
    const digest = createHash("sha256")
      .update(JSON.stringify([this.serverSeed, req.model, hashed, req.seed, req.temperature]))
      .digest("hex");
    const messages = reading.kind === "over" ? [] : reading.messages;
    const chainOfThought = plugin.chainOfThought?.(messages) ?? false;
    const replies: SimReply[] = new Array(req.n);
    for (let c = 0; c < req.n; c++) {
      if (reading.kind !== "read") {
        const text =
          reading.kind === "over" ? reading.closing : (plugin.unrecognized ?? UNKNOWN_PROMPT_REPLY);
        replies[c] = { kind: "text", text };
        continue;
      }
      const seed = c === 0 ? digest : `${digest}/${c}`;
      const acted = await agent.act(reading.observation, {
        rng: createRng(seed),
        trialKey: digest,
        replicate: c,
      });
      replies[c] = plugin.reply(acted.action, reading.observation);
    }
    return { digest, replies, chainOfThought, promptChars: promptChars(req.messages) };
  }
}
