/**
 * Real conversations of every environment served by serve-sim, as bazaar's own agents send them,
 * and the same conversations framed the ways outside frameworks frame a task: for the tests of
 * `agents/serve-sim/episode.ts`. The conversations are what the machines show their agents in whole
 * episodes (every turn of each, not only openings), put on the wire as the OpenAI chat format carries
 * them: an assistant turn of `name({…})` lines with one result each is a tool-calling turn answered
 * by `tool` messages, as bazaar's LangGraph agent and any MCP-based framework send it.
 */
import { resolveBargainPlayer } from "../../../agents/bargain/registry.ts";
import type { WireMessage } from "../../../agents/serve-sim/request.ts";
import { simClient } from "../../../agents/sim/client/index.ts";
import { HAGGLER_PRESETS, SHOP_PRESETS, TALKER_PRESETS } from "../../../agents/sim/shop/presets.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { defaultPriceHistoryCatalog } from "../../../datasets/price-history/index.ts";
import { DEFAULT_CUE_LIBRARY, DEFAULT_PRODUCT_PAIRS } from "../../../datasets/products/index.ts";
import { buildBargainTasks } from "../../../environments/bargain/scenarios.ts";
import { buildChoiceTasks } from "../../../environments/choice/design.ts";
import { renderChoiceMessages } from "../../../environments/choice/prompt.ts";
import { buildCueTasks, renderCueMessages, shownCard } from "../../../environments/cue/index.ts";
import { buildElicitTasks, renderElicitMessages } from "../../../environments/elicit/index.ts";
import { runEpisode } from "../../../environments/kernel/episode.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import type { Acted, Agent, AgentContext, Message, Observation } from "../../../environments/kernel/types.ts";
import { sellerConversation } from "../../../environments/market/machine.ts";
import { applySellerMessage, initialTurnState } from "../../../environments/market/rules.ts";
import { buildShopTasks, type ShopOutcome, shopMachine } from "../../../environments/shop/index.ts";
import { play as playBargain } from "../../environments/bargain/helpers.ts";
import { sellerTaskFixtures } from "../../environments/market/fixtures.ts";
import { playWithSellers } from "../../environments/shop/helpers.ts";

/** Records the messages of every observation the wrapped agent gets. */
class Recorder implements Agent<unknown, unknown> {
  readonly seen: Message[][] = [];
  constructor(private readonly inner: Agent<unknown, unknown>) {}
  get id() {
    return this.inner.id;
  }
  act(o: Observation<unknown>, ctx: AgentContext): Acted<unknown> | Promise<Acted<unknown>> {
    this.seen.push(o.messages.map((m) => ({ ...m })));
    return this.inner.act(o, ctx);
  }
}

const ctx = (key: string): AgentContext => ({ rng: createRng(key), trialKey: key, replicate: 0 });

/** A serve-sim model of each environment, and what its agents are shown in whole episodes. */
export interface Conversations {
  env: string;
  model: string;
  conversations: Message[][];
}

async function shop(): Promise<Message[][]> {
  const out: Message[][] = [];
  const tasks = buildShopTasks({ tasks: 12, seed: 3 }, DEFAULT_HOTEL_POOL);
  for (const family of ["needle", "open", "infeasible"] as const) {
    const task = tasks.find((t) => t.family === family)!;
    const shopper = new Recorder(SHOP_PRESETS.careful!.make("sim:careful") as Agent<unknown, unknown>);
    await runEpisode<ShopOutcome>(shopMachine, { task }, { shopper }, ctx(task.taskId));
    out.push(...shopper.seen);
  }
  // Offers: negotiable listings, a haggler and two bargaining sellers.
  const offers = buildShopTasks({ tasks: 12, seed: 7, negotiable: 0.5, negotiators: 2 }, DEFAULT_HOTEL_POOL);
  const haggled = offers.find((t) => t.family === "open")!;
  const haggler = new Recorder(
    HAGGLER_PRESETS["anchoring-haggler"]!.make("sim:anchoring-haggler") as Agent<unknown, unknown>,
  );
  await playWithSellers(haggled, haggler, ["rule:boulware", "rule:conceder"], "framings");
  out.push(...haggler.seen);
  return out;
}

