/**
 * Scores start from zero (τ²-bench's open issue: an agent that does nothing must not score): an
 * agent that never acts — it only talks to the client until the client ends the episode, or it
 * makes no valid call — succeeds nowhere and costs the client the whole best surplus; one that gives
 * up at once succeeds only where nothing is admissible, and costs the whole best surplus
 * everywhere else. The best surplus is computed here from each task's profile (sim.ts), not read
 * from the records.
 */
import { describe, expect, it } from "vitest";
import { analyzeClients, clientEpisodes } from "../../../../analysis/shop/client/index.ts";
import { shopEpisodesFromRecords } from "../../../../analysis/shop/index.ts";
import { DEFAULT_HOTEL_POOL } from "../../../../datasets/hotels/index.ts";
import type { Agent } from "../../../../environments/kernel/types.ts";
import { MESSAGE_CLIENT, toolCalls } from "../../../../environments/shop/actions.ts";
import { buildShopTasks, type ShopTask } from "../../../../environments/shop/index.ts";
import { bestSurplus, playClients } from "./sim.ts";

const TASKS = buildShopTasks({ tasks: 24, seed: 5, clients: true }, DEFAULT_HOTEL_POOL);

function always(id: string, action: unknown): Agent<unknown, unknown> {
  return { id, act: () => ({ action }) };
}

const CHATTER = always(
  "chatter",
  toolCalls([{ name: MESSAGE_CLIENT, args: { text: "Hello, how are you today?" } }]),
);
const BROKEN = always("broken", toolCalls([{ name: "view", args: { id: "no-such-listing" } }]));
const QUITTER = always("quitter", toolCalls([{ name: "give_up", args: { reason: "I would rather not." } }]));

const best = (t: ShopTask) => bestSurplus(t.client!.utility, t.request.constraints, t.listings);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function analysed(agent: Agent<unknown, unknown>) {
  const records = await playClients({
    tasks: TASKS,
    shopper: agent,
    client: "terse",
    replicates: 2,
    seed: "nothing",
  });
  return { records, a: analyzeClients(clientEpisodes(shopEpisodesFromRecords(records)), { draws: 0 }) };
}

describe("an agent that does nothing scores nothing", () => {
  it("the design has feasible and infeasible tasks, with positive best surpluses", () => {
    expect(TASKS.filter((t) => best(t) === null).length).toBeGreaterThan(2);
    expect(TASKS.filter((t) => best(t) !== null).length).toBeGreaterThan(10);
  });

  for (const [agent, end] of [
    [CHATTER, "client-ended"],
    [BROKEN, "invalid"],
  ] as const)
    it(`${agent.id} (never acts: ends ${end}): zero success, and the whole best surplus as regret`, async () => {
      const { records, a } = await analysed(agent);
      expect(records.every((r) => r.endReason === end)).toBe(true);
      const cell = a.cells[0]!;
      expect(cell.episodes).toBe(TASKS.length * 2);
      expect(cell.success.estimate).toBe(0);
      expect(cell.regret.estimate).toBeCloseTo(mean(TASKS.map((t) => best(t) ?? 0)), 6);
      expect(cell.regret.estimate).toBeCloseTo(cell.bestSurplus!, 9);
      expect(cell.captured.estimate).toBe(0);
      expect(cell.passK.map((p) => p.estimate)).toEqual([0, 0]);
      if (end === "client-ended") {
        // Terse answers 6 messages, asks to just book at the 7th, and the 8th ends the episode.
        expect(cell.burden.messages.estimate).toBe(8);
        expect(cell.burden.patienceOut.estimate).toBe(1);
        expect(cell.burden.clientEnded).toBe(TASKS.length * 2);
      }
    });

  it("an agent that gives up at once succeeds only on infeasible tasks; elsewhere it costs the whole best surplus", async () => {
    const { records, a } = await analysed(QUITTER);
    const cell = a.cells[0]!;
    const infeasible = TASKS.filter((t) => best(t) === null).length / TASKS.length;
    expect(cell.success.estimate).toBeCloseTo(infeasible, 12);
    for (const r of records) {
      const t = TASKS.find((x) => x.taskId === r.taskId)!;
      expect(r.success).toBe(best(t) === null);
      expect(r.regret).toBeCloseTo(best(t) ?? 0, 6);
    }
    expect(cell.regret.estimate).toBeCloseTo(mean(TASKS.map((t) => best(t) ?? 0)), 6);
    expect(cell.captured.estimate).toBe(0);
    expect(cell.burden.messages.estimate).toBe(0);
  });
});
