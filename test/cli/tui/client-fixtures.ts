/**
 * Shop episodes with a client for the terminal tests, played in process by the real machine: a sim
 * shopper (or a scripted one) for a sim client (or a scripted one), each turn kept as the live
 * views get it, and the finished episode made into its record by the environment's own function.
 */
import { simClient } from "../../../agents/sim/client/index.ts";
import { TALKER_PRESETS } from "../../../agents/sim/shop/index.ts";
import type { LiveTurn, TrialRecord } from "../../../cli/tui/records/types.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { type Agent, runEpisode } from "../../../environments/kernel/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { emptyUsage } from "../../../environments/kernel/types.ts";
import {
  buildShopTasks,
  type ShopOutcome,
  type ShopTask,
  shopMachine,
  shopTrialRecord,
} from "../../../environments/shop/index.ts";

let tasks: ShopTask[] | null = null;

/** Six tasks with clients (built once per test file). */
export function clientTasks(): ShopTask[] {
  tasks ??= buildShopTasks({ tasks: 6, clients: true }, DEFAULT_HOTEL_POOL);
  return tasks;
}

export function taskOf(family: ShopTask["family"]): ShopTask {
  const t = clientTasks().find((x) => x.family === family);
  if (!t) throw new Error(`no ${family} task`);
  return t;
}

/** An agent that plays a fixed list of actions, one a turn (for the shopper or the client). */
export function scripted(id: string, actions: readonly unknown[]): Agent<unknown, unknown> {
  let i = 0;
  return {
    id,
    act() {
      const action = actions[Math.min(i++, actions.length - 1)];
      return { action };
    },
  };
}

export interface PlayedEpisode {
  record: TrialRecord;
  task: ShopTask;
  /** The turns as a live view receives them, in order. */
  turns: LiveTurn[];
  agent: string;
}

/**
 * One episode: `shopper` (a talker preset's name, or an agent) for `client` (a sim client's name,
 * or an agent — an agent client opens as `sim:terse` does, then says what it says).
 */
export async function playEpisode(
  task: ShopTask,
  shopper: string | Agent<unknown, unknown>,
  client: string | Agent<unknown, unknown>,
  seq = 0,
): Promise<PlayedEpisode> {
  const shopperAgent =
    typeof shopper === "string"
      ? (TALKER_PRESETS[shopper]!.make(`sim:${shopper}`) as Agent<unknown, unknown>)
      : shopper;
  const clientAgent = typeof client === "string" ? (simClient(client) as Agent<unknown, unknown>) : client;
  const agent = `${typeof shopper === "string" ? `sim:${shopper}` : shopper.id} for ${typeof client === "string" ? `sim:${client}` : client.id}`;
  const turns: LiveTurn[] = [];
  const result = await runEpisode<ShopOutcome>(
    shopMachine,
    { task },
    { shopper: shopperAgent, client: clientAgent },
    { rng: createRng("k"), trialKey: "k", replicate: 0 },
    {
      onTurn: (e) =>
        turns.push({
          turn: e.turn,
          role: e.role,
          action: e.action,
          summary: "",
          at: 0,
          ...(e.error === undefined ? {} : { error: e.error }),
        }),
    },
  );
  const record = shopTrialRecord({
    run: "client-run",
    trialKey: `k${seq}`,
    seq,
    agent,
    replicate: 0,
    task,
    outcome: result.output,
    usage: emptyUsage(),
  }) as unknown as TrialRecord;
  return { record, task, turns, agent };
}

/** A client that opens as `sim:terse` does and answers every message with `reply(n)` (n from 1). */
export function talkativeClient(id: string, reply: (n: number) => string): Agent<unknown, unknown> {
  const terse = simClient("terse")!;
  let n = 0;
  return {
    id,
    act(observation) {
      const view = observation.view as { message: string | null };
      if (view.message === null) {
        const opened = terse.act(observation as never) as { action: { by: string } };
        return { action: { ...opened.action, by: id } };
      }
      return { action: { type: "say", text: reply(++n) } };
    },
  };
}
