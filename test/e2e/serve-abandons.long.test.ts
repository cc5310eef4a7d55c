/**
 * The abandon rule as a user meets it (issue 32, item 1): `bazaar serve` and an outside agent that
 * takes a trial and leaves without acting, session after session. Each leaving fails the trial (a
 * later session gets it again) until the `--max-abandons`-th in a row (3 by default), which is stored
 * as the agent's non-answer — so the run ends, the server exits 0, and the summary and `bazaar runs`
 * name it. Sessions leave both ways a client can: DELETE (`terminateSession`), and closing without
 * one (the TypeScript SDK's `close()`).
 */
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.ts";
import { session, startServe, storedRecords, type ToolResult, textOf } from "../helpers/serve.ts";

describe("bazaar serve: an outside agent that keeps leaving", () => {
  it("a client that connects, calls get_task and closes, three times, leaves a stored non-answer, and the server exits 0 once the rest of the run is done", async () => {
    const dir = tempDir();
    const served = await startServe(
      ["shop", "--agent-name", "leaver", "--limit", "2", "--store", "a.db"],
      dir,
    );

    // The rest of the run: a session plays its trial to the end.
    const player = await session(served.url);
    const page = await player.callTool({ name: "search", arguments: {} });
    const id = /^1\. (\S+)/m.exec(textOf(page))![1]!;
    const booked = (await player.callTool({ name: "book", arguments: { id } })) as ToolResult;
    expect(booked._meta?.["bazaar/over"]).toBe(true);
    await player.close();

    // Three sessions take the other trial and leave before a step.
    const trials: string[] = [];
    for (let i = 0; i < 3; i++) {
      const transport = new StreamableHTTPClientTransport(new URL(served.url));
      const leaver = new Client({ name: "leaver", version: "1" });
      await leaver.connect(transport);
      const task = (await leaver.callTool({ name: "get_task", arguments: {} })) as ToolResult;
      expect(task.isError, textOf(task)).toBeFalsy();
      trials.push((task._meta!["bazaar/trial"] as { key: string }).key);
      if (i !== 1) await transport.terminateSession();
      await leaver.close();
    }
    expect(new Set(trials).size).toBe(1);

    const result = await served.done;
    expect(result.code, result.stderr).toBe(0);
    const records = await storedRecords(dir, "a.db");
    expect(records).toHaveLength(2);
    const left = records.find((r) => r.trialKey === trials[0])!;
    expect(left.agent).toBe("mcp:leaver");
    expect(left.endReason).toBe("agent-error");
    expect((left.nonResponse as { reason: string }).reason).toBe(
      "agent error: left without acting 3 times: 3 MCP sessions in a row took this trial and ended before a step (--max-abandons 3)",
    );
    expect(records.find((r) => r.trialKey !== trials[0])!.endReason).toBe("booked");

    // The summary and `bazaar runs` name it; nothing is failed, nothing blamed on a model.
    expect(result.stdout).toMatch(/^left without acting: 1 trial of mcp:leaver — non-responses: /m);
    expect(result.stdout).not.toMatch(/^failed:/m);
    // Its passes over the run (one per leaving) are one runner's, not "other runners".
    expect(result.stdout).toMatch(/^run \S+: 2 of \d+ trials stored \(2 this time, 0 before\)$/m);
    const runs = await runCli(["runs", "--store", path.join(dir, "a.db")], { cwd: dir });
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stdout).toMatch(/^left without acting in \S+: 1 trial of mcp:leaver — /m);
    expect(runs.stdout).not.toMatch(/model call|timeouts, 5xx/);
  });
});
