/**
 * Outside agents in every role (issue 32, item 3; its bar: each outside role equals its native
 * policy task by task), through the real CLI:
 * - a shop's seller negotiator as an `exec:` program (`bazaar run shop --seller-negotiator exec:…`):
 *   one process a negotiation, playing rule:boulware's tactic;
 * - the same seller over MCP (`bazaar serve shop --negotiable <r> --role seller`): one session a
 *   negotiation, rule:boulware itself played by an MCP client whose sessions overlap (the shopper
 *   haggles with several sellers at once); a session that leaves mid-negotiation fails its trial,
 *   which a later session plays;
 * - a market's adopters' seller over MCP (`bazaar serve market --role seller`): one session a seller
 *   turn, sim:cue-bandit played by the MCP client; a session that takes a turn and leaves fails it,
 *   and the round's seller part is passed over again before the market goes on.
 * Each is compared with its twin: the same run (same identity, trial keys and seeds) played in
 * process with the outside slot played natively by the same policy.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RULE_PRESETS } from "../../agents/bargain/presets.ts";
import { SELLER_PRESETS } from "../../agents/sim/market/presets.ts";
import { SERVED_SELLER_SHOPPERS } from "../../cli/actions/serve.ts";
import type { Agent } from "../../environments/kernel/types.ts";
import type { Negotiation } from "../../environments/shop/types.ts";
import { REPO_ROOT, runCli, tempDir } from "../helpers/cli.ts";
import {
  playThroughMcp,
  playTwin,
  recordsByRun,
  SERVED_SPEC,
  sellerOutcomes,
  session,
  startServe,
  type ToolResult,
  textOf,
} from "../helpers/serve.ts";

const CLIENT = path.join(REPO_ROOT, "test/fixtures/outside/client.mjs");
const boulware = () => RULE_PRESETS.boulware!.make("rule:boulware") as Agent<unknown, unknown>;
const SHOP = ["--negotiable", "0.6", "--tasks", "10", "--replicates", "1"];

/** The shop episodes of a store's runs, and how many negotiations each held. */
function negotiationsPerEpisode(byRun: Map<string, Record<string, unknown>[]>): number[] {
  return [...byRun.values()].flat().map((r) => (r.negotiations as Negotiation[]).length);
}

