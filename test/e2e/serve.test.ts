import { type ChildProcess, spawn } from "node:child_process";
import { request } from "node:http";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { addSharedOptions } from "../../cli/commands/run.ts";
import { ENVIRONMENT_CLIS } from "../../cli/run/index.ts";
import { surfaceOf } from "../../environments/kernel/surface.ts";
import type { Agent } from "../../environments/kernel/types.ts";
import { environmentNamed } from "../../environments/registry.ts";
import { executeRun } from "../../environments/runner/execute.ts";
import { trialRecords } from "../../environments/runner/records.ts";
import { Store } from "../../environments/store/index.ts";
import { Reseeded } from "../fixtures/serve/reseeded.ts";
import { BIN, type CliResult, REPO_ROOT, runCli, tempDir } from "../helpers/cli.ts";

const SIM_CLIENT = path.join(REPO_ROOT, "test/fixtures/serve/sim-client.ts");

interface Served {
  url: string;
  child: ChildProcess;
  done: Promise<CliResult>;
}

/** Starts `bazaar serve …` and waits (with a deadline) for the line that says where it listens. */
async function startServe(args: string[], cwd: string): Promise<Served> {
  const child = spawn(process.execPath, [BIN, "serve", ...args, "--port", "0"], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr!.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const done = new Promise<CliResult>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1];
    if (url) return { url, child, done };
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`serve did not start:\n${stderr}${stdout}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The simulated policy played through MCP, looping over sessions until the run is complete. */
function playThroughMcp(url: string, env: string, role: string, spec: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", SIM_CLIENT, url, env, role, spec], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The same policy played natively, in process: the run's planner with the policy reseeded as the client seeds it. */
async function playNatively(env: string, role: string, args: string[], dir: string) {
  const envCli = ENVIRONMENT_CLIS.find((e) => e.name === env)!;
  const cmd = addSharedOptions((await envCli.options())(new Command()).exitOverride());
  cmd.parse(args, { from: "user" });
  const o = cmd.opts();
  const plan = (await envCli.planner())(o, { settings: {} });
  const surface = surfaceOf(environmentNamed(env), role);
  const agents = plan.agents.map((a) => ({
    ...a,
    players: {
      ...a.players,
      [role]: new Reseeded(a.players[role] as Agent<unknown, unknown>, surface),
    },
  }));
  const store = Store.open(path.join(dir, "native.db"), { create: true });
  try {
    await executeRun({ ...plan, agents }, store, {
      limit: Number(o.limit),
      concurrency: 4,
      liveTurns: false,
    });
    return [...trialRecords(store, plan.runId)];
  } finally {
    store.close();
  }
}

async function storedRecords(dir: string, file: string) {
  const store = Store.open(path.join(dir, file), { create: false });
  try {
    const [run] = store.listRuns();
    return [...trialRecords(store, run!.id)];
  } finally {
    store.close();
  }
}

/** What an outcome is, without how many agent messages it took (a parallel shopper's one message is several MCP calls). */
function outcomes(records: Record<string, unknown>[], fields: string[]): Map<string, unknown> {
  return new Map(
    records.map((r) => [
      `${r.taskId}/${r.replicate}`,
      Object.fromEntries(
        fields.map((f) => [f, f === "booked" ? ((r.booked as { id?: string } | null)?.id ?? null) : r[f]]),
      ),
    ]),
  );
}

describe("bazaar serve: the same policy through MCP stores the same outcomes as natively", () => {
  const cases = [
    {
      env: "shop",
      role: "shopper",
      spec: "sim:careful",
      design: ["--limit", "8"],
      fields: ["endReason", "booked", "success"],
    },
    {
      env: "bargain",
      role: "buyer",
      spec: "sim:llm",
      design: ["--limit", "6", "--seller", "rule:boulware"],
      fields: ["outcome", "dealPrice", "endedBy", "turns"],
    },
    {
      env: "bargain",
      role: "seller",
      spec: "rule:boulware",
      design: ["--limit", "6", "--buyer", "rule:conceder"],
      fields: ["outcome", "dealPrice", "endedBy", "turns"],
    },
    {
      env: "choice",
      role: "shopper",
      spec: "sim:steep",
      design: ["--limit", "12"],
      fields: ["chosenSlot", "chosen", "nonResponse"],
    },
  ];
  for (const c of cases)
    it(`${c.env} (${c.role}: ${c.spec})`, async () => {
      const dir = tempDir();
      const roleArgs = c.env === "bargain" ? ["--role", c.role] : [];
      const served = await startServe(
        [c.env, "--agent-name", "sim-policy", ...roleArgs, ...c.design, "--store", "served.db"],
        dir,
      );
      const client = await playThroughMcp(served.url, c.env, c.role, c.spec);
      const result = await served.done;
      expect(client.stderr).toBe("");
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/trials stored/);
      const slot = c.env === "bargain" ? `--${c.role}` : "--agent";
      const native = await playNatively(c.env, c.role, [...c.design, slot, c.spec], dir);
      const mcp = await storedRecords(dir, "served.db");
      expect(mcp.length).toBe(native.length);
      expect(mcp.length).toBeGreaterThan(0);
      expect(outcomes(mcp, c.fields)).toEqual(outcomes(native, c.fields));
    });
});

/** One MCP client session on the server's endpoint. */
async function session(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

type ToolResult = { content: { text: string }[]; isError?: boolean; _meta?: Record<string, unknown> };
const textOf = (r: unknown) => (r as ToolResult).content.map((c) => c.text).join("\n");

describe("bazaar serve: faults never lose a trial, never play one twice, never store one as an answer", () => {
  it("a session that leaves mid-episode fails its trial, a later one plays it; malformed arguments are invalid calls; calls after the end change nothing", async () => {
    const dir = tempDir();
    const served = await startServe(
      ["shop", "--agent-name", "faulty", "--limit", "3", "--store", "s.db", "--episode-timeout", "2"],
      dir,
    );
    // Connecting and listing tools holds nothing.
    const idle = await session(served.url);
    const tools = await idle.listTools();
    expect(tools.tools.map((t) => t.name).sort()).toEqual(["book", "get_task", "give_up", "search", "view"]);

    // Leaves after one step: its trial is failed, not answered.
    const leaver = await session(served.url);
    await leaver.callTool({ name: "search", arguments: {} });
    await leaver.close();

    // Goes silent past --episode-timeout: failed too.
    const silent = await session(served.url);
    await silent.callTool({ name: "get_task", arguments: {} });

    // Malformed arguments: a tool error the agent reads back, counted as an invalid call.
    const player = await session(served.url);
    const bad = (await player.callTool({ name: "search", arguments: { minStars: "lots" } })) as ToolResult;
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/minStars|stars/i);
    const page = await player.callTool({ name: "search", arguments: {} });
    const id = /^1\. (\S+)/m.exec(textOf(page))![1]!;
    const booked = (await player.callTool({ name: "book", arguments: { id } })) as ToolResult;
    expect(booked._meta?.["bazaar/over"]).toBe(true);
    expect(textOf(booked)).toMatch(new RegExp(`booked listing ${id}`));
    const after = (await player.callTool({ name: "search", arguments: {} })) as ToolResult;
    expect(textOf(after)).toBe(textOf(booked));
    await player.close();
    await idle.close();

    // The rest of the run, failed trials included, is played by later sessions.
    const client = await playThroughMcp(served.url, "shop", "shopper", "sim:careful");
    expect(client.stderr).toBe("");
    const result = await served.done;
    await silent.close().catch(() => {});
    expect(result.code, result.stderr).toBe(0);
    const records = await storedRecords(dir, "s.db");
    expect(records.map((r) => r.seq).sort()).toEqual([0, 1, 2]);
    const invalid = records.find((r) => (r.invalidCalls as number) > 0);
    expect(invalid).toBeDefined();
    expect(records.every((r) => r.endReason === "booked" || r.endReason === "gave-up")).toBe(true);
  });

  it("a client that closes without ending its session (no DELETE) frees its trial at once, not after --episode-timeout", async () => {
    const dir = tempDir();
    const served = await startServe(
      ["shop", "--agent-name", "closer", "--limit", "2", "--store", "c.db"],
      dir,
    );
    const leaver = await session(served.url);
    const task = (await leaver.callTool({ name: "get_task", arguments: {} })) as ToolResult;
    const split = task._meta?.["bazaar/task"] as { instructions: string; request: string };
    expect(textOf(task)).toBe(`${split.instructions}\n\n${split.request}`);
    await leaver.callTool({ name: "search", arguments: {} });
    await leaver.close();
    // With the default timeout of 10 minutes, only the closed stream can free the trial in time.
    const client = await playThroughMcp(served.url, "shop", "shopper", "sim:careful");
    expect(client.stderr).toBe("");
    const result = await served.done;
    expect(result.code, result.stderr).toBe(0);
    expect((await storedRecords(dir, "c.db")).map((r) => r.seq).sort()).toEqual([0, 1]);
  });

  it("two servers on one store and several clients at once: every trial exactly once", async () => {
    const dir = tempDir();
    const args = ["shop", "--agent-name", "racer", "--limit", "70", "--store", "race.db"];
    const [a, b] = await Promise.all([startServe(args, dir), startServe(args, dir)]);
    const clients = await Promise.all([
      playThroughMcp(a.url, "shop", "shopper", "sim:first-result"),
      playThroughMcp(a.url, "shop", "shopper", "sim:first-result"),
      playThroughMcp(b.url, "shop", "shopper", "sim:first-result"),
    ]);
    for (const c of clients) expect(c.stderr).toBe("");
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(ra.code, ra.stderr).toBe(0);
    expect(rb.code, rb.stderr).toBe(0);
    const seqs = (await storedRecords(dir, "race.db")).map((r) => r.seq as number).sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: 70 }, (_, i) => i));
  });
});

describe("bazaar serve: security", () => {
  it("off loopback without --token it refuses to start", async () => {
    const r = await runCli(["serve", "shop", "--agent-name", "x", "--host", "0.0.0.0", "--limit", "1"], {
      cwd: tempDir(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/off loopback\) needs --token/);
  });

  it("a request without the token, or with a wrong one or a foreign Host, changes nothing", async () => {
    const dir = tempDir();
    const served = await startServe(
      ["shop", "--agent-name", "guarded", "--limit", "1", "--store", "g.db", "--token", "s3cret"],
      dir,
    );
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(served.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(init),
      });
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: "Bearer wrong" })).status).toBe(401);
    const port = new URL(served.url).port;
    // fetch() will not send a Host of its own: a raw request does, as a rebound browser page would.
    const rebinding = await new Promise<{ status: number }>((resolve, reject) => {
      const req = request(
        served.url,
        {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            authorization: "Bearer s3cret",
            host: `evil.example:${port}`,
          },
        },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0 });
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify(init));
    });
    expect(rebinding.status).toBe(403);
    served.child.kill("SIGTERM");
    await served.done;
    const store = Store.open(path.join(dir, "g.db"), { create: false });
    try {
      expect(store.listRuns().every((r) => r.done === 0)).toBe(true);
    } finally {
      store.close();
    }
  });
});

describe("bazaar serve --stdio", () => {
  it("one session plays episodes one after another, get_task starting each, and the server exits when the run is whole", async () => {
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    const dir = tempDir();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "serve", "shop", "--agent-name", "piped", "--stdio", "--limit", "2", "--store", "p.db"],
      cwd: dir,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const client = new Client({ name: "test", version: "1" });
    await client.connect(transport);
    const booked: string[] = [];
    for (let episode = 0; episode < 2; episode++) {
      const task = (await client.callTool({ name: "get_task", arguments: {} })) as ToolResult;
      expect(task.isError, textOf(task)).toBeFalsy();
      expect(textOf(task)).toMatch(/book/i);
      const page = await client.callTool({ name: "search", arguments: {} });
      const id = /^1\. (\S+)/m.exec(textOf(page))![1]!;
      const last = (await client.callTool({ name: "book", arguments: { id } })) as ToolResult;
      expect(last._meta?.["bazaar/over"], textOf(last)).toBe(true);
      booked.push(id);
    }
    // The run is whole: the server prints its summary on stderr (stdout is the MCP channel) and exits.
    const deadline = Date.now() + 30_000;
    while (!/trials stored/.test(stderr) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    await client.close().catch(() => {});
    expect(stderr).toMatch(/2 of \d+ trials stored/);
    const records = await storedRecords(dir, "p.db");
    expect(records.map((r) => (r.booked as { id: string }).id)).toEqual(booked);
    expect(records.every((r) => r.agent === "mcp:piped")).toBe(true);
  });
});
