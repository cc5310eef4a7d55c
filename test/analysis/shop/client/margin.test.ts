/**
 * sim:asks-first beats sim:careful on regret against sim:terse by the margin the profiles imply.
 * Both shop the same way once they know what they know — search, open, then book by a logit over
 * what they opened with β = CAREFUL_BETA — so, given what an episode opened, its expected regret is
 * Σ_l P(l)·regret(l) (sim.ts, from the client's profile). The paired difference the analysis
 * reports must hold the mean of those expected differences in its interval, lie within four of
 * its own logit-draw SDs of it, and be below zero.
 */
import { describe, expect, it } from "vitest";
import { analyzeClients, clientEpisodes } from "../../../../analysis/shop/client/index.ts";
import { shopEpisodesFromRecords } from "../../../../analysis/shop/index.ts";
import { DEFAULT_HOTEL_POOL } from "../../../../datasets/hotels/index.ts";
import { buildShopTasks } from "../../../../environments/shop/index.ts";
import { expectedRegret, playClients } from "./sim.ts";

const TASKS = buildShopTasks({ tasks: 40, seed: 31, clients: true }, DEFAULT_HOTEL_POOL);
const REPLICATES = 3;

describe("sim:asks-first against sim:careful for sim:terse", () => {
  it("the realized paired regret difference matches the margin the profiles and the logit imply", async () => {
    const play = (shopper: string) =>
      playClients({ tasks: TASKS, shopper, client: "terse", replicates: REPLICATES, seed: "margin" });
    const asks = await play("asks-first");
    const careful = await play("careful");
    const records = [...asks, ...careful];
    for (const r of records) if (r.booked) expect(r.booked.viewed, `${r.agent} ${r.taskId}`).toBe(true);

    const key = (r: (typeof records)[number]) => `${r.taskId}/${r.replicate}`;
    const control = new Map(careful.map((r) => [key(r), r]));
    let expected = 0;
    let variance = 0;
    let realized = 0;
    for (const t of asks) {
      const c = control.get(key(t))!;
      const [et, ec] = [expectedRegret(t), expectedRegret(c)];
      // The record's regret is one of the outcomes the expectation averages.
      expected += et.mean - ec.mean;
      variance += et.variance + ec.variance;
      realized += t.regret! - c.regret!;
    }
    const n = asks.length;
    expected /= n;
    realized /= n;

    const a = analyzeClients(clientEpisodes(shopEpisodesFromRecords(records)), {
      draws: 400,
      seed: "margin",
    });
    expect(a.comparisons).toHaveLength(1);
    const cmp = a.comparisons[0]!;
    expect([cmp.treatment, cmp.control, cmp.client]).toEqual(["sim:asks-first", "sim:careful", "sim:terse"]);
    expect(cmp.units).toBe(n);
    expect(cmp.regret.difference).toBeCloseTo(realized, 9);
    // Asking pays: the whole interval below zero, by a wide margin (the careful shopper, told nothing,
    // books what breaks a hidden requirement most of the time).
    expect(expected).toBeLessThan(-50);
    expect(cmp.regret.interval!.high).toBeLessThan(0);
    expect(cmp.regret.interval!.low).toBeLessThanOrEqual(expected);
    expect(cmp.regret.interval!.high).toBeGreaterThanOrEqual(expected);
    // Given what each episode opened, only the logit draws vary: 4 of their SDs.
    expect(Math.abs(cmp.regret.difference! - expected)).toBeLessThanOrEqual((4 * Math.sqrt(variance)) / n);
  }, 60_000);
});