/** A shop episode with a client: the asking shopper's conversations and the client's. */
async function withClient(): Promise<{ shopper: Message[][]; client: Message[][] }> {
  const task = buildShopTasks({ tasks: 12, seed: 11, clients: true }, DEFAULT_HOTEL_POOL).find(
    (t) => t.family === "open",
  )!;
  const shopper = new Recorder(
    TALKER_PRESETS["asks-first"]!.make("sim:asks-first") as Agent<unknown, unknown>,
  );
  const client = new Recorder(simClient("terse") as unknown as Agent<unknown, unknown>);
  await runEpisode<ShopOutcome>(shopMachine, { task }, { shopper, client }, ctx(task.taskId));
  // The client's first turn (its opening) is the persona's template wording, never a model's: an LLM
  // client does not ask its model for it, so serve-sim's clients are not shown it.
  return { shopper: shopper.seen, client: client.seen.slice(1) };
}

async function bargain(): Promise<{ buyer: Message[][]; seller: Message[][] }> {
  const [task] = buildBargainTasks({ seed: 5, scenarios: 2 }, defaultPriceHistoryCatalog());
  const buyer = new Recorder(resolveBargainPlayer("rule:linear", "buyer").agent as Agent<unknown, unknown>);
  const seller = new Recorder(
    resolveBargainPlayer("rule:boulware", "seller").agent as Agent<unknown, unknown>,
  );
  await playBargain(buyer as never, seller as never, task!);
  return { buyer: buyer.seen, seller: seller.seen };
}

function market(): Message[][] {
  const [task] = sellerTaskFixtures(2);
  const refused = applySellerMessage(
    initialTurnState(task!),
    {
      type: "several tool calls",
      calls: [
        { name: "set_price", args: { amount: 1 } },
        { name: "set_description", args: { text: "" } },
      ],
    },
    task!,
  );
  return [sellerConversation(task!, []), sellerConversation(task!, refused.messages)];
}

function singleTurn(): { choice: Message[][]; cue: Message[][]; elicit: Message[][] } {
  const choice = buildChoiceTasks(
    { seed: 7, pairs: 1, pairAppearances: 1, triples: 1, fives: 0, variant: "plain" },
    DEFAULT_HOTEL_POOL,
  ).map((t) => renderChoiceMessages(t.options, t.variant));
  const cue = buildCueTasks(
    { conditions: ["authority"], blocks: ["main"], categories: ["coffee-machines"], grid: [0, 0.04] },
    DEFAULT_PRODUCT_PAIRS,
    DEFAULT_CUE_LIBRARY,
  )
    .slice(0, 2)
    .map((t) => renderCueMessages([shownCard(t.options[0]), shownCard(t.options[1])] as never, t.item, 2));
  const elicitTasks = buildElicitTasks({ seed: 3, domains: ["hotels"] });
  const elicit = [
    elicitTasks.find((t) => t.queryType === "item")!,
    elicitTasks.find((t) => t.queryType === "offer-pair")!,
  ].map(renderElicitMessages);
  return { choice, cue, elicit };
}

/** Every environment's conversations, with one of its models. */
export async function everyEnvironment(): Promise<Conversations[]> {
  const client = await withClient();
  const sides = await bargain();
  const single = singleTurn();
  return [
    { env: "shop", model: "sim-shop-careful", conversations: await shop() },
    { env: "shop (client)", model: "sim-shop-asks-first", conversations: client.shopper },
    { env: "client", model: "sim-client-terse", conversations: client.client },
    { env: "bargain (buyer)", model: "sim-bargain-erratic", conversations: sides.buyer },
    { env: "bargain (seller)", model: "sim-bargain-llm", conversations: sides.seller },
    { env: "market", model: "sim-market-cue-bandit", conversations: market() },
    { env: "choice", model: "sim-noisy", conversations: single.choice },
    { env: "cue", model: "sim-cue-moderate", conversations: single.cue },
    { env: "elicit", model: "sim-elicit-inconsistent", conversations: single.elicit },
  ];
}

const ECHO = /^([A-Za-z_][A-Za-z0-9_]*)\((.*)\)$/s;

/**
 * A conversation on the wire as bazaar's own agent sends it: the system prompt, the request, then
 * the turns — tool-calling turns as `tool_calls` answered by `tool` messages, other turns as text.
 */
