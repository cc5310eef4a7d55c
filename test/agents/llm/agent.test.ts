import { AIMessage, type ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, it } from "vitest";
import {
  type ChatInvoker,
  LlmAgent,
  LlmSettingsSchema,
  MemoryResponseCache,
} from "../../../agents/llm/index.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { ChoiceActionSchema } from "../../../environments/choice/actions.ts";
import { buildChoiceTasks } from "../../../environments/choice/design.ts";
import { type ChoiceOutcome, choiceMachine, SHOPPER } from "../../../environments/choice/machine.ts";
import { type Message, runEpisode } from "../../../environments/kernel/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

const [task] = buildChoiceTasks(
  { pairs: 1, pairAppearances: 1, triples: 0, fives: 0, seed: 4 },
  DEFAULT_HOTEL_POOL,
);
let modelCounter = 0;

function agentWith(chat: ChatInvoker, settings: Record<string, unknown> = {}, cache?: MemoryResponseCache) {
  // A model name of its own per agent: endpoints (semaphores, breakers) are shared per model name.
  const s = LlmSettingsSchema.parse({ model: `fake-${++modelCounter}`, maxRetries: 3, ...settings });
  return new LlmAgent("openai:fake", s, ChoiceActionSchema, { chat, cache, role: SHOPPER });
}

async function play(agent: LlmAgent, replicate = 0, maxReasks = 2, trialKey = `trial-${replicate}`) {
  return runEpisode<ChoiceOutcome>(
    choiceMachine,
    { task, maxReasks },
    { [SHOPPER]: agent as never },
    { rng: createRng(1), trialKey, replicate },
  );
}

function httpError(status: number, message: string, retryAfter?: string): Error {
  return Object.assign(new Error(message), {
    status,
    headers: new Headers(retryAfter ? { "retry-after": retryAfter } : {}),
  });
}

