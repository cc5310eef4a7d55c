/** The agent's reading of every server dialect (agents/llm/dialects.ts), case by case. */
import { describe, expect, it } from "vitest";
import { normalizeCompletion } from "../../../agents/llm/dialects.ts";

function one(message: Record<string, unknown>, finish = "stop", offered = ["choose", "offer"]) {
  const body = { choices: [{ message, finish_reason: finish }] };
  normalizeCompletion(body, new Set(offered));
  return body.choices[0]! as { message: Record<string, unknown>; finish_reason: string };
}

const args = (c: { message: Record<string, unknown> }) =>
  (c.message.tool_calls as { function: { name: string; arguments: string } }[]).map((t) => [
    t.function.name,
    JSON.parse(t.function.arguments),
  ]);

describe("dialect normalization", () => {
  it("Hermes tool-call text (vLLM without a tool parser) becomes tool calls, several included", () => {
    const c = one({
      content:
        '<tool_call>\n{"name": "choose", "arguments": {"option": "B"}}\n</tool_call>\n<tool_call>\n{"name": "offer", "arguments": "{\\"price\\": 12.5}"}\n</tool_call>',
      tool_calls: [],
    });
    expect(args(c)).toEqual([
      ["choose", { option: "B" }],
      ["offer", { price: 12.5 }],
    ]);
    expect(c.message.content).toBeNull();
    expect(c.finish_reason).toBe("tool_calls");
    const again = one({ content: '<tool_call>{"name": "choose", "arguments": {"option": "B"}}</tool_call>' });
    expect((again.message.tool_calls as { id: string }[])[0]!.id).toMatch(/^call_[0-9a-f]{24}$/);
  });

  it("Qwen-style XML and a bare JSON call become tool calls; values parse where they are JSON", () => {
    const xml = one({
      content:
        "<tool_call>\n<function=offer>\n<parameter=price>\n12.5\n</parameter>\n<parameter=talk>\nTwelve fifty.\n</parameter>\n</function>\n</tool_call>",
    });
    expect(args(xml)).toEqual([["offer", { price: 12.5, talk: "Twelve fifty." }]]);
    expect(args(one({ content: '{"name": "choose", "parameters": {"option": "A"}}' }))).toEqual([
      ["choose", { option: "A" }],
    ]);
  });

  it("leaves text alone when it names no offered tool, when no tools were offered, or is prose", () => {
    expect(
      one({ content: '<tool_call>{"name": "delete_all", "arguments": {}}</tool_call>' }).message.tool_calls,
    ).toBeUndefined();
    expect(
      one({ content: '{"name": "choose", "arguments": {"option": "B"}}' }, "stop", []).message.content,
    ).toBe('{"name": "choose", "arguments": {"option": "B"}}');
    expect(one({ content: "B" }).message).toEqual({ content: "B" });
  });

  it("object and empty arguments (LM Studio, llama.cpp) become JSON strings", () => {
    const c = one(
      {
        content: null,
        tool_calls: [
          { id: "a", type: "function", function: { name: "choose", arguments: { option: "B" } } },
          { id: "b", type: "function", function: { name: "offer", arguments: "" } },
        ],
      },
      "tool_calls",
    );
    expect(args(c)).toEqual([
      ["choose", { option: "B" }],
      ["offer", {}],
    ]);
  });

  it("<think> reasoning in the content moves to reasoning_content; the answer stays", () => {
    const c = one({ content: "<think>\nPrice matters most.\n</think>\n\nB" });
    expect(c.message).toEqual({ content: "B", reasoning_content: "Price matters most." });
    const kept = one({ content: "<think>mine</think>A", reasoning_content: "the server's" });
    expect(kept.message).toEqual({ content: "A", reasoning_content: "the server's" });
  });

  it("a message that calls tools with finish_reason stop (Ollama) says tool_calls", () => {
    const c = one({
      content: "",
      tool_calls: [{ id: "x", type: "function", function: { name: "choose", arguments: '{"option":"A"}' } }],
    });
    expect(c.finish_reason).toBe("tool_calls");
  });

  it("a tool call with an empty or no id (llama.cpp) gets a made-up one: stable, distinct per call and answer", () => {
    const calls = () => [
      { id: "", type: "function", function: { name: "choose", arguments: '{"option":"A"}' } },
      { type: "function", function: { name: "choose", arguments: '{"option":"A"}' } },
      { id: "kept", type: "function", function: { name: "offer", arguments: "{}" } },
    ];
    const ids = (completion: string) => {
      const body = {
        id: completion,
        choices: [{ message: { content: null, tool_calls: calls() }, finish_reason: "tool_calls" }],
      };
      normalizeCompletion(body, new Set(["choose", "offer"]));
      return body.choices[0]!.message.tool_calls.map((c) => (c as { id: string }).id);
    };
    const first = ids("chatcmpl-1");
    expect(first[0]).toMatch(/^call_[0-9a-f]{24}$/);
    expect(first[1]).toMatch(/^call_[0-9a-f]{24}$/);
    expect(first[0]).not.toBe(first[1]); // the same call twice in one answer: two ids
    expect(first[2]).toBe("kept");
    expect(ids("chatcmpl-1")).toEqual(first); // the same answer again: the same ids
    expect(ids("chatcmpl-2")[0]).not.toBe(first[0]); // another answer: other ids
  });
});