export function nativeWire(messages: readonly Message[]): WireMessage[] {
  const out: WireMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (m.role !== "assistant") {
      out.push({ role: m.role, content: m.content });
      continue;
    }
    let j = i + 1;
    while (j < messages.length && messages[j]?.role === "user") j++;
    const lines = m.content.split("\n");
    const calls = lines.map((l) => ECHO.exec(l));
    if (calls.some((c) => c === null) || calls.length !== j - i - 1) {
      out.push({ role: "assistant", content: m.content });
      continue;
    }
    const ids = calls.map((_, k) => `call_${i}_${k}`);
    out.push({
      role: "assistant",
      content: null,
      tool_calls: calls.map((c, k) => ({
        id: ids[k],
        type: "function",
        function: { name: c![1], arguments: c![2] },
      })),
    });
    for (let k = 0; k < calls.length; k++)
      out.push({ role: "tool", tool_call_id: ids[k], content: (messages[i + 1 + k] as Message).content });
    i = j - 1;
  }
  return out;
}

/** A framework's own instructions: two paragraphs, as such texts often are. */
export const FRAMEWORK =
  "You are a helpful agent. Use the tools you are given to complete the user's task.\n\n" +
  "Think step by step and be concise.";

type Framing = (system: string, request: string, turns: WireMessage[]) => WireMessage[];

const text = (t: string) => ({ type: "text", text: t });

/**
 * The framings outside frameworks use, each a function of the native opening and turns. Every one
 * keeps the episode's texts whole; where they sit, and what the framework adds around them, differs.
 */
export const FRAMINGS: Record<string, Framing> = {
  "the get_task text as the input under the framework's instructions (OpenAI Agents SDK)": (s, r, t) => [
    { role: "system", content: FRAMEWORK },
    { role: "user", content: `${s}\n\n${r}` },
    ...t,
  ],
  "the MCP prompt's messages, all as user messages": (s, r, t) => [
    { role: "user", content: s },
    { role: "user", content: r },
    ...t,
  ],
  "content parts: the instructions and the request as two parts of one user message": (s, r, t) => [
    { role: "system", content: FRAMEWORK },
    { role: "user", content: [text(s), text(r)] },
    ...t,
  ],
  "content parts: the framework's text, then the task, in one user message": (s, r, t) => [
    { role: "user", content: [text(FRAMEWORK), text(`${s}\n\n${r}`)] },
    ...t,
  ],
  "the framework's system text after the instructions, in the same message": (s, r, t) => [
    { role: "system", content: `${s}\n\n${FRAMEWORK}` },
    { role: "user", content: r },
    ...t,
  ],
  "the framework's system text before the instructions, in the same message": (s, r, t) => [
    { role: "system", content: `${FRAMEWORK}\n\n${s}` },
    { role: "user", content: r },
    ...t,
  ],
  "the framework's system message after the request": (s, r, t) => [
    { role: "system", content: s },
    { role: "user", content: r },
    { role: "system", content: FRAMEWORK },
    ...t,
  ],
  "the framework's system message between the instructions and the request": (s, r, t) => [
    { role: "user", content: s },
    { role: "system", content: FRAMEWORK },
    { role: "user", content: r },
    ...t,
  ],
  "a developer message, and the task with a trailing newline": (s, r, t) => [
    { role: "developer", content: FRAMEWORK },
    { role: "user", content: `${s}\n\n${r}\n` },
    ...t,
  ],
  "the task as the result of the framework's own get_task call": (s, r, t) => [
    { role: "system", content: FRAMEWORK },
    { role: "user", content: "Start the task." },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_task", type: "function", function: { name: "get_task", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: "call_task", content: `${s}\n\n${r}` },
    ...t,
  ],
  "a system reminder among the turns, and tool results as content parts": (s, r, t) => [
    { role: "system", content: FRAMEWORK },
    { role: "user", content: `${s}\n\n${r}` },
    ...t.flatMap((m, i): WireMessage[] => [
      // Before the second turn (never between a call and its result, which the API forbids).
      ...(m.role === "assistant" && t.findIndex((x, k) => k > 0 && x.role === "assistant") === i
        ? [{ role: "system", content: "Remember: one tool call at a time is fine." }]
        : []),
      m.role === "tool" && typeof m.content === "string" ? { ...m, content: [text(m.content)] } : m,
    ]),
  ],
};

/** `messages` (a native conversation) framed by `framing`. */
export function framed(framing: Framing, messages: readonly Message[]): WireMessage[] {
  const [system, request, ...turns] = nativeWire(messages);
  return framing(String(system?.content), String(request?.content), turns);
}
