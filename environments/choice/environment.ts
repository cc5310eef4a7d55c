import type { EnvironmentDef } from "../kernel/environment.ts";
import { noteInNonResponse } from "../kernel/environment.ts";
import { ChoiceActionSchema } from "./actions.ts";
import { type ChoiceOutcome, choiceMachine, SHOPPER } from "./machine.ts";
import { choiceTrialRecord } from "./record.ts";
import type { PromptTemplate } from "./template.ts";
import type { ChoiceTask } from "./types.ts";

export interface ChoiceSettings {
  maxReasks: number;
  /** Asks and re-asks in this wording instead of bazaar's (`--prompt-template`). */
  promptTemplate?: PromptTemplate | null;
}

export const choiceEnvironment: EnvironmentDef<ChoiceTask, ChoiceOutcome, ChoiceSettings> = {
  name: "choice",
  machine: choiceMachine,
  actionSchema: ChoiceActionSchema,
  roles: [SHOPPER],
  input: (task, settings) => ({
    task,
    maxReasks: settings.maxReasks,
    template: settings.promptTemplate ?? null,
  }),
  surface: {
    outcomeText: (o) =>
      o.chosenSlot === null
        ? `The task is over: no usable answer (${o.nonResponse?.reason ?? "none"}).`
        : `The task is over: you chose option ${String.fromCharCode(65 + o.chosenSlot)}.`,
    // A re-ask follows an answer that could not be used.
    refused: (view) => (view as { attempt: number }).attempt > 0,
  },
  isNonResponse: (outcome) => outcome.chosenSlot === null,
  noteNonResponse: noteInNonResponse,
  record: (args) => choiceTrialRecord(args) as unknown as Record<string, unknown>,
};
