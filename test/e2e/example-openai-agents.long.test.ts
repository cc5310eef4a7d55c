/**
 * examples/openai-agents: an agent on the OpenAI Agents SDK (`MCPServerStreamableHttp`, a Chat
 * Completions model on serve-sim's careful shopper) plays every trial of `bazaar serve shop`, framing
 * the task its own way — its own instructions as the system message, the whole `get_task` text as
 * the user's input — and the store holds what the careful shopper stores natively (`bazaar run shop
 * --agent sim:careful`), task by task: the ending, the booking, the success, and every call in order.
 *
 * What is compared is deterministic: the design's tasks (needles and infeasible ones) have one right
 * answer each, and the careful shopper draws only to choose among several admissible listings, so no
 * outcome hangs on how either side seeds its draws (serve-sim seeds by the episode it reads; the
 * native run by the trial key). That every framing of an episode gets serve-sim's very draws is
 * tested apart, on every environment (test/agents/serve-sim/episode.test.ts).
 *
 * Between the agent and serve-sim a recording proxy keeps every request and answer, to check the
 * framing was the SDK's and each episode ended on serve-sim's closing line. The agent runs with a
 * guard that refuses any connection off loopback (test/fixtures/loopback-only.mjs) and without
 * NODE_ENV=test (under which the SDK would skip tracing by itself): the example must keep its runs'
 * traces home on its own. Runs the compiled CLI: `npm run build` first.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { trialRecords } from "../../environments/runner/records.ts";
import { SHOP_SYSTEM_INTRO } from "../../environments/shop/prompt.ts";
import { Store } from "../../environments/store/index.ts";
import { BIN, REPO_ROOT, runCli, tempDir } from "../helpers/cli.ts";
import { startNode } from "../helpers/process.ts";

const AGENT = path.join(REPO_ROOT, "examples/openai-agents/agent.ts");
const LOOPBACK_ONLY = path.join(REPO_ROOT, "test/fixtures/loopback-only.mjs");
/** How long any one process may take before the test gives up on it (a loaded 2-core machine). */
const DEADLINE_MS = 120_000;
const DESIGN = ["--tasks", "6", "--replicates", "1", "--families", "needle,infeasible"];

/** Starts a process, collecting its output; killed if it outlives the deadline. */
function start(args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }) {
  return startNode(args, { cwd: opts.cwd, env: opts.env ?? process.env, deadlineMs: DEADLINE_MS });
}

