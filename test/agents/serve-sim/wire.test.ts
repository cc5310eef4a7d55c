import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolsFromActions } from "../../../agents/llm/tools.ts";
import {
  NO_CARDS_REPLY,
  SIM_PLUGINS,
  type SimServer,
  startSimServer,
} from "../../../agents/serve-sim/index.ts";
import { simClient } from "../../../agents/sim/client/index.ts";
import { CHOICE_PRESETS } from "../../../agents/sim/index.ts";
import { runServeSim } from "../../../cli/actions/serve-sim.ts";
import type { Output } from "../../../cli/output.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { parseChoiceAnswer } from "../../../environments/choice/parse.ts";
import { runEpisode } from "../../../environments/kernel/episode.ts";
import { UserError } from "../../../environments/kernel/errors.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import type { Observation } from "../../../environments/kernel/types.ts";
import { shopActionSchema } from "../../../environments/shop/actions.ts";
import { buildShopTasks, type ShopView, shopMachine } from "../../../environments/shop/index.ts";
import { binaryTasks, CHOOSE_TOOL_DEF, messagesFor, post, SERVE_SIM_FLAGS } from "./helpers.ts";

let server: SimServer;
const task = binaryTasks(3)[0]!;
const messages = messagesFor(task);

beforeAll(async () => {
  server = await startSimServer({ port: 0 });
});
afterAll(async () => {
  await server.close();
});

