import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { MemoryResponseCache } from "../../agents/llm/cache.ts";
import { llmContextFrom } from "../../cli/llm-context.ts";
import { addLlmOptions, type LlmOptions } from "../../cli/llm-options.ts";

/** The LLM options as a command parses them from `args`. */
function parsed(args: string[]): LlmOptions {
  const cmd = addLlmOptions(new Command().exitOverride());
  cmd.parse(args, { from: "user" });
  return cmd.opts<LlmOptions>();
}

describe("--model-concurrency and --fixed-concurrency", () => {
  it("adapt within --model-concurrency by default; --fixed-concurrency holds it", () => {
    const adaptive = llmContextFrom(parsed(["--model-concurrency", "32"]), new MemoryResponseCache());
    expect(adaptive.settings).toMatchObject({ concurrency: 32, adaptiveConcurrency: true });
    const fixed = llmContextFrom(parsed(["--fixed-concurrency", "--rpm", "500"]), new MemoryResponseCache());
    expect(fixed.settings).toMatchObject({
      concurrency: 16,
      adaptiveConcurrency: false,
      requestsPerMinute: 500,
    });
  });
});
