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

describe("the shop's tools", () => {
  it("are search, view, book and give_up, strict, with every argument described", async () => {
    const { ShopActionSchema } = await import("../../../environments/shop/actions.ts");
    const tools = toolsFromActions(ShopActionSchema);
    expect(tools.map((t) => t.function.name)).toEqual(["search", "view", "book", "give_up"]);
    const search = tools[0]!.function.parameters as {
      properties: Record<string, { description?: string; enum?: string[]; items?: { enum?: string[] } }>;
      additionalProperties?: boolean;
      required?: string[];
    };
    expect(Object.keys(search.properties)).toEqual([
      "area",
      "maxPrice",
      "minStars",
      "amenities",
      "sort",
      "page",
    ]);
    expect(search.additionalProperties).toBe(false);
    expect(search.required ?? []).toEqual([]);
    expect(search.properties.sort!.enum).toEqual(["recommended", "price_low", "price_high", "rating"]);
    expect(search.properties.amenities!.items!.enum).toEqual(["free_cancellation", "breakfast"]);
    for (const p of Object.values(search.properties)) expect(p.description).toBeTruthy();
    expect(tools[2]!.function).toMatchObject({
      description: "Book one listing. This ends the task.",
      parameters: { required: ["id"] },
    });
    expect(ShopActionSchema.parse(actionFromToolCall("view", { id: "k3x9qa" }))).toEqual({
      type: "view",
      id: "k3x9qa",
    });
  });
});
