/**
 * A batch line's body is what ChatOpenAI sends live, and a batch answer becomes the same message as
 * the same answer live: the live caller (its own ChatOpenAI, over HTTP to a capturing server) and
 * the batch build (`batch/chat.ts`, whose fetch is handed the body) are compared setting by setting
 * and answer by answer, dialects included.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { batchChat } from "../../../agents/llm/batch/chat.ts";
import { BatchGate } from "../../../agents/llm/batch/gate.ts";
import { fromAIMessage, ModelCaller } from "../../../agents/llm/caller.ts";
import { type LlmSettingsInput, LlmSettingsSchema } from "../../../agents/llm/settings.ts";
import type { ActionTool } from "../../../agents/llm/tools.ts";

const CHOOSE: ActionTool = {
  type: "function",
  function: {
    name: "choose",
    description: "Book one option",
    parameters: { type: "object", properties: { option: { type: "string" } }, required: ["option"] },
  },
};

/** What the server answers next (a chat completion), and the bodies it was sent. */
let answer: unknown = null;
const received: string[] = [];
let server: http.Server;
let baseURL = "";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => {
      received.push(body);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function completion(message: Record<string, unknown>, finish: string, usage?: Record<string, unknown>) {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "m",
    choices: [
      {
        index: 0,
        message: { role: "assistant", refusal: null, ...message },
        logprobs: null,
        finish_reason: finish,
      },
    ],
    ...(usage ? { usage } : {}),
  };
}

const TEXT = completion({ content: "B" }, "stop", {
  prompt_tokens: 30,
  completion_tokens: 1,
  total_tokens: 31,
});
const TOOL = completion(
  {
    content: null,
    tool_calls: [
      { id: "call_1", type: "function", function: { name: "choose", arguments: '{"option":"A"}' } },
    ],
  },
  "tool_calls",
  {
    prompt_tokens: 40,
    completion_tokens: 9,
    total_tokens: 49,
    completion_tokens_details: { reasoning_tokens: 5 },
  },
);
// vLLM without a tool parser: the call as Hermes text, finish_reason "stop"; no usage (LM Studio).
const HERMES = completion(
  { content: '<tool_call>{"name": "choose", "arguments": {"option": "B"}}</tool_call>' },
  "stop",
);
const THINKING = completion({ content: "<think>cheaper one</think>A" }, "stop", {
  prompt_tokens: 10,
  completion_tokens: 8,
  total_tokens: 18,
});

const conversation: BaseMessage[] = [
  new SystemMessage("You book hotels."),
  new HumanMessage("Option A: $120. Option B: $180. Which?"),
];
const withToolTurn: BaseMessage[] = [
  ...conversation,
  new AIMessage({
    content: "",
    tool_calls: [{ id: "call_0", name: "choose", args: { option: "C" }, type: "tool_call" }],
  }),
  new ToolMessage({ tool_call_id: "call_0", content: "There is no option C. Choose A or B." }),
];

async function both(
  input: LlmSettingsInput,
  messages: BaseMessage[],
  tools: ActionTool[] | undefined,
  reply: unknown,
) {
  const settings = LlmSettingsSchema.parse({ baseURL, maxRetries: 0, ...input });
  answer = reply;
  received.length = 0;
  const live = await new ModelCaller(settings, "sk-test", undefined).call(messages, tools, 2);
  expect(received).toHaveLength(1);
  const liveBody = JSON.parse(received[0]!) as unknown;
  let parked: string | undefined;
  let url = "";
  const chat = batchChat(settings, "sk-test", async (input, init) => {
    url = String(input);
    parked = init?.body as string;
    return new Response(JSON.stringify(reply), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  });
  const batch = await new ModelCaller(
    settings,
    "sk-test",
    undefined,
    {},
    chat,
    new BatchGate(undefined, settings.model),
  ).call(messages, tools, 2);
  expect(url).toBe(`${baseURL}/chat/completions`);
  return { liveBody, batchBody: JSON.parse(parked!) as unknown, live, batch };
}

const SETTINGS: [string, LlmSettingsInput][] = [
  [
    "sampling fields and a seed",
    { model: "gpt-4o-mini", temperature: 0.7, topP: 0.9, maxTokens: 50, seed: 11 },
  ],
  ["no seed sent", { model: "gpt-4o-mini", sendSeed: false }],
  [
    "a reasoning model (effort, max_completion_tokens)",
    { model: "o3-mini", reasoningEffort: "high", maxTokens: 100 },
  ],
  [
    "model rules beyond LangChain's (the field and effort as kwargs)",
    { model: "my-reasoner", reasoningEffort: "low", maxTokens: 64, maxTokensField: "max_completion_tokens" },
  ],
];

describe("a batch line's body is the live request's body", () => {
  for (const [name, s] of SETTINGS) {
    it(`${name}: text and tools, with a tool turn in the thread`, async () => {
      for (const [messages, tools] of [
        [conversation, undefined],
        [withToolTurn, [CHOOSE]],
      ] as const) {
        const { liveBody, batchBody } = await both(s, [...messages], tools ? [...tools] : undefined, TEXT);
        expect(batchBody).toEqual(liveBody);
        expect((batchBody as { model: string }).model).toBe(s.model);
      }
    });
  }
});

describe("a batch answer becomes the live answer's message", () => {
  for (const [name, reply, tools] of [
    ["text with usage", TEXT, undefined],
    ["a tool call with reasoning tokens", TOOL, [CHOOSE]],
    ["a vLLM tool call written as text, usage missing", HERMES, [CHOOSE]],
    ["Ollama's <think> in content", THINKING, undefined],
  ] as const) {
    it(name, async () => {
      const { live, batch } = await both(
        { model: "gpt-4o-mini" },
        [...conversation],
        tools ? [...tools] : undefined,
        reply,
      );
      expect(fromAIMessage(batch.message)).toEqual(fromAIMessage(live.message));
      const { latencyMs: _a, ...liveUsage } = live.usage;
      const { latencyMs: _b, ...batchUsage } = batch.usage;
      expect(batchUsage).toEqual(liveUsage);
    });
  }

  it("the answers differ where the replies do (the comparison can fail)", async () => {
    const a = await both({ model: "gpt-4o-mini" }, [...conversation], [CHOOSE], TOOL);
    const b = await both({ model: "gpt-4o-mini" }, [...conversation], [CHOOSE], HERMES);
    expect(fromAIMessage(a.batch.message)).not.toEqual(fromAIMessage(b.batch.message));
    expect(fromAIMessage(b.batch.message).toolCalls.map((c) => c.args)).toEqual([{ option: "B" }]);
  });
});
