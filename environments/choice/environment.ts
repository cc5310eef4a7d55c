import type { EnvironmentDef } from "../kernel/environment.ts";
import { ChoiceActionSchema } from "./actions.ts";
import { type ChoiceOutcome, choiceMachine, SHOPPER } from "./machine.ts";
import { choiceTrialRecord } from "./record.ts";
import type { ChoiceTask } from "./types.ts";

export interface ChoiceSettings {
  maxReasks: number;
}

export const choiceEnvironment: EnvironmentDef<ChoiceTask, ChoiceOutcome, ChoiceSettings> = {
  name: "choice",
  machine: choiceMachine,
  actionSchema: ChoiceActionSchema,
  roles: [SHOPPER],
  input: (task, settings) => ({ task, maxReasks: settings.maxReasks }),
  isNonResponse: (outcome) => outcome.chosenSlot === null,
  record: (args) => choiceTrialRecord(args) as unknown as Record<string, unknown>,
};
