import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  type CachedResponse,
  cacheKey,
  MemoryResponseCache,
  type ResponseCache,
} from "../../../agents/llm/index.ts";
import { Store } from "../../../environments/store/index.ts";
import { tempDir } from "../../helpers/cli.ts";

const answer = (content: string): CachedResponse => ({
  content,
  toolCalls: [{ id: "call_1", name: "choose", args: { option: "B" } }],
  usage: { inputTokens: 120, outputTokens: 3, reasoningTokens: 0 },
  finishReason: "tool_calls",
});

/** The conformance suite every response cache backend must pass. */
function conformance(name: string, make: () => ResponseCache) {
  describe(`${name} response cache`, () => {
    it("returns what was put, per key, as an independent copy", () => {
      const c = make();
      expect(c.get("k1")).toBeUndefined();
      c.put("k1", "m1", answer("A"));
      const got = c.get("k1")!;
      expect(got).toEqual(answer("A"));
      got.content = "changed";
      expect(c.get("k1")!.content).toBe("A");
      c.put("k1", "m1", answer("B")); // a re-put replaces
      expect(c.get("k1")!.content).toBe("B");
    });

    it("counts per model and clears one model or all", () => {
      const c = make();
      c.put("a", "m1", answer("1"));
      c.put("b", "m1", answer("2"));
      c.put("c", "m2", answer("3"));
      expect(c.stats()).toEqual({
        entries: 3,
        byModel: [
          { model: "m1", entries: 2 },
          { model: "m2", entries: 1 },
        ],
      });
      expect(c.clear("m1")).toBe(2);
      expect(c.get("a")).toBeUndefined();
      expect(c.get("c")).toBeDefined();
      expect(c.clear()).toBe(1);
      expect(c.stats().entries).toBe(0);
    });
  });
}

conformance("in-memory", () => new MemoryResponseCache());
conformance("SQLite", () => Store.open(path.join(tempDir(), "c.db"), { create: true }).responseCache());

describe("cacheKey", () => {
  const base = {
    baseURL: "http://x/v1",
    model: "m",
    messages: [{ role: "human", content: "hi" }],
    tools: null,
    toolChoice: null,
    params: { temperature: 0.7 },
    replicate: 0,
  };
  it("changes with every input that can change an answer, including the replicate", () => {
    const k = cacheKey(base);
    expect(cacheKey({ ...base })).toBe(k);
    expect(cacheKey({ ...base, replicate: 1 })).not.toBe(k);
    expect(cacheKey({ ...base, params: { temperature: 0.8 } })).not.toBe(k);
    expect(cacheKey({ ...base, model: "n" })).not.toBe(k);
    expect(cacheKey({ ...base, baseURL: "http://y/v1" })).not.toBe(k);
    expect(cacheKey({ ...base, messages: [{ role: "human", content: "hi!" }] })).not.toBe(k);
    expect(cacheKey({ ...base, tools: [{ name: "choose" }] })).not.toBe(k);
  });
});
