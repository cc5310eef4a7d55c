/**
 * The long coverage study of the paired regret difference (`npm run validate`): sim:asks-first −
 * sim:careful for sim:terse, tasks drawn from a pool of 200 whose truth is exact (coverage.ts),
 * 2,000 seeded replications per setting. Prints what it measured.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_HOTEL_POOL } from "../../../../datasets/hotels/index.ts";
import { buildShopTasks } from "../../../../environments/shop/index.ts";
import { type PoolTask, poolTruth, regretCoverage, regretPool } from "./coverage.ts";

let pool: PoolTask[];
beforeAll(async () => {
  pool = await regretPool(
    buildShopTasks({ tasks: 200, seed: 77, clients: true }, DEFAULT_HOTEL_POOL),
    "pool",
  );
});

describe("paired regret difference: interval coverage, long study", () => {
  for (const [tasks, level, band] of [
    [40, 0.95, [0.93, 0.97]],
    [60, 0.95, [0.93, 0.97]],
    [40, 0.9, [0.87, 0.93]],
    // Over few tasks a bootstrap interval runs a little under its level (the tables say so below 30).
    [15, 0.95, [0.91, 0.97]],
  ] as const)
    it(`${tasks} tasks × 2 replicates at ${level}: coverage within ${band[0]}–${band[1]}`, () => {
      const c = regretCoverage({
        pool,
        replications: 2000,
        tasks,
        replicates: 2,
        draws: 400,
        level,
        seed: `val/${tasks}/${level}`,
      });
      console.log(
        `client regret, ${tasks} tasks, level ${level}: coverage ${c.coverage} (truth ${poolTruth(pool).toFixed(2)}, mean width ${c.meanWidth.toFixed(1)})`,
      );
      expect(c.coverage).toBeGreaterThanOrEqual(band[0]);
      expect(c.coverage).toBeLessThanOrEqual(band[1]);
    });
});
