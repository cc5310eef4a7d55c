/**
 * The paired regret difference's coverage, short (coverage.validate.test.ts runs the long study):
 * the pool's laws are what the shoppers do — one path per task, the logit draw the only chance —
 * and the interval holds the pool's truth about as often as its level.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOTEL_POOL } from "../../../../datasets/hotels/index.ts";
import { buildShopTasks } from "../../../../environments/shop/index.ts";
import { poolTruth, regretCoverage, regretPool } from "./coverage.ts";
import { playClients } from "./sim.ts";

const TASKS = buildShopTasks({ tasks: 60, seed: 77, clients: true }, DEFAULT_HOTEL_POOL);

describe("paired regret difference: coverage on a pool with exact truth", () => {
  it("a shopper's path on a task does not depend on the draw: another seed opens the same listings", async () => {
    for (const shopper of ["asks-first", "careful"]) {
      const play = (seed: string) =>
        playClients({ tasks: TASKS.slice(0, 20), shopper, client: "terse", replicates: 1, seed });
      const [a, b] = [await play("one"), await play("two")];
      const opened = (r: (typeof a)[number]) => r.shown.filter((s) => s.viewed).map((s) => s.id);
      for (const [i, r] of a.entries()) expect(opened(r), `${shopper} ${r.taskId}`).toEqual(opened(b[i]!));
    }
  });

  it("the interval holds the pool's truth about 95% of the time (300 replications, 30 tasks × 2)", async () => {
    const pool = await regretPool(TASKS, "pool");
    for (const t of pool)
      for (const l of [t.treatment, t.control]) expect(l.p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    // Asking first leaves far less on the table: the truth is a large negative difference.
    expect(poolTruth(pool)).toBeLessThan(-80);
    const c = regretCoverage({
      pool,
      replications: 300,
      tasks: 30,
      replicates: 2,
      draws: 200,
      level: 0.95,
      seed: "cov",
    });
    // Binomial SD at 300 replications is 1.3 points.
    expect(c.coverage).toBeGreaterThan(0.9);
    expect(c.coverage).toBeLessThanOrEqual(0.99);
  }, 60_000);
});
