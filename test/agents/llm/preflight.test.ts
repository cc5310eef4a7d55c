/**
 * Preflight against servers of every shape, through a recorded requester: a model list to check
 * against, open to any key (a one-token completion proves the key) or not (the list proves it); no
 * model list (a one-token completion tells key and model apart); keys that only their own endpoint
 * sees.
 */
import { describe, expect, it } from "vitest";
import { preflight, type Requester } from "../../../agents/llm/preflight.ts";
import { AgentFailure } from "../../../environments/kernel/failures.ts";

type Route = (method: string, path: string, auth: string | undefined) => { status: number; body?: unknown };

function server(route: Route) {
  const seen: { url: string; method: string; auth: string | undefined }[] = [];
  const request: Requester = async (url, init) => {
    seen.push({ url, method: init.method, auth: init.headers.authorization });
    const r = route(init.method, new URL(url).pathname, init.headers.authorization);
    return { status: r.status, text: r.body === undefined ? "" : JSON.stringify(r.body) };
  };
  return { request, seen };
}

async function failure(p: Promise<void>): Promise<AgentFailure> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AgentFailure) return err;
    throw err;
  }
  throw new Error("preflight passed");
}

const list = (...ids: string[]) => ({ object: "list", data: ids.map((id) => ({ id, object: "model" })) });

describe("preflight", () => {
  it("a server with a model list: one GET per endpoint, models checked against it, one tiny completion for the key", async () => {
    const s = server((m, p) =>
      m === "GET" && p === "/v1/models" ? { status: 200, body: list("a", "b") } : { status: 500 },
    );
    const endpoints = [
      { baseURL: "http://h/v1", model: "a" },
      { baseURL: "http://h/v1", model: "b" },
    ];
    await preflight(endpoints, { request: s.request });
    // The list is open to anyone: a completion proves the key (here any answer but 401/403 does).
    expect(s.seen.map((x) => `${x.method} ${x.url}`)).toEqual([
      "GET http://h/v1/models",
      "POST http://h/v1/chat/completions",
    ]);
    const f = await failure(preflight([{ baseURL: "http://h/v1", model: "c" }], { request: s.request }));
    expect(f).toMatchObject({
      kind: "configuration",
      message: "model c is not served at http://h/v1",
      hint: "it serves: a, b",
    });
  });

  it("no model list: one tiny completion per model tells a bad key from an unknown model", async () => {
    const s = server((_m, p, auth) => {
      if (p === "/v1/models") return { status: 404 };
      if (auth !== "Bearer good") return { status: 401, body: { error: { message: "invalid key" } } };
      return p === "/v1/chat/completions" ? { status: 200, body: { choices: [] } } : { status: 404 };
    });
    await preflight([{ baseURL: "http://h/v1", model: "m", apiKey: "good" }], { request: s.request });
    expect(s.seen.map((x) => x.method)).toEqual(["GET", "POST"]);
    const bad = await failure(
      preflight([{ baseURL: "http://h/v1", model: "m", apiKey: "bad" }], { request: s.request }),
    );
    expect(bad.message).toBe("http://h/v1 rejected the API key (HTTP 401: invalid key)");
    expect(JSON.stringify(bad)).not.toContain("bad");
  });

  it("an unknown model on a server without a list: HTTP 404 from the completion", async () => {
    const s = server((_m, p) =>
      p === "/v1/models"
        ? { status: 405 }
        : { status: 404, body: { error: { message: "model 'x' not found" } } },
    );
    const f = await failure(preflight([{ baseURL: "http://h/v1/", model: "x" }], { request: s.request }));
    expect(f.message).toBe("model x is not served at http://h/v1/ (HTTP 404: model 'x' not found)");
    expect(s.seen[0]!.url).toBe("http://h/v1/models");
  });

  it("each key goes to its own endpoint only", async () => {
    const s = server(() => ({ status: 200, body: list("m") }));
    await preflight(
      [
        { baseURL: "http://one/v1", model: "m", apiKey: "k1" },
        { baseURL: "http://two/v1", model: "m", apiKey: "k2" },
      ],
      { request: s.request },
    );
    // The list, the list without a key (open: so a completion proves the key), the completion.
    expect(s.seen.map((x) => [new URL(x.url).host, x.auth ?? "none"]).sort()).toEqual([
      ["one", "Bearer k1"],
      ["one", "Bearer k1"],
      ["one", "none"],
      ["two", "Bearer k2"],
      ["two", "Bearer k2"],
      ["two", "none"],
    ]);
  });

  it("a model list open to any key (llama.cpp's server): a rejected key is caught by the completion", async () => {
    const s = server((_m, p, auth) => {
      if (p === "/v1/models") return { status: 200, body: list("m") };
      return auth === "Bearer good"
        ? { status: 200, body: { choices: [] } }
        : { status: 401, body: { error: { message: "Invalid API Key" } } };
    });
    const bad = await failure(
      preflight([{ baseURL: "http://h/v1", model: "m", apiKey: "wrong" }], { request: s.request }),
    );
    expect(bad.message).toBe("http://h/v1 rejected the API key (HTTP 401: Invalid API Key)");
    await preflight([{ baseURL: "http://h/v1", model: "m", apiKey: "good" }], { request: s.request });
    // No key at all, where completions need one: caught before the run too.
    const none = await failure(preflight([{ baseURL: "http://h/v1", model: "m" }], { request: s.request }));
    expect(none.kind).toBe("configuration");
  });

  it("a model list that needs the key (as OpenAI's does): the list proves it, no completion is spent", async () => {
    const s = server((m, p, auth) =>
      m === "GET" && p === "/v1/models"
        ? auth === "Bearer good"
          ? { status: 200, body: list("m") }
          : { status: 401, body: { error: { message: "no key" } } }
        : { status: 500 },
    );
    await preflight([{ baseURL: "http://h/v1", model: "m", apiKey: "good" }], { request: s.request });
    expect(s.seen.map((x) => `${x.method} ${x.auth ?? "none"}`)).toEqual(["GET Bearer good", "GET none"]);
  });

  it("a server error on the list is no configuration fault: the run goes on (retries handle it)", async () => {
    const s = server((_m, p) => (p === "/v1/models" ? { status: 503 } : { status: 200, body: {} }));
    await expect(
      preflight([{ baseURL: "http://h/v1", model: "m" }], { request: s.request }),
    ).resolves.toBeUndefined();
  });
});

