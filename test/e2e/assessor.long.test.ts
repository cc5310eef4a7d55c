/**
 * `bazaar serve-assessor` as a platform uses it (issue 33 item 4's bar): the compiled CLI serving the
 * assessor, examples/a2a-agent (an A2A server on the SDK wrapping a LangGraph ReAct agent) on one of
 * serve-sim's simulated models as the participant, and the SDK's own A2A client asking for an audit of
 * it on 3 shop tasks. The client gets progress as status updates and, as the task's artifact, the
 * headline and the document `bazaar analyze --json` gives for the same run (checked against the
 * command itself, run afterwards on the assessor's store).
 *
 * The assessor is set up as it would be for participants elsewhere: a bearer token (every JSON-RPC
 * request carries it), the episodes' MCP endpoints on a fixed port handed out under
 * `--mcp-public-url` (here `localhost`, which the agent reaches on loopback). Both processes run with
 * every connection off loopback refused (test/fixtures/loopback-only.mjs).
 *
 * Runs the compiled CLI: `npm run build` first.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import path from "node:path";
import { Role, type StreamResponse, TaskState } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { BIN, REPO_ROOT, runCli, tempDir } from "../helpers/cli.ts";
import { pollUntil, type Started, startNode } from "../helpers/process.ts";

const AGENT = path.join(REPO_ROOT, "examples/a2a-agent/agent.ts");
const LOOPBACK_ONLY = path.join(REPO_ROOT, "test/fixtures/loopback-only.mjs");
/** How long any one process may take before the test gives up on it (a loaded 2-core machine). */
const DEADLINE_MS = 180_000;
const TOKEN = `assessor-${randomUUID()}`;

/** Starts a process, collecting its output; killed if it outlives the deadline. */
function start(args: string[], env: NodeJS.ProcessEnv = process.env): Started {
  return startNode(args, { cwd: REPO_ROOT, env, deadlineMs: DEADLINE_MS });
}

/** Polls `f` until it returns a value, or fails after the deadline. */
const until = <T>(what: string, f: () => T | undefined, ms = DEADLINE_MS): Promise<T> =>
  pollUntil(what, f, ms);

/** A port free right now (the MCP endpoints need one known before the assessor starts). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const processes: Started[] = [];
afterEach(() => {
  for (const p of processes.splice(0))
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
});

let sim: Awaited<ReturnType<typeof startSimServer>>;
beforeAll(async () => {
  sim = await startSimServer({ port: 0 });
});
afterAll(async () => {
  await sim?.close();
});

it("the SDK's client asks serve-assessor to audit examples/a2a-agent on 3 shop tasks and gets the artifact `bazaar analyze --json` gives", async () => {
  const dir = tempDir("bazaar-assessor-");
  const store = path.join(dir, "assessor.db");
  const agent = start(
    [
      "--import",
      "tsx",
      "--import",
      LOOPBACK_ONLY,
      AGENT,
      "--port",
      "0",
      "--model",
      "sim-shop-careful",
      "--base-url",
      sim.url,
    ],
    { ...process.env, OPENAI_API_KEY: "sk-sim", LANGSMITH_TRACING: "false" },
  );
  processes.push(agent);
  const agentUrl = await until("the agent to listen", () => {
    if (agent.child.exitCode !== null)
      throw new Error(`the agent exited:\n${agent.out.stderr}${agent.out.stdout}`);
    return /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(agent.out.stdout)?.[1];
  });

  const mcpPort = await freePort();
  const assessor = start([
    "--import",
    LOOPBACK_ONLY,
    BIN,
    "serve-assessor",
    "--port",
    "0",
    "--store",
    store,
    "--token",
    TOKEN,
    "--mcp-port",
    String(mcpPort),
    "--mcp-public-url",
    `http://localhost:${mcpPort}`,
  ]);
  processes.push(assessor);
  const url = await until("the assessor to listen", () => {
    if (assessor.child.exitCode !== null) throw new Error(`the assessor exited:\n${assessor.out.stderr}`);
    return /bazaar assessor at (http:\/\/127\.0\.0\.1:\d+)/.exec(assessor.out.stderr)?.[1];
  });
  expect(assessor.out.stderr).toContain(`participants' MCP endpoints under http://localhost:${mcpPort}`);

  // The SDK's client, every request carrying the token.
  const withToken: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("authorization", `Bearer ${TOKEN}`);
    return fetch(input, { ...init, headers });
  };
  const client = await new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: withToken }),
      transports: [new JsonRpcTransportFactory({ fetchImpl: withToken })],
    }),
  ).createFromUrl(url);
  const card = await client.getAgentCard();
  expect(card.skills.map((s) => s.id)).toEqual(["audit"]);

  const events: StreamResponse[] = [];
  for await (const e of client.sendMessageStream({
    tenant: "",
    message: {
      messageId: randomUUID(),
      contextId: "",
      taskId: "",
      role: Role.ROLE_USER,
      parts: [
        {
          content: {
            $case: "data",
            value: {
              environment: "shop",
              participant: agentUrl,
              options: { tasks: 3, replicates: 1, families: "needle,infeasible" },
            },
          },
          metadata: undefined,
          filename: "",
          mediaType: "application/json",
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  }))
    events.push(e);

  const statuses = events.flatMap((e) =>
    e.payload?.$case === "statusUpdate" ? [e.payload.value.status!] : [],
  );
  const words = (s: (typeof statuses)[number]) =>
    (s.message?.parts ?? []).map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("\n");
  expect(statuses.at(-1)?.state, statuses.map(words).join("\n---\n")).toBe(TaskState.TASK_STATE_COMPLETED);
  expect(statuses.map(words)).toContainEqual(expect.stringMatching(/^3 of 3 trials stored/));
  const artifacts = events.flatMap((e) =>
    e.payload?.$case === "artifactUpdate" ? [e.payload.value.artifact!] : [],
  );
  expect(artifacts).toHaveLength(1);
  const [headline, data] = artifacts[0]!.parts.map((p) => p.content);
  expect(headline?.value).toMatch(/^audit of a2a:langgraph shopper@1\.0\.0 .* 3 of 3 trials stored/);
  const doc = data?.value as {
    runId: string;
    complete: boolean;
    run: { stored: number; failed: number };
    analysis: unknown;
  };
  expect(doc).toMatchObject({ complete: true, run: { stored: 3, failed: 0 } });

  // The same run, analysed by the command: the document the artifact holds.
  const analyzed = await runCli(["analyze", doc.runId, "--store", store, "--json"], { cwd: dir });
  expect(analyzed.code, analyzed.stderr).toBe(0);
  expect(doc.analysis).toEqual(JSON.parse(analyzed.stdout));
  expect(agent.out.stdout.match(/ opened$/gm)).toHaveLength(3);

  // Stopped by a signal, the assessor leaves cleanly; neither process called off loopback.
  assessor.child.kill("SIGINT");
  const stopped = await assessor.done;
  expect(stopped.code, stopped.stderr).toBe(0);
  expect(stopped.stderr).toMatch(/audit \w+: completed: run shop-/);
  for (const p of [agent, assessor]) expect(p.out.stderr).not.toMatch(/loopback-only: refused/);
});
