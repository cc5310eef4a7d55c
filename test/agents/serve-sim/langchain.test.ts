import { AIMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SimServer, startSimServer } from "../../../agents/serve-sim/index.ts";
import type { Message } from "../../../environments/kernel/types.ts";
import { binaryTasks, CHOOSE_TOOL_DEF, messagesFor } from "./helpers.ts";

let server: SimServer;
beforeAll(async () => {
  server = await startSimServer({ port: 0 });
});
afterAll(async () => {
  await server.close();
});

function toLangChain(messages: Message[]) {
  return messages.map((m) =>
    m.role === "system"
      ? new SystemMessage(m.content)
      : m.role === "user"
        ? new HumanMessage(m.content)
        : new AIMessage(m.content),
  );
}

function model(name = "sim-steep", extra: Partial<ConstructorParameters<typeof ChatOpenAI>[0]> = {}) {
  return new ChatOpenAI({
    model: name,
    apiKey: "sk-test",
    configuration: { baseURL: server.url },
    maxRetries: 0,
    ...extra,
  });
}

describe("the real ChatOpenAI client against serve-sim", () => {
  const tasks = binaryTasks(10);

  it("invokes the rendered choice messages and gets a letter, with usage", async () => {
    const reply = await model().invoke(toLangChain(messagesFor(tasks[0]!)));
    expect(["A", "B"]).toContain(reply.content);
    expect(reply.usage_metadata?.input_tokens).toBeGreaterThan(100);
    expect(reply.usage_metadata?.output_tokens).toBe(1);
  });

  it("bindTools with an OpenAI-format choose tool gets a choose tool call", async () => {
    const bound = model().bindTools([CHOOSE_TOOL_DEF]);
    for (const task of tasks.slice(0, 4)) {
      const reply = await bound.invoke(toLangChain(messagesFor(task)));
      expect(reply.tool_calls).toHaveLength(1);
      expect(reply.tool_calls![0]!.name).toBe("choose");
      expect(["A", "B"]).toContain(reply.tool_calls![0]!.args.option);
      expect(reply.tool_calls![0]!.id).toMatch(/^call_/);
    }
  });

  it("passes a per-call seed through, and a 429 surfaces as a rate-limit error", async () => {
    const messages = toLangChain(messagesFor(tasks[1]!));
    const a = await model("sim-noisy").invoke(messages, { seed: 1 });
    const b = await model("sim-noisy").invoke(messages, { seed: 1 });
    expect(a.content).toBe(b.content);
    // sim-noisy is near-indifferent: over 12 seeds a task gets both letters only if the seed is sent.
    const answers = new Set<unknown>();
    for (let seed = 0; seed < 12; seed++)
      answers.add((await model("sim-noisy").invoke(messages, { seed })).content);
    expect(answers.size).toBeGreaterThan(1);

    const limited = await startSimServer({ port: 0, faults: { rate429: 1 }, retryAfterSeconds: 3 });
    try {
      const client = new ChatOpenAI({
        model: "sim-steep",
        apiKey: "sk-test",
        configuration: { baseURL: limited.url },
        maxRetries: 0,
      });
      await expect(client.invoke(messages)).rejects.toMatchObject({ status: 429 });
    } finally {
      await limited.close();
    }
  });
});