describe("serve-sim wire format", () => {
  it("serves an OpenAI model list with sim-<preset> for every preset", async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/v1`);
    const res = await fetch(server.url + "/models");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { object: string; data: { id: string; object: string }[] };
    expect(body.object).toBe("list");
    // Catalog choice's presets first, then every other environment's models (sim-<env>-<preset>).
    const ids = body.data.map((m) => m.id);
    const choice = Object.keys(CHOICE_PRESETS).map((p) => `sim-${p}`);
    expect(ids.slice(0, choice.length)).toEqual(choice);
    const others = SIM_PLUGINS.slice(1).flatMap((p) => Object.keys(p.models));
    expect(others.some((m) => m.startsWith("sim-bargain-"))).toBe(true);
    expect(ids.slice(choice.length)).toEqual(others);
    expect(new Set(ids).size).toBe(ids.length);
    expect(body.data.every((m) => m.object === "model")).toBe(true);
    expect(body.data.map((m) => m.id)).toContain("sim-locked-last");
  });

  it("answers a text completion with the letter, usage and the OpenAI fields", async () => {
    const r = await post(server.url, { model: "sim-steep", messages, temperature: 0 });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.json).toMatchObject({ object: "chat.completion", model: "sim-steep" });
    expect(r.json.id).toMatch(/^chatcmpl-/);
    expect(Number.isInteger(r.json.created)).toBe(true);
    const [choice] = r.json.choices;
    expect(choice).toMatchObject({ index: 0, finish_reason: "stop", message: { role: "assistant" } });
    expect(["A", "B"]).toContain(choice.message.content);
    expect(choice.message.tool_calls).toBeUndefined();
    const chars = messages.reduce((n, m) => n + m.content.length, 0);
    expect(r.json.usage).toEqual({
      prompt_tokens: Math.ceil(chars / 4),
      completion_tokens: 1,
      total_tokens: Math.ceil(chars / 4) + 1,
    });
  });

  it("answers with a choose tool call when the tool is offered, and in text when tool_choice is none", async () => {
    const tools = [CHOOSE_TOOL_DEF];
    const text = await post(server.url, { model: "sim-steep", messages });
    const r = await post(server.url, { model: "sim-steep", messages, tools });
    expect(r.status).toBe(200);
    const [choice] = r.json.choices;
    expect(choice.finish_reason).toBe("tool_calls");
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toHaveLength(1);
    const call = choice.message.tool_calls[0];
    expect(call.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(call.type).toBe("function");
    expect(call.function.name).toBe("choose");
    // The answer mode does not change the decision.
    expect(JSON.parse(call.function.arguments)).toEqual({ option: text.json.choices[0].message.content });

    const none = await post(server.url, { model: "sim-steep", messages, tools, tool_choice: "none" });
    expect(none.json.choices[0].message.content).toBe(text.json.choices[0].message.content);
    const forced = await post(server.url, {
      model: "sim-steep",
      messages,
      tools,
      tool_choice: { type: "function", function: { name: "choose" } },
    });
    expect(forced.json.choices[0].finish_reason).toBe("tool_calls");
    const other = await post(server.url, {
      model: "sim-steep",
      messages,
      tools: [{ type: "function", function: { name: "search", parameters: {} } }],
    });
    expect(other.json.choices[0].message.content).toBe(text.json.choices[0].message.content);
  });

  it("a message to the client: a reply without a tool call when the shop's tools are offered, the Action line without tools", async () => {
    const task = buildShopTasks({ tasks: 1, seed: 3, clients: true }, DEFAULT_HOTEL_POOL)[0]!;
    // The shopper's first observation (after the terse client's opening): asks-first asks first.
    let first: Observation<ShopView> | undefined;
    await runEpisode(
      shopMachine,
      { task },
      {
        shopper: {
          id: "probe",
          act(o) {
            first = o as Observation<ShopView>;
            return { action: { type: "give_up", reason: "probe" } };
          },
        },
        client: simClient("terse")! as never,
      },
      { rng: createRng(1), trialKey: "k", replicate: 0 },
    );
    const messages = first!.messages;
    const tools = toolsFromActions(shopActionSchema({ offers: false, client: true }));
    const withTools = await post(server.url, { model: "sim-shop-asks-first", messages, tools });
    const reply = withTools.json.choices[0];
    expect(reply.finish_reason).toBe("stop");
    expect(reply.message.tool_calls ?? []).toEqual([]);
    expect(reply.message.content).toBe("What matters most to you for this stay?");
    const text = await post(server.url, { model: "sim-shop-asks-first", messages });
    expect(text.json.choices[0].message.content).toBe(
      'Action: message_client({"text":"What matters most to you for this stay?"})',
    );
  });

  it("reasons one sentence and ends with an Answer line for the cot prompt", async () => {
    const cot = binaryTasks(3, "cot")[0]!;
    const r = await post(server.url, { model: "sim-steep", messages: messagesFor(cot) });
    const content: string = r.json.choices[0].message.content;
    expect(content.split("\n")).toHaveLength(2);
    expect(content).toMatch(/\nAnswer: [AB]$/);
    expect(parseChoiceAnswer(content, ["A", "B"], "cot")).toEqual({
      ok: true,
      slot: content.endsWith("A") ? 0 : 1,
    });
  });

  it("accepts content parts and answers politely without a choice when no message holds cards", async () => {
    const parts = messages.map((m) => ({ role: m.role, content: [{ type: "text", text: m.content }] }));
    const r = await post(server.url, { model: "sim-steep", messages: parts });
    expect(["A", "B"]).toContain(r.json.choices[0].message.content);
    const none = await post(server.url, {
      model: "sim-steep",
      messages: [{ role: "user", content: "Hi there!" }],
      tools: [CHOOSE_TOOL_DEF],
    });
    expect(none.status).toBe(200);
    expect(none.json.choices[0]).toMatchObject({
      finish_reason: "stop",
      message: { content: NO_CARDS_REPLY },
    });
    expect(parseChoiceAnswer(NO_CARDS_REPLY, ["A", "B"]).ok).toBe(false);
  });

  it("answers a re-ask after a tool round trip (assistant tool_calls with null content, then a tool result)", async () => {
    const first = await post(server.url, { model: "sim-noisy", messages, tools: [CHOOSE_TOOL_DEF], seed: 3 });
    const call = first.json.choices[0].message.tool_calls?.[0] ?? {
      id: "call_x",
      type: "function",
      function: { name: "choose", arguments: '{"option":"Z"}' },
    };
    const followUp = [
      ...messages,
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", tool_call_id: call.id, content: "That is not one of the options. Choose A or B." },
    ];
    const r = await post(server.url, {
      model: "sim-noisy",
      messages: followUp,
      tools: [CHOOSE_TOOL_DEF],
      seed: 3,
    });
    expect(r.status).toBe(200);
    const again = r.json.choices[0].message;
    expect(again.tool_calls?.[0]?.function.name ?? again.content).toBeTruthy();
  });

  it("returns n choices when asked", async () => {
    const r = await post(server.url, { model: "sim-noisy", messages, n: 5 });
    expect(r.json.choices.map((c: { index: number }) => c.index)).toEqual([0, 1, 2, 3, 4]);
  });

  it("refuses bad requests with OpenAI-style errors", async () => {
    const unknown = await post(server.url, { model: "gpt-4o", messages });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({ type: "invalid_request_error", code: "model_not_found" });
    expect(unknown.json.error.message).toContain("gpt-4o");
    expect(unknown.json.error.message).toContain("sim-steep");

    const badJson = await post(server.url, '{"model": "sim-steep", "messages": [');
    expect(badJson.status).toBe(400);
    expect(badJson.json.error.type).toBe("invalid_request_error");

    const stream = await post(server.url, { model: "sim-steep", messages, stream: true });
    expect(stream.status).toBe(400);
    expect(stream.json.error.message).toMatch(/streaming is not supported/);

    const schema = await post(server.url, {
      model: "sim-steep",
      messages,
      response_format: { type: "json_schema", json_schema: { name: "x", schema: {} } },
    });
    expect(schema.status).toBe(400);
    expect(schema.json.error.message).toMatch(/response_format "json_schema" is not supported/);

    for (const body of [
      { messages },
      { model: "sim-steep", messages: [] },
      { model: "sim-steep", messages, n: 0 },
    ]) {
      expect((await post(server.url, body)).status).toBe(400);
    }
    const forcedMissing = await post(server.url, {
      model: "sim-steep",
      messages,
      tool_choice: { type: "function", function: { name: "choose" } },
    });
    expect(forcedMissing.status).toBe(400);
    const path = await fetch(server.url + "/embeddings", { method: "POST", body: "{}" });
    expect(path.status).toBe(404);
    expect(((await path.json()) as { error: { code: string } }).error.code).toBe("unknown_url");
  });

  it("counts requests by model and outcome, at stats() and at /_sim/stats", async () => {
    const before = server.stats();
    await post(server.url, { model: "sim-locked", messages });
    await post(server.url, { model: "nope", messages });
    const after = server.stats();
    expect(after.requests - before.requests).toBe(2);
    expect(after.byModel["sim-locked"]! - before.byModel["sim-locked"]!).toBe(1);
    expect(after.byOutcome.ok - before.byOutcome.ok).toBe(1);
    expect(after.byOutcome["bad-request"] - before.byOutcome["bad-request"]).toBe(1);
    expect(after.byModel.nope).toBeUndefined();
    expect(after.inFlight).toBe(0);
    const res = await fetch(`http://127.0.0.1:${server.port}/_sim/stats`);
    expect(await res.json()).toEqual(server.stats());
  });
});

