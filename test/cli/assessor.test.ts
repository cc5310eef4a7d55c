/**
 * `bazaar serve-assessor` in this process (cli/assessor/), asked by the official SDK's A2A client,
 * auditing A2A agents on the SDK (test/fixtures/a2a/agent.ts), all on loopback:
 *
 * - an audit of 3 shop tasks streams its progress as working status updates and ends with the
 *   artifact: the headline as text, the run's `--json` document and `bazaar analyze --json`'s for the
 *   same run, as those commands give them; the same request again resumes the same run;
 * - a v0.3 client (message/send, no A2A-Version) sending an assessment request as JSON text gets the
 *   same kind of answer;
 * - bad requests fail the task with the CLI's words and store nothing; a participant without a card
 *   fails with the reason;
 * - audits run one at a time: a second waits its turn (told how many are ahead), a queued one can be
 *   canceled, a full line rejects; a running audit is canceled by its client;
 * - the card describes the skill and its request's schema; a token is needed off loopback and every
 *   JSON-RPC request must carry it;
 * - the episodes' MCP host hands out URLs under its public URL and takes requests addressed to it.
 *
 * The compiled CLI auditing examples/a2a-agent is test/e2e/assessor.long.test.ts.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { type Message, Role, type StreamResponse, type Task, TaskState } from "@a2a-js/sdk";
import { type Client, ClientFactory } from "@a2a-js/sdk/client";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { McpHttpHost } from "../../agents/outside/http.ts";
import { AuditQueue } from "../../cli/assessor/queue.ts";
import { type RunningAssessor, startAssessor } from "../../cli/assessor/serve.ts";
import { type RunningA2a, startA2aAgent } from "../fixtures/a2a/agent.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";

const started: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop()));
});

async function agent(opts: Parameters<typeof startA2aAgent>[0]): Promise<RunningA2a> {
  const a = await startA2aAgent(opts);
  started.push({ stop: () => a.close() });
  return a;
}

async function assessor(
  dir: string,
  more: Partial<Parameters<typeof startAssessor>[0]> = {},
): Promise<RunningAssessor & { said: string[] }> {
  const said: string[] = [];
  const a = await startAssessor(
    {
      host: "127.0.0.1",
      port: "0",
      store: path.join(dir, "assessor.db"),
      maxQueued: "8",
      mcpHost: "127.0.0.1",
      mcpPort: "0",
      ...more,
    },
    { log: (l) => said.push(l), error: (l) => said.push(l) },
  );
  started.push(a);
  return { ...a, said };
}

function request(value: unknown, as: "data" | "text" = "data") {
  const message: Message = {
    messageId: randomUUID(),
    contextId: "",
    taskId: "",
    role: Role.ROLE_USER,
    parts: [
      as === "data"
        ? {
            content: { $case: "data", value },
            metadata: undefined,
            filename: "",
            mediaType: "application/json",
          }
        : {
            content: { $case: "text", value: String(value) },
            metadata: undefined,
            filename: "",
            mediaType: "text/plain",
          },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return { tenant: "", message, configuration: undefined, metadata: undefined };
}

/** Every event of a streamed audit, until its stream ends. */
async function stream(client: Client, value: unknown): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const e of client.sendMessageStream(request(value))) events.push(e);
  return events;
}

const textOf = (m: Message | undefined) =>
  (m?.parts ?? []).map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("\n");

/** A blocking message/send: the task as it ended. */
async function send(client: Client, value: unknown, as: "data" | "text" = "data"): Promise<Task> {
  const r = await client.sendMessage(request(value, as));
  if (!("status" in r)) throw new Error(`a message, not a task: ${JSON.stringify(r)}`);
  return r;
}

const SHOP = { tasks: 3, replicates: 1, families: "needle,infeasible" };

