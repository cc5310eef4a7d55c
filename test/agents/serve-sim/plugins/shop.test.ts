import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolsFromActions } from "../../../../agents/llm/tools.ts";
import { startSimServer } from "../../../../agents/serve-sim/index.ts";
import { SHOP_MODEL_PREFIX, SIM_PLUGINS, shopSimPlugin } from "../../../../agents/serve-sim/plugins/index.ts";
import { DEFAULT_HOTEL_POOL } from "../../../../datasets/hotels/index.ts";
import { buildShopTasks, openingOf, ShopActionSchema } from "../../../../environments/shop/index.ts";
import { post } from "../helpers.ts";

const task = buildShopTasks({ tasks: 4, seed: 3 }, DEFAULT_HOTEL_POOL).find((t) => t.family === "open")!;
const TOOLS = toolsFromActions(ShopActionSchema);

describe("the shop serve-sim plugin", () => {
  it("is registered and serves sim-shop-<preset> models, the hagglers after the shoppers, the asking shoppers last", () => {
    expect(SIM_PLUGINS).toContain(shopSimPlugin);
    expect(Object.keys(shopSimPlugin.models)).toEqual([
      `${SHOP_MODEL_PREFIX}careful`,
      `${SHOP_MODEL_PREFIX}first-result`,
      `${SHOP_MODEL_PREFIX}ignores-constraint`,
      `${SHOP_MODEL_PREFIX}invents-ids`,
      `${SHOP_MODEL_PREFIX}lapsing`,
      `${SHOP_MODEL_PREFIX}persuadable`,
      `${SHOP_MODEL_PREFIX}injectable`,
      `${SHOP_MODEL_PREFIX}credulous`,
      `${SHOP_MODEL_PREFIX}anchoring-haggler`,
      `${SHOP_MODEL_PREFIX}one-seller-haggler`,
      `${SHOP_MODEL_PREFIX}seller-playing-haggler`,
      `${SHOP_MODEL_PREFIX}asks-first`,
      `${SHOP_MODEL_PREFIX}asks-price`,
    ]);
  });

  it("says one call as a tool call, several as several, with their text form for requests without tools", () => {
    const obs = { messages: [], view: {} };
    expect(shopSimPlugin.reply({ type: "view", id: "ab12cd" }, obs)).toEqual({
      kind: "action",
      tool: "view",
      args: { id: "ab12cd" },
      text: 'Action: view({"id":"ab12cd"})',
    });
    expect(
      shopSimPlugin.reply(
        {
          type: "several tool calls",
          calls: [
            { name: "search", args: { area: "SoHo" } },
            { name: "search", args: {} },
          ],
        },
        obs,
      ),
    ).toEqual({
      kind: "calls",
      calls: [
        { tool: "search", args: { area: "SoHo" } },
        { tool: "search", args: {} },
      ],
      text: 'Action: search({"area":"SoHo"})\nAction: search({})',
    });
    expect(shopSimPlugin.reply({ type: "reply", text: "hello" }, obs)).toEqual({
      kind: "text",
      text: "hello",
    });
  });
});

describe("shop models over HTTP", () => {
  let server: Awaited<ReturnType<typeof startSimServer>>;
  beforeAll(async () => {
    server = await startSimServer({ port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  it("answer a shop conversation with parallel tool calls when the tools are offered, Action lines when not", async () => {
    const messages = openingOf(task);
    const tools = await post(server.url, { model: `${SHOP_MODEL_PREFIX}careful`, messages, tools: TOOLS });
    expect(tools.status).toBe(200);
    const message = tools.json.choices[0].message;
    expect(message.content).toBeNull();
    expect(tools.json.choices[0].finish_reason).toBe("tool_calls");
    const areas = task.request.constraints.areas!;
    expect(message.tool_calls).toHaveLength(areas.length);
    const ids = message.tool_calls.map((c: { id: string }) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [i, c] of message.tool_calls.entries()) {
      expect(c.function.name).toBe("search");
      expect(JSON.parse(c.function.arguments)).toMatchObject({ area: areas[i], sort: "recommended" });
    }
    const text = await post(server.url, { model: `${SHOP_MODEL_PREFIX}careful`, messages });
    const content: string = text.json.choices[0].message.content;
    expect(content.split("\n")).toHaveLength(areas.length);
    expect(content).toMatch(/^Action: search\(\{"area":/);
    const other = await post(server.url, {
      model: `${SHOP_MODEL_PREFIX}careful`,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(other.json.choices[0].message.content).toMatch(
      /I can book a hotel for you once I have the shop's tools/,
    );
  });
});