describe("LlmAgent (LangGraph over a fake chat model)", () => {
  it("text mode: the reply is parsed strictly by the environment, with usage recorded", async () => {
    const chat = fakeModel().respond(
      new AIMessage({
        content: "B",
        usage_metadata: { input_tokens: 50, output_tokens: 1, total_tokens: 51 },
      }),
    );
    const { output, usage } = await play(agentWith(chat));
    expect(output.chosenSlot).toBe(1);
    expect(usage).toMatchObject({ calls: 1, inputTokens: 50, outputTokens: 1 });
    expect(chat.calls[0]!.messages.map((m) => m.getType())).toEqual(["system", "human"]);
    expect(chat.calls[0]!.options.tools).toBeUndefined();
  });

  it("re-asks in the same thread: the model sees its own answer and the re-ask", async () => {
    const chat = fakeModel()
      .respond(new AIMessage("Based on the price, the second."))
      .respond(new AIMessage("Option A"));
    const { output } = await play(agentWith(chat));
    expect(output).toMatchObject({ chosenSlot: 0, replies: ["Based on the price, the second.", "Option A"] });
    const second = chat.calls[1]!.messages;
    expect(second.map((m) => m.getType())).toEqual(["system", "human", "ai", "human"]);
    expect(second[2]!.content).toBe("Based on the price, the second.");
  });

  it("tools mode: one call to the environment's tool is the action; the re-ask answers that call", async () => {
    const chat = fakeModel()
      .respondWithTools([{ name: "choose", args: { option: "Z" }, id: "call_1" }])
      .respondWithTools([{ name: "choose", args: { option: "b" }, id: "call_2" }]);
    const { output } = await play(agentWith(chat, { answerMode: "tools" }));
    expect(output.chosenSlot).toBe(1);
    expect(output.replies).toEqual(["choose(Z)", "choose(b)"]);
    const tools = chat.calls[0]!.options.tools as { function: { name: string } }[];
    expect(tools.map((t) => t.function.name)).toEqual(["choose"]);
    const second = chat.calls[1]!.messages;
    expect(second.map((m) => m.getType())).toEqual(["system", "human", "ai", "tool"]);
    expect((second[3] as ToolMessage).tool_call_id).toBe("call_1");
  });

  it("several tool calls at once are a malformed action, not a silent first pick", async () => {
    const chat = fakeModel().respondWithTools([
      { name: "choose", args: { option: "A" } },
      { name: "choose", args: { option: "B" } },
    ]);
    const { output } = await play(agentWith(chat, { answerMode: "tools" }), 0, 0);
    expect(output.chosenSlot).toBeNull();
    expect(output.nonResponse?.reason).toBe("malformed action");
  });

  it("after several calls judged as one move, the re-ask answers the first and every call gets a tool message", async () => {
    const chat = fakeModel()
      .respondWithTools([
        { name: "choose", args: { option: "A" }, id: "call_1" },
        { name: "choose", args: { option: "B" }, id: "call_2" },
      ])
      .respondWithTools([{ name: "choose", args: { option: "B" }, id: "call_3" }]);
    const { output } = await play(agentWith(chat, { answerMode: "tools" }), 0, 1);
    expect(output.chosenSlot).toBe(1);
    const second = chat.calls[1]!.messages;
    expect(second.map((m) => m.getType())).toEqual(["system", "human", "ai", "tool", "tool"]);
    expect((second[3] as ToolMessage).tool_call_id).toBe("call_1");
    expect((second[3] as ToolMessage).content).toMatch(/^Please reply with only one letter/);
    expect((second[4] as ToolMessage).tool_call_id).toBe("call_2");
  });

  it("retries a 429 (honouring retry-after) and a 500, then answers", async () => {
    const chat = fakeModel()
      .respond(httpError(429, "Rate limit reached", "0"))
      .respond(httpError(500, "server error"))
      .respond(new AIMessage("A"));
    const { output, usage, agentErrors } = await play(agentWith(chat));
    expect(output.chosenSlot).toBe(0);
    expect(usage.calls).toBe(3);
    expect(agentErrors).toBe(0);
  });

  it("serves an identical request from the cache, but never collapses replicates", async () => {
    const cache = new MemoryResponseCache();
    const chat = fakeModel().respond(new AIMessage("A")).respond(new AIMessage("B"));
    const agent = agentWith(chat, {}, cache);
    const first = await play(agent, 0);
    const again = await play(agent, 0);
    expect(chat.callCount).toBe(1);
    expect(again.output).toEqual(first.output);
    expect(again.usage).toMatchObject({ calls: 0, cacheHits: 1 });
    const other = await play(agent, 1);
    expect(chat.callCount).toBe(2);
    expect(other.output.chosenSlot).toBe(1);
  });

  it("makes one call for identical requests in flight at once", async () => {
    let calls = 0;
    const slow: ChatInvoker = {
      invoke: async () => {
        calls++;
        await new Promise((r) => setTimeout(r, 30));
        return new AIMessage("B");
      },
    };
    const agent = agentWith(slow, {}, new MemoryResponseCache());
    // Three episodes (three threads) sending the same request at the same moment.
    const results = await Promise.all([
      play(agent, 0, 2, "t1"),
      play(agent, 0, 2, "t2"),
      play(agent, 0, 2, "t3"),
    ]);
    expect(calls).toBe(1);
    expect(results.map((r) => r.output.chosenSlot)).toEqual([1, 1, 1]);
  });
});