/** Polls until `f` holds (after `step`, if any), or fails after the deadline. */
async function until(what: string, f: () => boolean, ms = 60_000, step?: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    await step?.();
    if (f()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("an audit over A2A", () => {
  it("3 shop tasks: progress as status updates, then the artifact `run --json` and `analyze --json` give; again from a v0.3 client: the same run", async () => {
    const dir = tempDir();
    const shopper = await agent({
      behaviour: "play:sim:careful",
      streaming: true,
      name: "careful",
      version: "2.1",
    });
    const a = await assessor(dir);
    const client = await new ClientFactory().createFromUrl(a.url);
    const events = await stream(client, { environment: "shop", participant: shopper.url, options: SHOP });

    const statuses = events.flatMap((e) =>
      e.payload?.$case === "statusUpdate" ? [e.payload.value.status!] : [],
    );
    expect(statuses.at(-1)!.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(statuses.slice(0, -1).every((s) => s.state === TaskState.TASK_STATE_WORKING)).toBe(true);
    const progress = events.flatMap((e) =>
      e.payload?.$case === "statusUpdate" && e.payload.value.metadata?.["bazaar/progress"]
        ? [e.payload.value.metadata["bazaar/progress"] as { stored: number; target: number }]
        : [],
    );
    expect(progress.at(-1)).toMatchObject({ stored: 3, target: 3 });
    expect(statuses.map((s) => textOf(s.message))).toContainEqual(
      expect.stringMatching(/^3 of 3 trials stored/),
    );

    const artifacts = events.flatMap((e) =>
      e.payload?.$case === "artifactUpdate" ? [e.payload.value.artifact!] : [],
    );
    expect(artifacts).toHaveLength(1);
    const [text, data] = artifacts[0]!.parts.map((p) => p.content);
    expect(text?.$case).toBe("text");
    expect(text?.value).toMatch(
      /audit of a2a:careful@2\.1 .* as the shopper of shop: run shop-\w+, 3 of 3 trials stored/,
    );
    const doc = data?.value as {
      runId: string;
      agent: string;
      complete: boolean;
      run: { stored: number; failed: number; headline: unknown };
      analysis: unknown;
    };
    expect(doc).toMatchObject({ agent: "a2a:careful@2.1", complete: true, run: { stored: 3, failed: 0 } });
    // What `bazaar analyze <run> --json` prints for the same run, and the headline `run` printed.
    const analyzed = await runInProcess([
      "analyze",
      doc.runId,
      "--store",
      path.join(dir, "assessor.db"),
      "--json",
    ]);
    expect(analyzed.code, analyzed.err).toBe(0);
    expect(doc.analysis).toEqual(JSON.parse(analyzed.out));
    expect(doc.run.headline).toMatchObject({ agents: [{ episodes: 3 }] });

    // The same audit again, from a v0.3 client (message/send without A2A-Version) sending an
    // assessment request (participants by role) as JSON text: the same run, nothing to play.
    const asText = JSON.stringify({
      participants: { shopper: shopper.url },
      config: { environment: "shop", options: { ...SHOP, families: ["needle", "infeasible"] } },
    });
    const res = await fetch(`${a.url}/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "message/send",
        params: {
          message: {
            kind: "message",
            messageId: randomUUID(),
            role: "user",
            parts: [{ kind: "text", text: asText }],
          },
        },
      }),
    });
    const body = (await res.json()) as {
      id: number;
      result: {
        kind: string;
        status: { state: string };
        artifacts: { parts: { kind: string; data?: unknown }[] }[];
      };
    };
    expect(body.id).toBe(7);
    expect(body.result).toMatchObject({ kind: "task", status: { state: "completed" } });
    expect(body.result.artifacts[0]!.parts.map((p) => p.kind)).toEqual(["text", "data"]);
    const doc2 = body.result.artifacts[0]!.parts[1]!.data as typeof doc & { run: { ranNow: number } };
    expect(doc2).toMatchObject({
      runId: doc.runId,
      role: "shopper",
      complete: true,
      run: { stored: 3, ranNow: 0 },
    });
    expect(doc2.analysis).toEqual(doc.analysis);
    expect(shopper.heard.size).toBe(3);

    // A client that leaves the stream at its first event (its connection cut): the audit goes on, and
    // tasks/get finds it as it ended, artifact and all.
    const leaving = new AbortController();
    const streamed = await fetch(`${a.url}/`, {
      method: "POST",
      signal: leaving.signal,
      headers: { "content-type": "application/json", "A2A-Version": "1.0" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 8,
        method: "SendStreamingMessage",
        params: {
          message: {
            messageId: randomUUID(),
            role: "ROLE_USER",
            parts: [{ data: { environment: "shop", participant: shopper.url, options: SHOP } }],
          },
        },
      }),
    });
    const firstChunk = new TextDecoder().decode((await streamed.body!.getReader().read()).value);
    leaving.abort();
    const id = /"id":"([^"]+)"/.exec(firstChunk.slice(firstChunk.indexOf('"task"')))?.[1] ?? "";
    expect(id).not.toBe("");
    let task: Task | undefined;
    await until(
      "the audit to end",
      () => task?.status?.state === TaskState.TASK_STATE_COMPLETED,
      30_000,
      async () => {
        task = await client.getTask({ tenant: "", id, historyLength: 0 });
      },
    );
    expect(task!.artifacts[0]!.parts[1]!.content!.value).toMatchObject({ runId: doc.runId, complete: true });
    expect(a.said.join("\n")).toMatch(/audit \w+: completed: run shop-/);
  });
});

describe("an audit that is not whole", () => {
  it("a participant gone mid-audit: failed, saying what failed, the artifact marked incomplete; back, the same request plays what failed", async () => {
    const dir = tempDir();
    const dying = await agent({ behaviour: "play:sim:careful", dieAfter: 1 });
    const a = await assessor(dir);
    const client = await new ClientFactory().createFromUrl(a.url);
    const audit = { environment: "shop", participant: dying.url, options: { ...SHOP, concurrency: 1 } };
    const first = await send(client, audit);
    expect(first.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(textOf(first.status?.message)).toMatch(
      /^2 trials of run shop-\w+ failed — missing data, in no estimate of the artifact; what failed:\n {2}a2a:http:\/\/127\.0\.0\.1:\d+: the A2A agent did not answer \(2\)\nsend the same request again/,
    );
    const doc = first.artifacts[0]!.parts[1]!.content!.value as {
      runId: string;
      complete: boolean;
      run: { stored: number };
    };
    expect(doc).toMatchObject({ complete: false, run: { stored: 1 } });
    const back = await agent({ behaviour: "play:sim:careful", port: dying.port });
    const again = await send(client, audit);
    expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(again.artifacts[0]!.parts[1]!.content!.value).toMatchObject({
      runId: doc.runId,
      complete: true,
      run: { stored: 3, ranNow: 2, failed: 0 },
    });
    expect(back.heard.size).toBe(2);
  });
});

describe("a bad request fails its task with the CLI's words, and stores nothing", () => {
  it("unknown, inapplicable and assessor-set options, foreign agents, bad roles and environments, no request, no card", async () => {
    const dir = tempDir();
    const a = await assessor(dir);
    const client = await new ClientFactory().createFromUrl(a.url);
    const url = "http://127.0.0.1:9";
    const cases: [unknown, RegExp][] = [
      [
        { environment: "shop", participant: url, options: { bogus: 3 } },
        /^unknown option '--bogus' for `run shop`\nbazaar run shop --help lists its options$/,
      ],
      [
        { environment: "shop", participant: url, options: { scenarios: 3 } },
        /--scenarios is an option of `run bargain`, not of `run shop`/,
      ],
      [
        { environment: "shop", participant: url, options: { store: "/tmp/x.db" } },
        /--store is not the request's to set: audits are stored in the assessor's own store/,
      ],
      [
        { environment: "shop", participant: url, options: { agent: "sim:careful" } },
        /the participant plays --agent \(role shopper\)/,
      ],
      [
        { environment: "shop", participant: url, options: { client: "exec:rm -rf ~" } },
        /"exec:rm -rf ~" — the participant is an audit's only agent from outside/,
      ],
      [
        {
          environment: "bargain",
          participant: url,
          role: "buyer",
          options: { seller: "og-narrator:openai:gpt-4o" },
        },
        /openai:gpt-4o" — the participant is an audit's only agent/,
      ],
      [
        { environment: "shop", participant: url, options: { ogSchedule: "linear" } },
        /--og-schedule does not apply to an audit of shop whose participant is the shopper/,
      ],
      [{ environment: "shop", participant: url, options: { tasks: "many" } }, /--tasks/],
      [{ environment: "market", participant: url }, /does not audit market/],
      [{ environment: "shop", participant: url, role: "cashier" }, /role "cashier"/],
      [
        { environment: "shop", participant: "ftp://x" },
        /a2a:ftp:\/\/x: bazaar reaches A2A agents over http: or https:/,
      ],
      [{ environment: "shop", participant: url, extra: 1 }, /unknown field "extra"/],
      [
        { participants: { a: url, b: url }, config: { environment: "shop" } },
        /an audit has one participant, got 2/,
      ],
      ["please audit my agent", /the message holds no audit request/],
      [
        { environment: "shop", participant: url, options: SHOP },
        /a2a:http:\/\/127\.0\.0\.1:9: the agent does not answer/,
      ],
    ];
    for (const [value, expected] of cases) {
      const task = await send(client, value, typeof value === "string" ? "text" : "data");
      expect(task.status?.state, JSON.stringify(value)).toBe(TaskState.TASK_STATE_FAILED);
      expect(textOf(task.status?.message), JSON.stringify(value)).toMatch(expected);
      expect(task.artifacts).toEqual([]);
    }
    expect(existsSync(path.join(dir, "assessor.db"))).toBe(false);
  });
});

/** The events of a stream read in the background, and its task's id once its first event came. */
async function follow(client: Client, value: unknown) {
  const it = client.sendMessageStream(request(value));
  const first = await it.next();
  const id = first.value?.payload?.$case === "task" ? first.value.payload.value.id : "";
  const events: StreamResponse[] = [];
  const done = (async () => {
    for await (const e of it) events.push(e);
    return events;
  })();
  return { id, events, done };
}

const lastStatus = (events: StreamResponse[]) =>
  events.flatMap((e) => (e.payload?.$case === "statusUpdate" ? [e.payload.value.status!] : [])).at(-1);

describe("audits one at a time", () => {
  it("a second waits its turn (told so); a full line rejects; a queued audit and a running one are canceled", async () => {
    const dir = tempDir();
    const hang = await agent({ behaviour: "hang", streaming: true });
    const shopper = await agent({ behaviour: "play:sim:careful", streaming: true });
    const a = await assessor(dir, { maxQueued: "1" });
    const client = await new ClientFactory().createFromUrl(a.url);
    // The first audit does not end by itself: its agent never answers.
    const first = await follow(client, {
      environment: "shop",
      participant: hang.url,
      options: { tasks: 1, replicates: 1 },
    });
    await until("the first audit to start", () => a.said.some((l) => /started: shop/.test(l)));
    const second = await follow(client, { environment: "shop", participant: shopper.url, options: SHOP });
    await until("the second audit to be queued", () => second.events.length > 0);
    expect(textOf(lastStatus(second.events)?.message)).toBe("queued: 1 audit ahead");
    const third = await send(client, { environment: "shop", participant: shopper.url, options: SHOP });
    expect(third.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    expect(textOf(third.status?.message)).toMatch(/busy: its line of waiting audits is full/);

    // Canceled while waiting: it never runs.
    const q = await client.cancelTask({ tenant: "", id: second.id, metadata: undefined });
    expect(q.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await second.done;
    expect(lastStatus(second.events)?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(shopper.heard.size).toBe(0);
    // The running audit, canceled by its client: its run stops; the same request would resume it.
    const r = await client.cancelTask({ tenant: "", id: first.id, metadata: undefined });
    expect(r.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await first.done;
    expect(textOf(lastStatus(first.events)?.message)).toMatch(
      /^canceled; what is stored stays: the same request resumes run shop-/,
    );
    expect(a.said.join("\n")).toMatch(/canceled while queued[\s\S]*canceled: run shop-/);
  });

  it("the line: one runs, the others wait in order, a full line is null, leaving starts the next", async () => {
    const q = new AuditQueue(2);
    const [t1, t2, t3] = [q.enter("a")!, q.enter("b")!, q.enter("c")!];
    expect(q.enter("d")).toBeNull();
    expect([q.ahead(t1), q.ahead(t2), q.ahead(t3)]).toEqual([0, 1, 2]);
    expect(await t1.ready).toBe(true);
    q.cancel("b");
    expect(await t2.ready).toBe(false);
    q.leave(t1);
    expect(await t3.ready).toBe(true);
    expect(q.ahead(t3)).toBe(0);
  });
});

describe("what the assessor says of itself, and who may ask it", () => {
  it("the card: one skill, its request's JSON Schema (environments, roles, each run's options), v1.0 and v0.3", async () => {
    const a = await assessor(tempDir());
    const v1 = (await (
      await fetch(`${a.url}/.well-known/agent-card.json`, { headers: { "A2A-Version": "1.0" } })
    ).json()) as {
      supportedInterfaces: { url: string; protocolVersion: string }[];
      skills: { id: string; examples: string[] }[];
      capabilities: { streaming: boolean; extensions: { uri: string; params: { schema: Schema } }[] };
    };
    type Schema = {
      properties: { environment: { enum: string[] } };
      allOf: {
        if: { properties: { environment: { const: string } } };
        then: { properties: { role: { enum: string[] }; options: { properties: Record<string, unknown> } } };
      }[];
    };
    expect(v1.supportedInterfaces.map((i) => [i.url, i.protocolVersion])).toEqual([
      [`${a.url}/`, "1.0"],
      [`${a.url}/`, "0.3"],
    ]);
    expect(v1.skills.map((s) => s.id)).toEqual(["audit"]);
    expect(v1.capabilities.streaming).toBe(true);
    const schema = v1.capabilities.extensions[0]!.params.schema;
    expect(schema.properties.environment.enum.sort()).toEqual(["bargain", "choice", "cue", "elicit", "shop"]);
    const shop = schema.allOf.find((x) => x.if.properties.environment.const === "shop")!.then.properties;
    expect(shop.role.enum).toEqual(["shopper", "seller", "agent"]);
    expect(Object.keys(shop.options.properties)).toEqual(
      expect.arrayContaining(["tasks", "families", "client", "limit", "seed"]),
    );
    for (const not of ["store", "agent", "json", "a2a-header", "pool", "base-url", "seller-negotiator"])
      expect(Object.keys(shop.options.properties)).not.toContain(not);
    // Each example is a request the assessor reads.
    for (const example of v1.skills[0]!.examples) expect(() => JSON.parse(example)).not.toThrow();
    const v03 = (await (await fetch(`${a.url}/.well-known/agent-card.json`)).json()) as Record<
      string,
      unknown
    >;
    expect(v03).toMatchObject({ url: `${a.url}/`, protocolVersion: "0.3.0", preferredTransport: "JSONRPC" });
  });

  it("off loopback only with --token; with one, a JSON-RPC request without it is refused, the card is not", async () => {
    const dir = tempDir();
    await expect(assessor(dir, { host: "0.0.0.0" })).rejects.toThrow(
      /serving on 0\.0\.0\.0 \(off loopback\) needs --token/,
    );
    await expect(assessor(dir, { mcpHost: "0.0.0.0" })).rejects.toThrow(
      /--mcp-host 0\.0\.0\.0 listens on every address/,
    );
    await expect(assessor(dir, { mcpPublicUrl: "http://h:1/mcp" })).rejects.toThrow(
      /an origin without a path/,
    );
    const token = "s3cret-token-0123456789";
    const a = await assessor(dir, { token });
    const card = (await (
      await fetch(`${a.url}/.well-known/agent-card.json`, { headers: { "A2A-Version": "1.0" } })
    ).json()) as {
      securitySchemes: Record<string, unknown>;
    };
    expect(Object.keys(card.securitySchemes)).toEqual(["bearer"]);
    const rpc = (auth?: string) =>
      fetch(`${a.url}/`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "nope" } }),
      });
    expect((await rpc()).status).toBe(401);
    expect((await rpc("Bearer wrong-token-0123456789")).status).toBe(401);
    const ok = await rpc(`Bearer ${token}`);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { error: { message: string } }).error.message).toMatch(/not found/i);
  });

  it("the episodes' MCP host: URLs under its public URL, sessions addressed there taken, others refused", async () => {
    const host = await McpHttpHost.start("127.0.0.1", 0, "http://assessor.test:9100");
    started.push({ stop: () => host.close() });
    host.addRoute("/episode/s", {
      newSession: () => ({
        server: new Server({ name: "t", version: "1" }, { capabilities: { tools: {} } }),
        closed: () => {},
      }),
    });
    expect(host.url("/episode/s")).toBe("http://assessor.test:9100/episode/s");
    // An MCP initialize, sent to the port the host listens on, addressed (Host) as a client would.
    const initialize = (hostHeader: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            host: "127.0.0.1",
            port: host.port,
            path: "/episode/s",
            method: "POST",
            headers: {
              host: hostHeader,
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
            },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: {
              protocolVersion: "2025-06-18",
              capabilities: {},
              clientInfo: { name: "c", version: "1" },
            },
          }),
        );
      });
    expect(await initialize("assessor.test:9100")).toBe(200);
    expect(await initialize(`127.0.0.1:${host.port}`)).toBe(200);
    expect(await initialize("rebound.example:9100")).toBe(403);
  });
});
