import { resolveBargainPlayer } from "../../../agents/bargain/registry.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { type Agent, type Observation, runEpisode } from "../../../environments/kernel/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import {
  buildShopTasks,
  type ShopOutcome,
  type ShopTask,
  type ShopView,
  shopMachine,
} from "../../../environments/shop/index.ts";

let cached: ShopTask[] | null = null;

/** A small default-design task set (built once per test file). */
export function shopTasks(): ShopTask[] {
  cached ??= buildShopTasks({ tasks: 40, seed: 11 }, DEFAULT_HOTEL_POOL);
  return cached;
}

export function taskOf(family: ShopTask["family"]): ShopTask {
  const t = shopTasks().find((x) => x.family === family);
  if (!t) throw new Error(`no ${family} task`);
  return t;
}

export type Step = Record<string, unknown> | Error | ((view: ShopView) => unknown);

/** An agent that plays a script (an action, or a function of the view) and keeps what it saw. */
export function scripted(steps: Step[]): Agent<unknown, unknown> & { seen: Observation<ShopView>[] } {
  const seen: Observation<ShopView>[] = [];
  let i = 0;
  return {
    id: "scripted",
    seen,
    act(obs) {
      const o = obs as Observation<ShopView>;
      seen.push(o);
      const s = steps[i++];
      if (s === undefined) throw new Error("script ran out");
      if (s instanceof Error) throw s;
      return { action: typeof s === "function" ? (s as (v: ShopView) => unknown)(o.view) : s };
    },
  };
}

export async function play(task: ShopTask, steps: Step[]) {
  const agent = scripted(steps);
  const result = await runEpisode<ShopOutcome>(
    shopMachine,
    { task },
    { shopper: agent },
    { rng: createRng(1), trialKey: "k", replicate: 0 },
  );
  return { ...result, seen: agent.seen };
}

/** The ids on the last search result page with cards that the view holds. */
export function lastCards(view: ShopView): string[] {
  for (let t = view.turns.length - 1; t >= 0; t--) {
    const calls = view.turns[t]!.calls;
    for (let c = calls.length - 1; c >= 0; c--) {
      const r = calls[c]!.result;
      if (r.kind === "results" && r.cards.length > 0) return r.cards.map((x) => x.id);
    }
  }
  return [];
}

/**
 * One shop episode with offers, in process: `shopper` against the bargaining sellers named in
 * `sellers` (`seller-1` first), seeded by the task and `seed`.
 */
export async function playWithSellers(
  task: ShopTask,
  shopper: Agent<unknown, unknown>,
  sellers: readonly string[],
  seed: string,
): Promise<ShopOutcome> {
  const players = Object.fromEntries(
    sellers.map((s, i) => [`seller-${i + 1}`, resolveBargainPlayer(s, "seller").agent]),
  );
  const r = await runEpisode<ShopOutcome>(
    shopMachine,
    { task },
    { shopper, ...players },
    { rng: createRng(`${task.taskId}/${seed}`), trialKey: task.taskId, replicate: 0 },
  );
  return r.output;
}
