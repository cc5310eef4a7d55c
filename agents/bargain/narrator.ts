import type { BaseMessage } from "@langchain/core/messages";
import { inventoryList } from "../../environments/bargain/prompt.ts";
import { narratorFallbackNote } from "../../environments/bargain/record.ts";
import { renderAction } from "../../environments/bargain/text.ts";
import type { BargainView } from "../../environments/bargain/types.ts";
import type { AnswerShape } from "../../environments/kernel/answer-shape.ts";
import { samePrice } from "../../environments/kernel/money.ts";
import { type AgentContext, addUsage, emptyUsage, type Usage } from "../../environments/kernel/types.ts";
import type { ResponseCache } from "../llm/cache.ts";
import { type ChatInvoker, ModelCaller } from "../llm/caller.ts";
import type { CallEvents } from "../llm/gate.ts";
import { langchainMessages } from "../llm/langchain.ts";
import type { ModelEndpoint } from "../llm/preflight.ts";
import { type LlmSettings, llmIdentity } from "../llm/settings.ts";
import type { OgDecision } from "./offer-generator.ts";
import { talkLine } from "./talk.ts";
import { read } from "./view.ts";

/** What the narrator is asked to voice: a move already decided, in the dialogue so far. */
export interface NarrationRequest {
  view: BargainView;
  decision: OgDecision;
}

export interface Narration {
  talk: string;
  usage?: Usage;
  /** Set when the narration is not what the narrator was asked for (e.g. a fallback). */
  note?: string;
}

/**
 * The Narrator turns a decided move into one natural message. It only ever returns talk: the move
 * and its price are fixed before it is asked, and it cannot change them.
 */
export interface Narrator {
  readonly identity: Record<string, unknown>;
  narrate(request: NarrationRequest, ctx: AgentContext): Narration | Promise<Narration>;
}

/** Offline narration from fixed lines, varied by the step, naming only the move's own price. */
export class TemplateNarrator implements Narrator {
  readonly identity = { kind: "template" };

  narrate({ view, decision }: NarrationRequest): Narration {
    const step = read(view).step;
    return { talk: talkLine("buyer", decision.type, decision.price, step - 1, step === 0) };
  }
}

const NARRATOR_SYSTEM = [
  "You are good at business negotiation and fully understand what each negotiation action means.",
  "Write the short line a buyer or a seller says together with a given action in a bargaining dialogue.",
  "Write natural, varied sentences, never repeating a sentence already in the dialogue. Be concise.",
  "The line must express exactly the intention of the action and name no price other than the action's.",
  "",
  "Actions:",
  "[BUY] $M (1x codename): the buyer offers $M in total for 1 unit of the item.",
  "[SELL] $M (1x codename): the seller asks $M in total for 1 unit of the item.",
  "[REJECT]: reject the other side's offer and wait for a new one.",
  "[DEAL] $M (1x codename): accept the other side's earlier offer of $M; this ends the dialogue with a deal.",
  "[QUIT]: end the dialogue without a deal.",
  "",
  "You are given the Inventory List, the Dialogue so far, the Final Role and the Final Action.",
  "Answer with three lines: the Final Role, the Final Action, and the Sentences, for example:",
  'Final Role: "BUYER"',
  'Final Action: "[REJECT]"',
  'Sentences: "I can\'t afford that price."',
].join("\n");

const EXAMPLE_REQUEST = [
  "Inventory List:",
  "Product 1 (codename: charger_1)",
  'Title: "Dual USB Car Charger with LED Light"',
  'Description: "Charges two devices at once on the road."',
  "Listed price: $10",
  "",
  "Dialogue:",
  '"[BUY] $5 (1x charger_1)": "BUYER: Hi, would you sell the charger for $5?",',
  '"[SELL] $8 (1x charger_1)": "SELLER: The lowest I would go is $8.",',
  '"[BUY] $6 (1x charger_1)": "BUYER: How about $6 if I pick it up myself?",',
  '"[SELL] $7 (1x charger_1)": "SELLER: At least $7.",',
  "",
  'Final Role: "BUYER"',
  'Final Action: "[DEAL] $7 (1x charger_1)"',
].join("\n");

const EXAMPLE_ANSWER =
  'Final Role: "BUYER"\nFinal Action: "[DEAL] $7 (1x charger_1)"\nSentences: "Fine, $7 it is. Deal."';

/**
 * The narrator's conversation: rules, a worked example, then this dialogue and the final action (as
 * LangChain messages, loaded on first use: langchain.ts).
 */
