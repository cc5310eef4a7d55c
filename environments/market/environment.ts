import type { EnvironmentDef } from "../kernel/environment.ts";
import { noteInNonResponse } from "../kernel/environment.ts";
import { formatUsd } from "../kernel/money.ts";
import { SellerActionSchema } from "./actions.ts";
import { sellerMachine } from "./machine.ts";
import { sellerTurnRecord } from "./record.ts";
import { SELLER_ROLES, type SellerOutcome, type SellerTask } from "./types.ts";

/** Everything a turn needs is in its task: no run-wide settings. */
export type MarketSettings = Record<string, never>;

/** A turn that hit the invalid-message limit, or whose agent failed, is a non-response. */
export function isSellerNonResponse(outcome: SellerOutcome): boolean {
  return outcome.endReason === "invalid" || outcome.endReason === "agent-error";
}

/** A seller's turn after a round of buyer episodes (the market's seller side; `driver.ts` runs the rounds). */
export const marketEnvironment: EnvironmentDef<SellerTask, SellerOutcome, MarketSettings> = {
  name: "market",
  machine: sellerMachine,
  actionSchema: SellerActionSchema,
  roles: SELLER_ROLES,
  input: (task) => ({ task }),
  surface: {
    outcomeText: (o) =>
      `Your turn is over: ${
        o.endReason === "changed"
          ? `your listing now costs ${formatUsd(o.price)} a night${o.descriptionChanged ? ", with your new description" : ""}`
          : o.endReason === "kept"
            ? "your listing stays as it is"
            : o.endReason === "invalid"
              ? "no valid call, your listing stays as it is"
              : "the agent failed, your listing stays as it is"
      }.`,
    refused: (view) => ((view as { refused: unknown[] }).refused?.length ?? 0) > 0,
  },
  isNonResponse: isSellerNonResponse,
  noteNonResponse: noteInNonResponse,
  record: (args) => sellerTurnRecord(args) as unknown as Record<string, unknown>,
};
