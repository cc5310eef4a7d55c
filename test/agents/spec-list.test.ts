import { describe, expect, it } from "vitest";
import { splitSpecList } from "../../agents/registry.ts";

describe("agent spec lists", () => {
  it("split on commas, except that an exec: command takes the rest whole", () => {
    expect(splitSpecList("sim:careful, openai:gpt-4o-mini,")).toEqual(["sim:careful", "openai:gpt-4o-mini"]);
    expect(splitSpecList("sim:careful,exec:python3 agent.py --weights 1,2,3")).toEqual([
      "sim:careful",
      "exec:python3 agent.py --weights 1,2,3",
    ]);
    expect(splitSpecList(" , ")).toEqual([]);
  });
});