export async function narratorMessages({ view, decision }: NarrationRequest): Promise<BaseMessage[]> {
  const { AIMessage, HumanMessage, SystemMessage } = await langchainMessages();
  const dialogue = view.history
    .map(
      (m) =>
        `"${renderAction(m.role, m.type, m.price, view.codename)}": "${m.role.toUpperCase()}: ${m.talk}",`,
    )
    .join("\n");
  const request =
    `${inventoryList(view, null)}\n\nDialogue:\n${dialogue}\n\n` +
    `Final Role: "BUYER"\nFinal Action: "${renderAction("buyer", decision.type, decision.price, view.codename)}"`;
  return [
    new SystemMessage(NARRATOR_SYSTEM),
    new HumanMessage(EXAMPLE_REQUEST),
    new AIMessage(EXAMPLE_ANSWER),
    new HumanMessage(request),
  ];
}

/** The sentence of a narrator answer: the last `Sentences: "…"` line, quotes removed; null if none. */
export function extractSentence(answer: string): string | null {
  const lines = answer.trim().split("\n").reverse();
  for (const line of lines) {
    const at = line.indexOf('Sentences: "');
    if (at < 0) continue;
    const text = line
      .slice(at + 'Sentences: "'.length)
      .trim()
      .replace(/"$/, "")
      .trim();
    return text === "" ? null : text;
  }
  return null;
}

/** Every dollar amount a sentence names is the move's price or one already said in the dialogue. */
export function namesOnlyKnownPrices(sentence: string, request: NarrationRequest): boolean {
  const known = request.view.history.flatMap((m) => (m.price === null ? [] : [m.price]));
  if (request.decision.price !== null) known.push(request.decision.price);
  for (const m of sentence.matchAll(/\$\s?(\d[\d,]*(?:\.\d+)?)/g)) {
    const amount = Number((m[1] as string).replaceAll(",", ""));
    if (!known.some((k) => samePrice(k, amount))) return false;
  }
  return true;
}

/** A narrator's answer: three short labelled lines (the reference's cap: 500 tokens). */
export const NARRATOR_ANSWER: AnswerShape = { toolChoice: "auto", maxTokens: { text: 500, tools: 500 } };

/** Attempts at a usable sentence before the template line is used (the reference's 3). */
export const NARRATOR_ATTEMPTS = 3;
/** Each attempt is a distinct request (its own sampling seed and cache entry). */
const ATTEMPT_OFFSET = 1_000_003;

/**
 * The paper's LLM narrator (temperature 0.3 by default) over any OpenAI-compatible model, with the
 * shared caller's cache, retries and rate limits. An answer without a `Sentences:` line, or one
 * naming a price that is neither the move's nor in the dialogue, is asked again; after three
 * unusable answers the template line is used and the transcript notes it. The move never changes.
 */
export class LlmNarrator implements Narrator {
  private readonly caller: ModelCaller;
  private readonly fallback = new TemplateNarrator();
  readonly identity: Record<string, unknown>;

  constructor(
    readonly settings: LlmSettings,
    private readonly options: {
      apiKey?: string;
      cache?: ResponseCache;
      events?: CallEvents;
      chat?: ChatInvoker;
    } = {},
  ) {
    this.caller = new ModelCaller(settings, options.apiKey, options.cache, options.events, options.chat);
    this.identity = { ...llmIdentity(settings), narrator: "llm" };
  }

  /** The model it calls, for the run's preflight (none with an injected chat model). */
  modelEndpoints(): ModelEndpoint[] {
    if (this.options.chat) return [];
    return [{ baseURL: this.settings.baseURL, model: this.settings.model, apiKey: this.options.apiKey }];
  }

  async narrate(request: NarrationRequest, ctx: AgentContext): Promise<Narration> {
    const messages = await narratorMessages(request);
    let usage = emptyUsage();
    for (let attempt = 0; attempt < NARRATOR_ATTEMPTS; attempt++) {
      const replicate = ctx.replicate + attempt * ATTEMPT_OFFSET;
      const { message, usage: u } = await this.caller.call(messages, undefined, replicate, ctx.signal);
      usage = addUsage(usage, u);
      const text = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
      const sentence = extractSentence(text);
      if (sentence !== null && namesOnlyKnownPrices(sentence, request)) return { talk: sentence, usage };
    }
    const { talk } = this.fallback.narrate(request);
    return {
      talk,
      usage,
      note: narratorFallbackNote(NARRATOR_ATTEMPTS),
    };
  }
}
