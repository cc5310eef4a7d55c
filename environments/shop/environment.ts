import type { EnvironmentDef } from "../kernel/environment.ts";
import { noteInNonResponse } from "../kernel/environment.ts";
import {
  NegotiatingShopActionSchema,
  ShopActionSchema,
  type ShopToolSet,
  shopActionSchema,
} from "./actions.ts";
import { shopMachine } from "./machine.ts";
import { shopTrialRecord } from "./record.ts";
import { SHOP_SHOPPER, type ShopOutcome, type ShopTask } from "./types.ts";

/** Everything an episode needs is in its task (request, catalog, rules): no run-wide settings. */
export type ShopSettings = Record<string, never>;

/** An invalid episode (the invalid-call limit) or one whose agent failed is a non-response. */
export function isShopNonResponse(outcome: ShopOutcome): boolean {
  return outcome.endReason === "invalid" || outcome.endReason === "agent-error";
}

export const shopEnvironment: EnvironmentDef<ShopTask, ShopOutcome, ShopSettings> = {
  name: "shop",
  machine: shopMachine,
  actionSchema: ShopActionSchema,
  roles: [SHOP_SHOPPER],
  input: (task) => ({ task }),
  seedTask: (task) => {
    if (!task.client) return task;
    const { client: _, ...rest } = task;
    return rest;
  },
  surface: {
    outcomeText: (o) =>
      `The task is over: ${
        o.endReason === "booked"
          ? `you booked listing ${o.bookedId}`
          : o.endReason === "gave-up"
            ? "you gave up without booking"
            : o.endReason === "out-of-steps"
              ? "the step budget is spent, nothing was booked"
              : o.endReason === "invalid"
                ? "too many invalid calls, nothing was booked"
                : o.endReason === "client-ended"
                  ? "the client ended the conversation, nothing was booked"
                  : "the agent failed, nothing was booked"
      }.`,
    refused: (view) => (view as { invalidStreak: number }).invalidStreak > 0,
  },
  isNonResponse: isShopNonResponse,
  noteNonResponse: noteInNonResponse,
  record: (args) => shopTrialRecord(args) as unknown as Record<string, unknown>,
};

/**
 * The shop of a design with offers: the same machine, rules and records, with `offer` among the
 * tools an agent is given (`rules.offers` lets the machine run it). Its sellers play roles
 * `seller-1`, `seller-2`, … beside the shopper, one per `--seller-negotiator`.
 */
export const negotiatingShopEnvironment: EnvironmentDef<ShopTask, ShopOutcome, ShopSettings> = {
  ...shopEnvironment,
  actionSchema: NegotiatingShopActionSchema,
};

const variants = new Map<string, EnvironmentDef<ShopTask, ShopOutcome, ShopSettings>>();

/**
 * The shop whose tools are `set`: the same machine, rules and records, with `offer` among the tools
 * where listings take offers and `message_client` where tasks have a client (the client plays role
 * `client` beside the shopper).
 */
export function shopEnvironmentWith(set: ShopToolSet): EnvironmentDef<ShopTask, ShopOutcome, ShopSettings> {
  if (!set.client) return set.offers ? negotiatingShopEnvironment : shopEnvironment;
  const key = `${set.offers}/${set.client}`;
  let env = variants.get(key);
  if (!env) {
    env = { ...shopEnvironment, actionSchema: shopActionSchema(set) };
    variants.set(key, env);
  }
  return env;
}