describe("LlmAgent in a tool loop (the shop): several tool calls in one message", async () => {
  const { DEFAULT_HOTEL_POOL: pool } = await import("../../../datasets/hotels/index.ts");
  const shop = await import("../../../environments/shop/index.ts");
  const shopTask = shop.buildShopTasks({ tasks: 6, seed: 2 }, pool).find((t) => t.family === "open")!;
  const ids = shopTask.listings.slice(0, 3).map((l) => l.id);

  function shopAgent(chat: ChatInvoker) {
    const s = LlmSettingsSchema.parse({ model: `fake-${++modelCounter}`, answerMode: "tools" });
    return new LlmAgent("openai:fake", s, shop.ShopActionSchema, { chat, role: shop.SHOP_SHOPPER });
  }

  async function playShop(agent: LlmAgent) {
    return runEpisode<import("../../../environments/shop/index.ts").ShopOutcome>(
      shop.shopMachine,
      { task: shopTask },
      { [shop.SHOP_SHOPPER]: agent as never },
      { rng: createRng(1), trialKey: "shop-trial", replicate: 0 },
    );
  }

  it("answers each call with its own tool message, by call id and in order, before the next model call", async () => {
    const chat = fakeModel()
      .respondWithTools([{ name: "search", args: {}, id: "call_s" }])
      .respondWithTools([
        { name: "view", args: { id: ids[0] }, id: "call_v1" },
        { name: "view", args: { id: "nope" }, id: "call_v2" },
        { name: "view", args: { id: ids[2] }, id: "call_v3" },
      ])
      .respondWithTools([
        { name: "view", args: { id: ids[1] }, id: "call_a" },
        { name: "book", args: { id: ids[1] }, id: "call_b" },
        { name: "view", args: { id: ids[2] }, id: "call_c" },
      ]);
    const { output } = await playShop(shopAgent(chat));
    expect(output).toMatchObject({ endReason: "booked", bookedId: ids[1], steps: 6, turns: 3 });
    expect(output.trajectory.map((t) => [t.step, t.tool, t.ok])).toEqual([
      [1, "search", true],
      [2, "view", true],
      [3, "view", false],
      [4, "view", true],
      [5, "view", true],
      [6, "book", true],
      [null, "view", false],
    ]);
    const third = chat.calls[2]!.messages;
    expect(third.map((m) => m.getType())).toEqual([
      "system",
      "human",
      "ai",
      "tool",
      "ai",
      "tool",
      "tool",
      "tool",
    ]);
    const results = third.slice(5) as ToolMessage[];
    expect(results.map((m) => m.tool_call_id)).toEqual(["call_v1", "call_v2", "call_v3"]);
    expect(results[0]!.content).toMatch(/^Listing /);
    expect(results[1]!.content).toMatch(/^Error: listing "nope" is not among the results/);
    expect(results[2]!.content).toMatch(/^Listing /);
    const tools = chat.calls[0]!.options.tools as { function: { name: string } }[];
    expect(tools.map((t) => t.function.name)).toEqual(["search", "view", "book", "give_up"]);
  });

  it("answers a call to a tool it was not offered itself, and a text answer goes through the grammar", async () => {
    const chat = fakeModel()
      .respondWithTools([
        { name: "search", args: {}, id: "call_1" },
        { name: "purchase", args: { id: "x" }, id: "call_2" },
      ])
      .respond(new AIMessage(`Let me book it.\nAction: book({"id": "${ids[0]}"})`));
    const { output } = await playShop(shopAgent(chat));
    expect(output).toMatchObject({ endReason: "booked", bookedId: ids[0], steps: 2 });
    const second = chat.calls[1]!.messages;
    expect(second.map((m) => m.getType())).toEqual(["system", "human", "ai", "tool", "tool"]);
    expect((second[3] as ToolMessage).tool_call_id).toBe("call_1");
    expect((second[3] as ToolMessage).content).toMatch(/^Found 24 listings/);
    expect((second[4] as ToolMessage).tool_call_id).toBe("call_2");
    expect((second[4] as ToolMessage).content).toMatch(
      /^Error: there is no tool "purchase"; the tools are search, view, book, give_up/,
    );
  });
});

describe("LlmAgent: several conversations in one episode", () => {
  it("keeps each conversation in a thread of its own (a shop's seller: one per listing) and ends them all with the episode", async () => {
    const chat = fakeModel()
      .respond(new AIMessage("a1"))
      .respond(new AIMessage("b1"))
      .respond(new AIMessage("a2"))
      .respond(new AIMessage("a1 again"));
    const agent = agentWith(chat);
    const ctx = { rng: createRng(1), trialKey: "t", replicate: 0 };
    const sys: Message = { role: "system", content: "You sell." };
    const a: Message[] = [sys, { role: "user", content: "Item A: I offer 50." }];
    const b: Message[] = [sys, { role: "user", content: "Item B: I offer 60." }];
    const obs = (messages: Message[]) => ({ messages, view: null });
    await agent.act(obs(a), ctx);
    await agent.act(obs(b), ctx);
    await agent.act(
      obs([...a, { role: "assistant", content: "a1" }, { role: "user", content: "Item A: 55?" }]),
      ctx,
    );
    const texts = (i: number) => chat.calls[i]!.messages.map((m) => `${m.getType()}:${m.content}`);
    expect(texts(1)).toEqual(["system:You sell.", "human:Item B: I offer 60."]);
    expect(texts(2)).toEqual(["system:You sell.", "human:Item A: I offer 50.", "ai:a1", "human:Item A: 55?"]);
    agent.endEpisode(ctx);
    // A new episode under the same key starts afresh: nothing of the ended threads is kept.
    await agent.act(obs(a), ctx);
    expect(texts(3)).toEqual(["system:You sell.", "human:Item A: I offer 50."]);
  });
});
