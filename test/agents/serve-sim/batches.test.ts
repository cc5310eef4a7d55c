import { OpenAIClient, toFile } from "@langchain/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SimServer, startSimServer } from "../../../agents/serve-sim/index.ts";
import { serveSimOptions } from "../../../cli/actions/serve-sim.ts";
import { UserError } from "../../../environments/kernel/errors.ts";
import { binaryTasks, CHOOSE_TOOL_DEF, messagesFor, post, SERVE_SIM_FLAGS } from "./helpers.ts";

type Batch = Awaited<ReturnType<OpenAIClient["batches"]["retrieve"]>>;

const servers: SimServer[] = [];
async function server(batch: Parameters<typeof startSimServer>[0] = {}): Promise<SimServer> {
  const s = await startSimServer({ port: 0, ...batch });
  servers.push(s);
  return s;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

function client(s: SimServer, apiKey = "sk-test"): OpenAIClient {
  return new OpenAIClient({ baseURL: s.url, apiKey, maxRetries: 0 });
}

/** A chat-completion body per binary task, some in tools mode, each with its own seed. */
function bodies(n: number, model = "sim-steep"): Record<string, unknown>[] {
  return binaryTasks(Math.ceil(n / 2))
    .slice(0, n)
    .map((task, i) => ({
      model,
      messages: messagesFor(task),
      seed: i,
      ...(i % 3 === 0 ? { tools: [CHOOSE_TOOL_DEF], tool_choice: "auto" } : {}),
    }));
}

function jsonl(lines: unknown[]): string {
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

function requestLines(b: Record<string, unknown>[], prefix = "req"): unknown[] {
  return b.map((body, i) => ({
    custom_id: `${prefix}-${i}`,
    method: "POST",
    url: "/v1/chat/completions",
    body,
  }));
}

async function submit(c: OpenAIClient, text: string): Promise<Batch> {
  const file = await c.files.create({ file: await toFile(Buffer.from(text), "in.jsonl"), purpose: "batch" });
  return c.batches.create({
    input_file_id: file.id,
    endpoint: "/v1/chat/completions",
    completion_window: "24h",
  });
}

const TERMINAL = new Set(["completed", "failed", "expired", "cancelled"]);

/** Polls until the batch ends (a deadline guards a hang, not a speed). */
async function settled(c: OpenAIClient, id: string): Promise<Batch> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const b = await c.batches.retrieve(id);
    if (TERMINAL.has(b.status)) return b;
    if (Date.now() > deadline) throw new Error(`batch ${id} still ${b.status}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

// biome-ignore lint/suspicious/noExplicitAny: output lines are checked field by field
async function lines(c: OpenAIClient, fileId: string | null | undefined): Promise<any[]> {
  if (!fileId) return [];
  const text = await (await c.files.content(fileId)).text();
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

/** A completion without what differs between any two answers (its id and creation time). */
// biome-ignore lint/suspicious/noExplicitAny: completion bodies
const comparable = (body: any) => ({ ...body, id: undefined, created: undefined });

describe("serve-sim's batch API through the OpenAI client", () => {
  let s: SimServer;
  beforeAll(async () => {
    s = await server();
  });

  it("answers every line as the same live request is answered, in OpenAI's output format", async () => {
    const c = client(s);
    const b = bodies(12);
    const before = s.stats().batches;
    const created = await submit(c, jsonl(requestLines(b)));
    expect(created).toMatchObject({ object: "batch", status: "validating", completion_window: "24h" });
    const done = await settled(c, created.id);
    expect(done.status).toBe("completed");
    expect(done.request_counts).toEqual({ total: 12, completed: 12, failed: 0 });
    expect(done.error_file_id).toBeNull();
    const out = await lines(c, done.output_file_id);
    expect(out.map((l) => l.custom_id).sort()).toEqual(b.map((_, i) => `req-${i}`).sort());
    for (const line of out) {
      expect(line.error).toBeNull();
      expect(line.id).toMatch(/^batch_req_/);
      expect(line.response.status_code).toBe(200);
      const live = await post(s.url, b[Number(line.custom_id.slice(4))]);
      expect(comparable(line.response.body)).toEqual(comparable(live.json));
    }
    // Tools-mode lines call the tool, as live.
    expect(out.find((l) => l.custom_id === "req-0").response.body.choices[0].message.tool_calls).toHaveLength(
      1,
    );
    const after = s.stats().batches;
    expect(after.batches - before.batches).toBe(1);
    expect(after.lines - before.lines).toBe(12);
    expect(after.answered - before.answered).toBe(12);
    expect(after.resubmitted - before.resubmitted).toBe(0);
  });

  it("counts a custom id submitted again as re-submitted", async () => {
    const c = client(s);
    const text = jsonl(requestLines(bodies(3), "again"));
    const before = s.stats().batches.resubmitted;
    await settled(c, (await submit(c, text)).id);
    await settled(c, (await submit(c, text)).id);
    expect(s.stats().batches.resubmitted - before).toBe(3);
  });

  it("keeps the HTTP error a request earns (unknown model, bad request) in the error file", async () => {
    const c = client(s);
    const lines0 = [
      { custom_id: "good", method: "POST", url: "/v1/chat/completions", body: bodies(1)[0] },
      {
        custom_id: "bad",
        method: "POST",
        url: "/v1/chat/completions",
        body: { model: "sim-steep", messages: [] },
      },
    ];
    const done = await settled(c, (await submit(c, jsonl(lines0))).id);
    expect(done.status).toBe("completed");
    expect(done.request_counts).toEqual({ total: 2, completed: 1, failed: 1 });
    const errors = await lines(c, done.error_file_id);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ custom_id: "bad", error: null, response: { status_code: 400 } });
    expect(errors[0].response.body.error.message).toMatch(/messages/);

    const unknown = await settled(
      c,
      (await submit(c, jsonl(requestLines(bodies(2, "no-such-model"), "unknown")))).id,
    );
    const e404 = await lines(c, unknown.error_file_id);
    expect(e404.map((l) => l.response.status_code)).toEqual([404, 404]);
    expect(e404[0].response.body.error.code).toBe("model_not_found");
  });

  it("fails a batch whose file breaks the rules, with the errors OpenAI names", async () => {
    const c = client(s);
    const one = requestLines(bodies(2));
    const cases: [string, string][] = [
      [jsonl([one[0], one[0]]), "duplicate_custom_id"],
      [jsonl([{ ...(one[0] as object), url: "/v1/embeddings" }]), "invalid_url"],
      [
        jsonl([one[0], { ...(one[1] as object), body: { ...bodies(2)[1], model: "sim-locked" } }]),
        "mismatched_model",
      ],
      [`${JSON.stringify(one[0])}\n{not json\n`, "invalid_json_line"],
      ["\n", "empty_file"],
    ];
    for (const [text, code] of cases) {
      const done = await settled(c, (await submit(c, text)).id);
      expect(done.status).toBe("failed");
      expect(done.errors?.data?.[0]?.code).toBe(code);
      expect(done.output_file_id).toBeNull();
    }
    await expect(
      c.batches.create({
        input_file_id: "file-nope",
        endpoint: "/v1/chat/completions",
        completion_window: "24h",
      }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it("enforces the request-count limit per batch", async () => {
    const small = await server({ batch: { maxRequests: 3 } });
    const c = client(small);
    const done = await settled(c, (await submit(c, jsonl(requestLines(bodies(4))))).id);
    expect(done.status).toBe("failed");
    expect(done.errors?.data?.[0]?.code).toBe("too_many_requests");
  });

  it("lists batches newest first, a page at a time", async () => {
    const fresh = await server();
    const c = client(fresh);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await submit(c, jsonl(requestLines(bodies(1), `l${i}`)))).id);
    const page = await c.batches.list({ limit: 2 });
    expect(page.data.map((b) => b.id)).toEqual([ids[2], ids[1]]);
    const all: string[] = [];
    for await (const b of c.batches.list({ limit: 1 })) all.push(b.id);
    expect(all).toEqual([...ids].reverse());
  });

  it("refuses the files and batches endpoints without the key it was started with", async () => {
    const locked = await server({ apiKey: "sk-right" });
    await expect(
      client(locked, "sk-wrong").files.create({
        file: await toFile(Buffer.from("x"), "a.jsonl"),
        purpose: "batch",
      }),
    ).rejects.toMatchObject({ status: 401 });
    await expect(client(locked, "sk-wrong").batches.list()).rejects.toMatchObject({ status: 401 });
    expect((await client(locked, "sk-right").batches.list()).data).toEqual([]);
  });
});

describe("serve-sim's batch faults", () => {
  it("fails a share of lines with 500, drawn afresh at each submission", async () => {
    const s = await server({ batch: { failRate: 0.5 } });
    const c = client(s);
    const b = bodies(40);
    const first = await settled(c, (await submit(c, jsonl(requestLines(b)))).id);
    const failed = await lines(c, first.error_file_id);
    expect(failed.length).toBeGreaterThan(5);
    expect(failed.length).toBeLessThan(35);
    expect(first.request_counts?.failed).toBe(failed.length);
    for (const l of failed) expect(l.response.status_code).toBe(500);
    // The failed ones again: some succeed now (a new draw), and the answers are the live ones.
    const again = failed.map((l) => ({
      custom_id: l.custom_id,
      method: "POST",
      url: "/v1/chat/completions",
      body: b[Number(l.custom_id.slice(4))],
    }));
    const second = await settled(c, (await submit(c, jsonl(again))).id);
    const answered = await lines(c, second.output_file_id);
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.length).toBeLessThan(failed.length);
    expect(s.stats().batches.resubmitted).toBe(failed.length);
  });

  it("draws a line's fault from its request and attempt only: the same lines fail under other ids, on another server", async () => {
    // bazaar's custom ids are cache keys that hold the base URL, so the server's port: a draw that
    // read them made which lines fail, and how often, differ from one run to the next.
    const b = bodies(40);
    const failedOf = async (prefix: string) => {
      const c = client(await server({ batch: { failRate: 0.5 } }));
      const batch = await settled(c, (await submit(c, jsonl(requestLines(b, prefix)))).id);
      return (await lines(c, batch.error_file_id))
        .map((l) => Number(l.custom_id.split("-")[1]))
        .sort((x, y) => x - y);
    };
    const [one, two] = await Promise.all([failedOf("a"), failedOf("b")]);
    expect(one.length).toBeGreaterThan(5);
    expect(one.length).toBeLessThan(35);
    expect(two).toEqual(one);
  });

  it("expires the batches named: half the lines answered, the rest batch_expired", async () => {
    const s = await server({ batch: { expire: [2] } });
    const c = client(s);
    const one = await settled(c, (await submit(c, jsonl(requestLines(bodies(4), "a")))).id);
    expect(one.status).toBe("completed");
    const two = await settled(c, (await submit(c, jsonl(requestLines(bodies(10), "b")))).id);
    expect(two.status).toBe("expired");
    expect(two.expired_at).not.toBeNull();
    expect((await lines(c, two.output_file_id)).map((l) => l.custom_id)).toEqual([
      "b-0",
      "b-1",
      "b-2",
      "b-3",
      "b-4",
    ]);
    const expired = await lines(c, two.error_file_id);
    expect(expired.map((l) => l.custom_id)).toEqual(["b-5", "b-6", "b-7", "b-8", "b-9"]);
    for (const l of expired) expect(l).toMatchObject({ response: null, error: { code: "batch_expired" } });
    expect(s.stats().batches.expiredLines).toBe(5);
  });

  it("cancels a batch still waiting: cancelling, then cancelled with every line not run", async () => {
    const s = await server({ batch: { delayMs: 60_000 } });
    const c = client(s);
    const created = await submit(c, jsonl(requestLines(bodies(3))));
    expect((await c.batches.retrieve(created.id)).status).toBe("validating");
    expect((await c.batches.cancel(created.id)).status).toBe("cancelling");
    const done = await settled(c, created.id);
    expect(done.status).toBe("cancelled");
    const notRun = await lines(c, done.error_file_id);
    expect(notRun.map((l) => l.error.code)).toEqual([
      "batch_cancelled",
      "batch_cancelled",
      "batch_cancelled",
    ]);
    await expect(c.batches.cancel(created.id)).rejects.toMatchObject({ status: 400 });
  });

  it("holds a batch for the delay it was given", async () => {
    const s = await server({ batch: { delayMs: 300 } });
    const c = client(s);
    const started = Date.now();
    const created = await submit(c, jsonl(requestLines(bodies(2))));
    const done = await settled(c, created.id);
    expect(done.status).toBe("completed");
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });
});

describe("serve-sim's batch flags", () => {
  const flags = SERVE_SIM_FLAGS;

  it("reads delay, fail rate and the batches to expire", () => {
    expect(
      serveSimOptions({ ...flags, batchDelayMs: "250", batchFailRate: "0.1", batchExpire: "1, 3" }).batch,
    ).toEqual({ delayMs: 250, failRate: 0.1, expire: [1, 3] });
    expect(serveSimOptions(flags).batch).toEqual({ delayMs: 0, failRate: 0, expire: [] });
  });

  it("names a bad flag", () => {
    expect(() => serveSimOptions({ ...flags, batchFailRate: "2" })).toThrow(/--batch-fail-rate/);
    expect(() => serveSimOptions({ ...flags, batchExpire: "0" })).toThrow(UserError);
    expect(() => serveSimOptions({ ...flags, batchDelayMs: "-5" })).toThrow(/--batch-delay-ms/);
  });
});
