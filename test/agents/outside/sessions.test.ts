/**
 * serve's SessionHub, in process: sessions taken from the hub as the MCP server takes them, shop
 * episodes driven by `runEpisode` with the waiting agent — the runner's attempts at one trial, each a
 * new episode under the same trial key. The abandon rule: a session that ends with its trial claimed
 * and no step taken fails the trial (played again), until the `maxAbandons`-th in a row, which is the
 * agent's non-answer ("left without acting"); a session that acted and then left resets the count.
 */
import { describe, expect, it } from "vitest";
import { SessionHub } from "../../../agents/outside/sessions.ts";
import { type EpisodeLink, WaitingAgent } from "../../../agents/outside/waiting.ts";
import { EpisodeFailed, runEpisode } from "../../../environments/kernel/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { surfaceOf } from "../../../environments/kernel/surface.ts";
import type { Agent } from "../../../environments/kernel/types.ts";
import { environmentNamed } from "../../../environments/registry.ts";
import { type ShopOutcome, shopMachine } from "../../../environments/shop/index.ts";
import { shopTasks } from "../../environments/shop/helpers.ts";

const surface = surfaceOf(environmentNamed("shop"), "shopper");

/** A served agent over `hub`, and one attempt at trial `key` (what the runner does per pass). */
function served(hub: SessionHub) {
  const agent = new WaitingAgent("mcp:x", surface, hub.link, 0) as Agent<unknown, unknown>;
  return (key: string) =>
    runEpisode<ShopOutcome>(
      shopMachine,
      { task: shopTasks()[0]! },
      { shopper: agent },
      { rng: createRng(1), trialKey: key, replicate: 0 },
    ).then(
      (r) => ({ output: r.output }),
      (err: unknown) => {
        if (err instanceof EpisodeFailed) return { failure: err.failure };
        throw err;
      },
    );
}

/** A session that takes the next episode with `get_task`, does `act` in it, and ends. */
async function session(hub: SessionHub, act: (link: EpisodeLink) => Promise<unknown> = async () => {}) {
  const s = hub.session();
  const link = await s.episodes.episode("get_task");
  if ("none" in link) throw new Error(link.none);
  await link.call("get_task", {});
  await act(link);
  s.closed();
}

describe("SessionHub: an outside agent that keeps leaving", () => {
  it("fails the trial for each session that leaves it without acting, and answers for it at the third", async () => {
    const hub = new SessionHub(false, 3);
    const attempt = served(hub);
    const results = [];
    for (let i = 0; i < 3; i++) {
      const episode = attempt("trial-a");
      await session(hub);
      results.push(await episode);
    }
    expect(results.slice(0, 2)).toEqual([
      {
        failure: {
          kind: "infrastructure",
          message:
            "outside agent: the MCP session closed before its first step (1 of 3 in a row for this trial; at 3 it is the agent's non-answer, --max-abandons)",
          label: "the MCP session closed before its first step",
        },
      },
      {
        failure: expect.objectContaining({
          message: expect.stringContaining("(2 of 3 in a row for this trial;"),
        }),
      },
    ]);
    const answered = results[2] as { output: ShopOutcome };
    expect(answered.output.endReason).toBe("agent-error");
    expect(answered.output.nonResponse?.reason).toBe(
      "agent error: left without acting 3 times: 3 MCP sessions in a row took this trial and ended before a step (--max-abandons 3)",
    );
  });

  it("counts per trial and in a row: a session that acted and left starts the count again", async () => {
    const hub = new SessionHub(false, 2);
    const attempt = served(hub);
    const leave = async (key: string, act?: (link: EpisodeLink) => Promise<unknown>) => {
      const episode = attempt(key);
      await session(hub, act);
      return episode;
    };
    // One leaving of trial a, one of trial b: neither is at two yet.
    expect(await leave("a")).toHaveProperty("failure.label", "the MCP session closed before its first step");
    expect(await leave("b")).toHaveProperty("failure.label", "the MCP session closed before its first step");
    // Trial a: a session takes a step and leaves — mid-episode, and not in a row with the first.
    expect(await leave("a", (link) => link.call("search", {}))).toHaveProperty("failure", {
      kind: "infrastructure",
      message: "outside agent: the MCP session closed mid-episode, after 1 step",
      label: "the MCP session closed mid-episode",
    });
    expect(await leave("a")).toHaveProperty("failure.label", "the MCP session closed before its first step");
    // Trial b's second in a row is its non-answer (--max-abandons 2).
    expect(await leave("b")).toHaveProperty(
      "output.nonResponse.reason",
      "agent error: left without acting 2 times: 2 MCP sessions in a row took this trial and ended before a step (--max-abandons 2)",
    );
    // With --max-abandons 1 the first leaving is the answer.
    const hub1 = new SessionHub(false, 1);
    const episode = served(hub1)("c");
    await session(hub1);
    expect(await episode).toHaveProperty(
      "output.nonResponse.reason",
      "agent error: left without acting 1 time: its MCP session took this trial and ended before a step (--max-abandons 1)",
    );
    expect(() => new SessionHub(false, 0)).toThrow(RangeError);
  });
});
