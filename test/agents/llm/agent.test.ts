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
import { runEpisode } from "../../../environments/kernel/index.ts";
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
