/**
 * The long coverage study of the negotiation intervals (`npm run validate`): 1,000 seeded
 * replications of the paired bootstrap per setting, 20,000 of the task-clustered intervals (a mean
 * discount; a deal or success rate), few and many tasks, two levels. Prints what it measured.
 */
import { describe, expect, it } from "vitest";
import { clusteredMeanCoverage, clusteredShareCoverage, pairedCoverage } from "./negotiation-coverage.ts";

describe("negotiation interval coverage, long study", () => {
  for (const tasks of [15, 60])
    for (const level of [0.9, 0.95])
      it(`${tasks} tasks × 2 replicates at ${level}: paired bootstrap coverage near the level (within 3 points with 60 tasks, 7 with 15)`, () => {
        const c = pairedCoverage({
          replications: 1000,
          tasks,
          replicates: 2,
          draws: 400,
          level,
          seed: `val/${tasks}/${level}`,
        });
        console.log(`tasks ${tasks}, level ${level}: paid ${c.paid}, P′_b ${c.buyerNormalized}`);
        // Percentile bootstrap intervals over few clusters run under their level (the tables say
        // so below 30 tasks); with many they hold it.
        const slack = tasks < 30 ? 0.07 : 0.03;
        expect(c.paid).toBeGreaterThan(level - slack);
        expect(c.buyerNormalized).toBeGreaterThan(level - slack);
        expect(Math.max(c.paid, c.buyerNormalized)).toBeLessThan(level + 0.03);
      });

  for (const tasks of [15, 60])
    for (const level of [0.9, 0.95])
      it(`${tasks} tasks at ${level}: the task-clustered t intervals (G − 1 df) cover within 2.5 points of the level, and more often than normal ones`, () => {
        const args = { replications: 20_000, tasks, level };
        const mean = clusteredMeanCoverage({ ...args, seed: `val-mean/${tasks}/${level}` });
        const share = clusteredShareCoverage({ ...args, seed: `val-share/${tasks}/${level}` });
        console.log(
          `tasks ${tasks}, level ${level}: clustered mean t ${mean.t} (normal ${mean.normal}), share t ${share.t} (normal ${share.normal})`,
        );
        // Binomial SD at 20,000 replications: 0.15 points at 95%, 0.21 at 90%.
        for (const c of [mean, share]) {
          expect(c.t).toBeGreaterThan(level - 0.025);
          expect(c.t).toBeLessThan(level + 0.015);
          // The same replications, the same SE: t widens every interval, so it covers at least as often.
          expect(c.t).toBeGreaterThanOrEqual(c.normal);
        }
        if (tasks < 30) {
          // Where it matters: the normal interval falls short by three points or more at 15 tasks.
          expect(Math.min(mean.normal, share.normal)).toBeLessThan(level - 0.03);
          expect(Math.min(mean.t - mean.normal, share.t - share.normal)).toBeGreaterThan(0.01);
        }
      });
});