describe("preflight of a llama.cpp server's slot", () => {
  const opening = {
    where: "task 7 (openai:m)",
    request: {
      messages: [
        { role: "system" as const, content: "You book hotels." },
        { role: "user" as const, content: "x".repeat(780) },
      ],
      tools: [{ type: "function", function: { name: "book", description: "", parameters: {} } }],
    },
    maxTokens: 200,
  };

  /** llama.cpp: an open model list, /props with the slot, /apply-template and /tokenize (a token a character). */
  function llamacpp(props: { status: number; body?: unknown }, template = true) {
    const seen: string[] = [];
    const request: Requester = async (url, init) => {
      const p = new URL(url).pathname;
      seen.push(`${init.method} ${p}`);
      const body = init.body ? (JSON.parse(init.body) as Record<string, unknown>) : {};
      const reply = (status: number, b?: unknown) => ({
        status,
        text: b === undefined ? "" : JSON.stringify(b),
      });
      if (p === "/v1/models") return reply(200, list("m"));
      if (p === "/v1/chat/completions") return reply(200, {});
      if (p === "/props") return reply(props.status, props.body);
      if (p === "/apply-template" && template) {
        // The model's template around each message, the tools in the system turn.
        const messages = body.messages as { role: string; content: string }[];
        const rendered = messages.map((m) => `<|${m.role}|>${m.content}<|end|>`).join("");
        return reply(200, { prompt: `${body.tools ? JSON.stringify(body.tools) : ""}${rendered}` });
      }
      if (p === "/tokenize") return reply(200, { tokens: [...String(body.content)].map(() => 1) });
      return reply(404);
    };
    return { request, seen };
  }
  const slot = (nCtx: number) => ({
    status: 200,
    body: { default_generation_settings: { n_ctx: nCtx }, total_slots: 4 },
  });
  const endpoint = { baseURL: "http://h:8080/v1", model: "m", openings: () => [opening] };

  it("an opening prompt and its answer that fit a slot pass, counted by the server's own template", async () => {
    const s = llamacpp(slot(2_048));
    await preflight([endpoint], { request: s.request });
    expect(s.seen).toEqual([
      "GET /v1/models",
      "POST /v1/chat/completions",
      "GET /props",
      "POST /apply-template",
      "POST /tokenize",
    ]);
  });

  it("one that does not fit stops the run, in one line, with what to change", async () => {
    const f = await failure(preflight([endpoint], { request: llamacpp(slot(1_024)).request }));
    const tokens =
      JSON.stringify(opening.request.tools).length +
      "<|system|>You book hotels.<|end|>".length +
      780 +
      "<|user|><|end|>".length;
    expect(f.kind).toBe("configuration");
    expect(f.message).toBe(
      `the opening prompt of task 7 (openai:m) is ${tokens.toLocaleString("en-US")} tokens, ${(tokens + 200).toLocaleString("en-US")} with room for an answer of --max-tokens 200, and at the llama.cpp server http://h:8080/v1 a slot holds 1,024 tokens (-c 4,096 over -np 4)`,
    );
    expect(f.hint).toBe(
      `start llama-server with -c ${((tokens + 200) * 4).toLocaleString("en-US")} or more for -np 4, or with -np 3 at -c 4,096, or lower --max-tokens to ${(1_024 - tokens).toLocaleString("en-US")} or less (--no-preflight skips this check)`,
    );
  });

  it("without /apply-template the texts alone are counted (a floor)", async () => {
    const s = llamacpp(slot(1_000), false);
    const f = await failure(preflight([endpoint], { request: s.request }));
    const texts = ["You book hotels.", "x".repeat(780), JSON.stringify(opening.request.tools)].join(
      "\n",
    ).length;
    expect(f.message).toContain(`is ${texts.toLocaleString("en-US")} tokens`);
  });

  it("another server (no /props, or no slot size in it) is not checked", async () => {
    for (const props of [{ status: 404 }, { status: 200, body: { model: "m" } }]) {
      const s = llamacpp(props);
      await preflight([endpoint], { request: s.request });
      expect(s.seen).not.toContain("POST /tokenize");
    }
  });
});
