import { request } from "node:http";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import { Store } from "../../environments/store/index.ts";
import { BIN, runCli, tempDir } from "../helpers/cli.ts";
import {
  playBothWays,
  playThroughMcp,
  session,
  startServe,
  storedRecords,
  type ToolResult,
  textOf,
} from "../helpers/serve.ts";

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
      // message_client among the served tools: the asking shopper's questions reach the client.
      env: "shop",
      role: "shopper",
      spec: "sim:asks-first",
      design: ["--limit", "4", "--client", "sim:terse"],
      fields: ["endReason", "booked", "success", "regret", "conversation", "burden"],
    },
  ];
  for (const c of cases)
    it(`${c.env} (${c.role}: ${c.spec}${c.design.includes("--client") ? ", for a client" : ""})`, async () => {
      const r = await playBothWays(c);
      expect(r.client.stderr).toBe("");
      expect(r.result.code, r.result.stderr).toBe(0);
      expect(r.result.stdout).toMatch(/trials stored/);
      expect(r.count.mcp).toBe(r.count.native);
      expect(r.count.mcp).toBeGreaterThan(0);
      expect(r.mcp).toEqual(r.native);
    });
});

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
});

describe("bazaar serve: security", () => {
  it("off loopback without --token it refuses to start", async () => {
    const r = await runCli(["serve", "shop", "--agent-name", "x", "--host", "0.0.0.0", "--limit", "1"], {
      cwd: tempDir(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/off loopback\) needs --token/);
    const piped = await runCli(["serve", "shop", "--agent-name", "x", "--stdio", "--watch", "--limit", "1"], {
      cwd: tempDir(),
    });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toMatch(/--watch draws on stdout, which --stdio uses for MCP/);
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
      const runs = store.listRuns();
      expect(runs).toHaveLength(1);
      expect(runs[0]!.done).toBe(0);
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