/** `bazaar serve …` on a free port, and the URL it prints once it listens. */
async function startServe(args: string[], cwd: string) {
  const served = start([BIN, "serve", ...args, "--port", "0"], { cwd });
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(served.out.stderr)?.[1];
    if (url) return { ...served, url };
    if (served.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`serve did not start:\n${served.out.stderr}${served.out.stdout}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Exchange {
  // biome-ignore lint/suspicious/noExplicitAny: a chat-completion request body, read field by field
  request: any;
  // biome-ignore lint/suspicious/noExplicitAny: a chat-completion response body, read field by field
  response: any;
}

/** An HTTP proxy to `target` (serve-sim's base URL) that keeps every completion request and answer. */
async function recordingProxy(target: string) {
  const exchanges: Exchange[] = [];
  const base = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const upstream = await fetch(`${base.origin}${req.url}`, {
        method: req.method,
        headers: { "content-type": "application/json", authorization: req.headers.authorization ?? "" },
        ...(req.method === "POST" ? { body } : {}),
      });
      const text = await upstream.text();
      if (req.url?.endsWith("/chat/completions"))
        exchanges.push({ request: JSON.parse(body), response: JSON.parse(text) });
      res.writeHead(upstream.status, { "content-type": "application/json" });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${base.pathname}`,
    exchanges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function storedRecords(file: string) {
  const store = Store.open(file, { create: false });
  try {
    const [run] = store.listRuns();
    return [...trialRecords(store, run!.id)];
  } finally {
    store.close();
  }
}

/** A trial's outcome by task and replicate: the ending, the booking, and every call in order. */
function outcomes(records: Record<string, unknown>[]) {
  return new Map(
    records.map((r) => [
      `${r.taskId}/${r.replicate}`,
      {
        endReason: r.endReason,
        booked: (r.booked as { id?: string } | null)?.id ?? null,
        success: r.success,
        nonResponse: r.nonResponse,
        steps: r.steps,
        // Without turn numbers: the SDK runs a message's parallel calls as separate MCP calls.
        calls: (r.trajectory as { tool: string; args: unknown; ok: boolean }[]).map((c) => [
          c.tool,
          c.args,
          c.ok,
        ]),
      },
    ]),
  );
}

describe("examples/openai-agents against bazaar serve shop and serve-sim", () => {
  let sim: Awaited<ReturnType<typeof startSimServer>>;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  beforeAll(async () => {
    sim = await startSimServer({ port: 0 });
    proxy = await recordingProxy(sim.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await sim?.close();
  });

  it("framed its own way, plays every trial as mcp:<name> and stores what the native careful shopper stores", async () => {
    const dir = tempDir();
    const served = await startServe(
      ["shop", "--agent-name", "openai-agents", ...DESIGN, "--store", "served.db"],
      dir,
    );
    const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: "sk-sim" };
    delete env.NODE_ENV;
    delete env.OPENAI_AGENTS_DISABLE_TRACING;
    const agent = await start(
      [
        "--import",
        "tsx",
        "--import",
        LOOPBACK_ONLY,
        AGENT,
        "--url",
        served.url,
        "--model",
        "sim-shop-careful",
        "--base-url",
        proxy.url,
      ],
      { cwd: REPO_ROOT, env },
    ).done;
    // An agent that gave up leaves trials unplayed: serve would wait for them until its deadline.
    if (agent.code !== 0) served.child.kill("SIGKILL");
    const result = await served.done;
    expect(agent.code, agent.stderr + agent.stdout).toBe(0);
    expect(agent.stderr).not.toMatch(/loopback-only: refused/);
    expect(agent.stdout).toMatch(/^done: 6 episodes played; /m);
    expect(agent.stdout).not.toMatch(/unfinished/);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/6 of 6 trials stored/);
    expect(result.stdout).toMatch(/agents: mcp:openai-agents/);

    // The SDK's framing, not bazaar's: its own instructions as the system message, and the whole
    // task (bazaar's system prompt, then the request) as the user's input.
    const firsts = proxy.exchanges.filter((x) => x.request.messages.length === 2);
    expect(firsts).toHaveLength(6);
    for (const { request } of proxy.exchanges) {
      const [system, user] = request.messages;
      expect(system.role).toBe("system");
      expect(system.content).not.toContain(SHOP_SYSTEM_INTRO);
      expect(user.role).toBe("user");
      expect(user.content.startsWith(`${SHOP_SYSTEM_INTRO}\n`)).toBe(true);
      expect(user.content).toMatch(/\n\nI need a hotel room in New York for one night\.\n/);
    }
    // Each episode ended on serve-sim's closing line (the SDK asks its model once more after the
    // call that ended it), and no answer was serve-sim's "not an episode" reply.
    const said = proxy.exchanges.map((x) => x.response.choices[0].message.content as string | null);
    expect(said.filter((t) => t?.startsWith("Done. The task is over: "))).toHaveLength(6);
    expect(said.filter((t) => t !== null && !t.startsWith("Done. "))).toEqual([]);

    const mcp = storedRecords(path.join(dir, "served.db"));
    expect(mcp).toHaveLength(6);
    for (const r of mcp) expect(r.agent).toBe("mcp:openai-agents");
    const native = await runCli(
      ["run", "shop", "--agent", "sim:careful", ...DESIGN, "--store", "native.db"],
      {
        cwd: dir,
      },
    );
    expect(native.code, native.stderr).toBe(0);
    const want = outcomes(storedRecords(path.join(dir, "native.db")));
    expect(outcomes(mcp)).toEqual(want);
    // Both kinds of ending are in the design: a booking and a correct give-up.
    expect(new Set([...want.values()].map((o) => o.endReason))).toEqual(new Set(["booked", "gave-up"]));
  });
});
