import { describe, expect, it } from "vitest";
import { z } from "zod";
import { actionFromToolCall, toolsFromActions } from "../../../agents/llm/index.ts";
import { ChoiceActionSchema } from "../../../environments/choice/actions.ts";

describe("toolsFromActions", () => {
  it("turns every non-reply action into a function tool named by its type", () => {
    const tools = toolsFromActions(ChoiceActionSchema);
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({
      type: "function",
      function: {
        name: "choose",
        description: "Book one of the options shown, by its letter.",
        parameters: { type: "object", properties: { option: { type: "string" } }, required: ["option"] },
      },
    });
    const action = actionFromToolCall("choose", { option: "B" });
    expect(ChoiceActionSchema.parse(action)).toEqual({ type: "choose", option: "B" });
  });

  it("handles several actions with numeric fields (a bargaining-like union)", () => {
    const schema = z.discriminatedUnion("type", [
      z.object({ type: z.literal("offer"), price: z.number().positive() }).describe("Propose a price."),
      z.object({ type: z.literal("accept") }).describe("Accept the last offer."),
      z.object({ type: z.literal("reply"), text: z.string() }),
    ]);
    const tools = toolsFromActions(schema);
    expect(tools.map((t) => t.function.name)).toEqual(["offer", "accept"]);
    expect(tools[0]!.function.parameters).toMatchObject({ properties: { price: { type: "number" } } });
  });
});
