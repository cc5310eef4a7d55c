/**
 * Shop episodes with known truth, through the real path (design → machine → simulated shopper →
 * export record), for the recovery tests of the shop estimators.
 */
import { ShopShopper, type ShopShopperParams } from "../../../agents/sim/shop/index.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { runEpisode } from "../../../environments/kernel/episode.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { type Agent, emptyUsage } from "../../../environments/kernel/types.ts";
import {
  buildShopTasks,
  type ShopDesignInput,
  type ShopOutcome,
  type ShopTask,
  type ShopTrialRecord,
  shopMachine,
  shopTrialRecord,
} from "../../../environments/shop/index.ts";

export async function playShop(
  tasks: readonly ShopTask[],
  agent: Agent<unknown, unknown>,
  replicates: number,
  seed: string,
): Promise<ShopTrialRecord[]> {
  const out: ShopTrialRecord[] = [];
  for (const task of tasks) {
    for (let rep = 0; rep < replicates; rep++) {
      const trialKey = `${seed}/${task.taskId}/${rep}`;
      const r = await runEpisode<ShopOutcome>(
        shopMachine,
        { task },
        { shopper: agent },
        { rng: createRng(trialKey), trialKey, replicate: rep },
      );
      out.push(
        shopTrialRecord({
          run: seed,
          trialKey,
          seq: out.length,
          agent: agent.id,
          replicate: rep,
          task,
          outcome: r.output,
          usage: emptyUsage(),
        }),
      );
    }
  }
  return out;
}

export async function simulateShop(args: {
  design: ShopDesignInput;
  params: ShopShopperParams;
  replicates?: number;
  seed: string;
}): Promise<{ tasks: ShopTask[]; records: ShopTrialRecord[] }> {
  const tasks = buildShopTasks(args.design, DEFAULT_HOTEL_POOL);
  const agent = new ShopShopper("sim:truth", args.params) as Agent<unknown, unknown>;
  return { tasks, records: await playShop(tasks, agent, args.replicates ?? 1, args.seed) };
}