describe("a shop's seller negotiator from outside equals rule:boulware, task by task", () => {
  it("as an exec: program, one process a negotiation", async () => {
    const dir = tempDir("bazaar-exec-seller-");
    const spec = `exec:node ${CLIENT} --tactic=boulware`;
    const design = [...SHOP, "--agent", SERVED_SELLER_SHOPPERS, "--seller-negotiator", spec];
    const r = await runCli(["run", "shop", ...design, "--store", "exec.db"], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/negotiation \(\d+ negotiations, \d+ deals; sellers seller-1 exec:node /);
    const exec = recordsByRun(dir, "exec.db");
    const twin = await playTwin("shop", design, spec, boulware(), dir);
    // The fixture words its moves its own way: the moves and prices are the policy's.
    expect(sellerOutcomes(exec, false)).toEqual(sellerOutcomes(twin, false));
    const counts = negotiationsPerEpisode(exec);
    expect(counts.some((n) => n >= 2)).toBe(true);
  });

  it("served over MCP (serve shop --role seller), one session a negotiation; a session that leaves mid-negotiation fails its trial, played again", async () => {
    const dir = tempDir("bazaar-serve-seller-");
    const served = await startServe(
      ["shop", "--agent-name", "sim-policy", "--role", "seller", ...SHOP, "--store", "served.db", "--json"],
      dir,
    );
    // The first negotiation goes to a session that makes one move and leaves without waiting for
    // the shopper's answer (which comes only when the shopper offers on that listing again).
    const leaver = await session(served.url);
    const task = (await leaver.callTool({ name: "get_task", arguments: {} })) as ToolResult;
    expect(textOf(task)).toMatch(/seller/i);
    const tools = await leaver.listTools();
    expect(tools.tools.map((t) => t.name).sort()).toEqual(["deal", "get_task", "offer", "quit", "reject"]);
    const view = task._meta?.["bazaar/view"] as { listedPrice: number };
    await leaver
      .callTool({ name: "offer", arguments: { price: view.listedPrice, talk: "List price." } }, undefined, {
        timeout: 500,
      })
      .catch(() => {});
    await leaver.close();

    const client = await playThroughMcp(served.url, "shop", "seller", "rule:boulware");
    expect(client.stderr).toBe("");
    const result = await served.done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/each session plays one negotiation/);
    // The trial the leaver left failed, and a later pass played it.
    const summary = JSON.parse(result.stdout) as { failedNow: number; failed: number; stored: number };
    expect(summary).toMatchObject({ failed: 0, stored: 10 });
    expect(summary.failedNow).toBeGreaterThanOrEqual(1);
    const mcp = recordsByRun(dir, "served.db");
    const twin = await playTwin(
      "shop",
      [...SHOP, "--agent", SERVED_SELLER_SHOPPERS, "--seller-negotiator", SERVED_SPEC],
      SERVED_SPEC,
      boulware(),
      dir,
    );
    expect(sellerOutcomes(mcp)).toEqual(sellerOutcomes(twin));
    const counts = negotiationsPerEpisode(mcp);
    expect(counts.some((n) => n >= 2)).toBe(true);
    // One session a negotiation (and one more for each negotiation of the trial played again).
    const sessions = client.stdout.split("\n").filter((l) => l.startsWith("episode "));
    expect(sessions.length).toBeGreaterThanOrEqual(counts.reduce((a, b) => a + b, 0));
    expect(sessions.every((l) => /: The (negotiation is over|episode was stopped)/.test(l))).toBe(true);
  });
});

describe("a market's seller from outside equals sim:cue-bandit, round by round", () => {
  it("served over MCP (serve market --role seller), one session a seller turn", async () => {
    const dir = tempDir("bazaar-serve-market-");
    const design = [
      "--sellers",
      "4",
      "--rounds",
      "3",
      "--buyers-per-round",
      "10",
      "--adopters",
      "1,2",
      "--seed",
      "11",
    ];
    const served = await startServe(
      [
        "market",
        "--agent-name",
        "sim-policy",
        "--role",
        "seller",
        ...design,
        "--store",
        "served.db",
        "--json",
      ],
      dir,
    );
    // The first seller turn goes to a session that reads it and leaves: the turn fails, and the
    // round's seller part is passed over again before the market goes on.
    const leaver = await session(served.url);
    const task = (await leaver.callTool({ name: "get_task", arguments: {} })) as ToolResult;
    expect(textOf(task)).toMatch(/set_description|your listing/i);
    await leaver.close();
    const client = await playThroughMcp(served.url, "market", "adopter", "sim:cue-bandit");
    expect(client.stderr).toBe("");
    const result = await served.done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/9 adopter seller turns in the market/);
    const summary = JSON.parse(result.stdout) as { roundsDone: number; failed: number; failedNow: number };
    expect(summary).toMatchObject({ roundsDone: 3, failed: 0 });
    expect(summary.failedNow).toBe(1);
    const bandit = SELLER_PRESETS["cue-bandit"].make("sim:cue-bandit") as Agent<unknown, unknown>;
    const twin = await playTwin("market", [...design, "--seller", SERVED_SPEC], SERVED_SPEC, bandit, dir);
    const mcp = recordsByRun(dir, "served.db");
    expect([...mcp.keys()].sort()).toEqual([...twin.keys()].sort());
    expect(sellerOutcomes(mcp)).toEqual(sellerOutcomes(twin));
    // One session a turn of an adopter: 3 rounds × (1 + 2) adopters.
    expect(client.stdout.split("\n").filter((l) => /^episode \d+: Your turn is over/.test(l))).toHaveLength(
      9,
    );
  });
});
