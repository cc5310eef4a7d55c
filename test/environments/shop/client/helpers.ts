import { simClient } from "../../../../agents/sim/client/index.ts";
import { DEFAULT_HOTEL_POOL } from "../../../../datasets/hotels/index.ts";
import { type Agent, runEpisode } from "../../../../environments/kernel/index.ts";
import { createRng } from "../../../../environments/kernel/rng.ts";
import {
  buildShopTasks,
  type ShopOutcome,
  type ShopTask,
  shopMachine,
} from "../../../../environments/shop/index.ts";
import { type Step, scripted } from "../helpers.ts";

let cached: ShopTask[] | null = null;

/** A default-design task set with clients (built once per test file). */
export function clientTasks(): ShopTask[] {
  cached ??= buildShopTasks({ tasks: 40, seed: 11, clients: true }, DEFAULT_HOTEL_POOL);
  return cached;
}

/** A task with a client of the family whose requirements satisfy `want`. */
export function clientTask(
  family: ShopTask["family"],
  want: (t: ShopTask) => boolean = () => true,
): ShopTask {
  const t = clientTasks().find((x) => x.family === family && want(x));
  if (!t) throw new Error(`no ${family} task`);
  return t;
}

/** One episode: a scripted shopper against a client (a sim client by name, or any agent). */
export async function playClient(
  task: ShopTask,
  steps: Step[],
  client: string | Agent<unknown, unknown> = "terse",
) {
  const shopper = scripted(steps);
  const player = typeof client === "string" ? simClient(client)! : client;
  const result = await runEpisode<ShopOutcome>(
    shopMachine,
    { task },
    { shopper, client: player as Agent<unknown, unknown> },
    { rng: createRng(1), trialKey: "k", replicate: 0 },
  );
  return { ...result, seen: shopper.seen };
}
