import type { EnvironmentDef } from "../kernel/environment.ts";
import { BargainActionSchema } from "./actions.ts";
import { bargainMachine } from "./machine.ts";
import { bargainTrialRecord } from "./record.ts";
import { BARGAIN_ROLES, type BargainOutcome, type BargainTask } from "./types.ts";

/** Everything a session needs is in its task (scenario and turn limit): no run-wide settings. */
export type BargainSettings = Record<string, never>;

export const bargainEnvironment: EnvironmentDef<BargainTask, BargainOutcome, BargainSettings> = {
  name: "bargain",
  machine: bargainMachine,
  actionSchema: BargainActionSchema,
  roles: BARGAIN_ROLES,
  input: (task) => ({ task }),
  surface: {
    outcomeText: (o, role) =>
      `The negotiation is over: ${
        o.outcome === "deal"
          ? `a deal at ${o.dealPrice} US dollars`
          : o.outcome === "invalid"
            ? `no deal, the session is invalid (${o.invalidSide === role ? "your" : "the other side's"} move: ${o.invalidReason})`
            : o.endedBy === "turn-limit"
              ? "no deal, the turn limit was reached"
              : `no deal, ${o.endedBySide === role ? "you" : "the other side"} quit`
      }.`,
  },
  isNonResponse: (outcome) => outcome.outcome === "invalid",
  noteNonResponse: (outcome, note) =>
    outcome.invalidReason === null
      ? outcome
      : { ...outcome, invalidReason: `${note}: ${outcome.invalidReason}` },
  record: (args) => bargainTrialRecord(args) as unknown as Record<string, unknown>,
};
