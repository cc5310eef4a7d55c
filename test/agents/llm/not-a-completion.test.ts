/**
 * A 2xx answer to a chat completion that is not one is the server's failure (completion-check.ts):
 * read at the wire, and through the real ChatOpenAI against a local server answering each shape —
 * an empty body (llama.cpp's answer to a prompt longer than its slot), a body that is not JSON, JSON
 * without choices, a choice without a message — the trial fails as infrastructure, retried first,
 * with a reason saying what the server sent; it is never the model's non-response. A message that
 * says nothing is still the model's answer, and a completion sent as text/plain is still read.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotAChatCompletion, readCompletion } from "../../../agents/llm/completion-check.ts";
import { normalizingFetch } from "../../../agents/llm/dialects.ts";
import { LlmAgent, LlmSettingsSchema } from "../../../agents/llm/index.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { ChoiceActionSchema } from "../../../environments/choice/actions.ts";
import { buildChoiceTasks } from "../../../environments/choice/design.ts";
import { type ChoiceOutcome, choiceMachine, SHOPPER } from "../../../environments/choice/machine.ts";
import { EpisodeFailed, runEpisode } from "../../../environments/kernel/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

describe("readCompletion", () => {
  it("names what a 2xx answer that is not a chat completion holds", () => {
    const verdict = (text: string) => {
      const r = readCompletion(200, text);
      return r instanceof NotAChatCompletion ? r.message : "completion";
    };
    expect(verdict("")).toBe("the server answered 200 with an empty body");
    expect(verdict("  \n")).toBe("the server answered 200 with an empty body");
    expect(verdict("<html><body>Bad gateway</body></html>")).toBe(
      "the server answered 200 with a body that is not JSON: <html><body>Bad gateway</body></html>",
    );
    expect(verdict('{"error":"slot unavailable"}')).toBe(
      'the server answered 200 with JSON that is not a chat completion (no choices): {"error":"slot unavailable"}',
    );
    expect(verdict('{"choices":[]}')).toMatch(/no choices/);
    expect(verdict("[1,2]")).toMatch(/no choices/);
    expect(verdict('{"choices":[{"index":0,"finish_reason":"stop"}]}')).toMatch(
      /^the server answered 200 with a chat completion whose choice has no message: /,
    );
    expect(
      verdict('{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"c1","type":"function"}]}}]}'),
    ).toMatch(/^the server answered 200 with a chat completion whose tool call names no function: /);
    // Arguments that are not JSON are the model's malformed call: its answer, judged by the machine.
    expect(
      verdict(
        '{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"choose","arguments":"{oops"}}]}}]}',
      ),
    ).toBe("completion");
    // A message that says nothing is the model's (empty) answer, not the server's failure.
    expect(verdict('{"choices":[{"message":{"role":"assistant","content":null}}]}')).toBe("completion");
    expect(new NotAChatCompletion(200, "not JSON", "x".repeat(300)).message.length).toBeLessThan(140);
  });

  it("normalizingFetch throws it at the wire, reads a completion whatever its content type, and leaves streams alone", async () => {
    const answering = (body: string, type: string) => async () =>
      new Response(body, { status: 200, headers: { "content-type": type } });
    const url = "http://h/v1/chat/completions";
    const post = { method: "POST", body: JSON.stringify({ messages: [] }) };
    await expect(normalizingFetch(answering("", "application/json"))(url, post)).rejects.toBeInstanceOf(
      NotAChatCompletion,
    );
    const plain = await normalizingFetch(
      answering('{"choices":[{"message":{"role":"assistant","content":"B"}}]}', "text/plain"),
    )(url, post);
    expect(plain.headers.get("content-type")).toBe("application/json");
    expect(
      ((await plain.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content,
    ).toBe("B");
    const stream = await normalizingFetch(answering("", "text/event-stream"))(url, {
      method: "POST",
      body: JSON.stringify({ stream: true }),
    });
    expect(await stream.text()).toBe("");
  });
});

/** The shapes a local server answers a completion with, by the model asked for. */
const ANSWERS: Record<string, { type: string; body: string }> = {
  empty: { type: "application/json", body: "" },
  html: { type: "text/html", body: "<html>upstream timed out</html>" },
  nochoices: { type: "application/json", body: '{"object":"chat.completion","choices":[]}' },
  nomessage: { type: "application/json", body: '{"choices":[{"index":0,"finish_reason":"stop"}]}' },
  silent: {
    type: "application/json",
    body: '{"choices":[{"index":0,"message":{"role":"assistant","content":""},"finish_reason":"stop"}]}',
  },
  textplain: {
    type: "text/plain",
    body: '{"choices":[{"index":0,"message":{"role":"assistant","content":"B"},"finish_reason":"stop"}]}',
  },
};

describe("through the real ChatOpenAI", () => {
  let server: http.Server;
  let url = "";
  const calls = new Map<string, number>();
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let text = "";
      req.on("data", (c: Buffer) => {
        text += c.toString();
      });
      req.on("end", () => {
        if (req.method !== "POST") {
          res.writeHead(404).end(); // no /props: not a llama.cpp server
          return;
        }
        const model = (JSON.parse(text) as { model: string }).model;
        calls.set(model, (calls.get(model) ?? 0) + 1);
        const a = ANSWERS[model]!;
        res.writeHead(200, { "content-type": a.type, "content-length": String(Buffer.byteLength(a.body)) });
        res.end(a.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const [task] = buildChoiceTasks(
    { pairs: 1, pairAppearances: 1, triples: 0, fives: 0, seed: 4 },
    DEFAULT_HOTEL_POOL,
  );
  function play(model: string) {
    const settings = LlmSettingsSchema.parse({ model, baseURL: url, maxRetries: 1, useCache: false });
    const agent = new LlmAgent(`openai:${model}`, settings, ChoiceActionSchema, { role: SHOPPER });
    return runEpisode<ChoiceOutcome>(
      choiceMachine,
      { task, maxReasks: 0 },
      { [SHOPPER]: agent as never },
      { rng: createRng(1), trialKey: `t-${model}`, replicate: 0 },
    );
  }

  it.each([
    ["empty", "the server answered 200 with an empty body"],
    ["html", "the server answered 200 with a body that is not JSON: <html>upstream timed out</html>"],
    ["nochoices", "the server answered 200 with JSON that is not a chat completion (no choices)"],
    ["nomessage", "the server answered 200 with a chat completion whose choice has no message"],
  ])(
    "%s: a failed trial (infrastructure) after its retry, saying what the server sent",
    async (model, label) => {
      const err = await play(model).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(EpisodeFailed);
      const f = (err as EpisodeFailed).failure;
      expect(f.kind).toBe("infrastructure");
      expect(f.message.startsWith(`${model}: ${label}`)).toBe(true);
      expect(f.message).toMatch(/\(after 2 attempts\)$/); // no /props here: no slot to name
      expect(f.label).toBe(label.replace(/: .*/, ""));
      expect(calls.get(model)).toBe(2);
    },
  );

  it("a message that says nothing is the model's answer; a completion sent as text/plain is read", async () => {
    const silent = await play("silent");
    expect(silent.output.chosenSlot).toBeNull();
    expect(silent.output.nonResponse?.reason).toBe("empty");
    const plain = await play("textplain");
    expect(plain.output.chosenSlot).toBe(1);
  });
});
