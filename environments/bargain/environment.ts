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
  isNonResponse: (outcome) => outcome.outcome === "invalid",
  noteNonResponse: (outcome, note) =>
    outcome.invalidReason === null
      ? outcome
      : { ...outcome, invalidReason: `${note}: ${outcome.invalidReason}` },
  record: (args) => bargainTrialRecord(args) as unknown as Record<string, unknown>,
};