describe("bazaar serve-sim command", () => {
  const flags = SERVE_SIM_FLAGS;
  function capture(): Output & { lines: string[]; errors: string[] } {
    const lines: string[] = [];
    const errors: string[] = [];
    return { lines, errors, log: (l) => lines.push(l), error: (l) => errors.push(l) };
  }

  it("prints one listening line, serves until stopped, then closes", async () => {
    const out = capture();
    const stop = new AbortController();
    const running = runServeSim(flags, out, stop.signal);
    await expect.poll(() => out.lines.length).toBe(1);
    const m =
      /^serve-sim listening on (http:\/\/127\.0\.0\.1:\d+\/v1) \(models: sim-steep, sim-quality, .*sim-locked-last.*\)$/.exec(
        out.lines[0]!,
      );
    expect(m).not.toBeNull();
    expect((await fetch(m![1] + "/models")).status).toBe(200);
    stop.abort();
    await running;
    await expect(fetch(m![1] + "/models")).rejects.toThrow();
    expect(out.errors.join("\n")).toMatch(/stopped/);
  });

  it("rejects bad options and a port in use with UserErrors naming them", async () => {
    const stop = new AbortController();
    stop.abort();
    const bad = (over: Partial<typeof flags>) => runServeSim({ ...flags, ...over }, capture(), stop.signal);
    await expect(bad({ rate429: "1.5" })).rejects.toThrow(/--rate-429/);
    await expect(bad({ port: "70000" })).rejects.toThrow(/--port/);
    await expect(bad({ rateTimeout: "0.6", rate500: "0.6" })).rejects.toThrow(UserError);
    await expect(bad({ latencyMs: "-1" })).rejects.toThrow(/--latency-ms/);
    await expect(bad({ port: String(server.port) })).rejects.toThrow(
      new RegExp(`port ${server.port} on 127.0.0.1 is already in use`),
    );
  });
});
