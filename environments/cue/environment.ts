import type { EnvironmentDef } from "../kernel/environment.ts";
import { noteInNonResponse } from "../kernel/environment.ts";
import { CueActionSchema } from "./actions.ts";
import { CUE_SHOPPER, type CueOutcome, cueMachine } from "./machine.ts";
import { cueTrialRecord } from "./record.ts";
import type { CueTask } from "./types.ts";

export interface CueSettings {
  maxReasks: number;
}

export const cueEnvironment: EnvironmentDef<CueTask, CueOutcome, CueSettings> = {
  name: "cue",
  machine: cueMachine,
  actionSchema: CueActionSchema,
  roles: [CUE_SHOPPER],
  input: (task, settings) => ({ task, maxReasks: settings.maxReasks }),
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
  record: (args) => cueTrialRecord(args) as unknown as Record<string, unknown>,
};
