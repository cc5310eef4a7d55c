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
  isNonResponse: (outcome) => outcome.chosenSlot === null,
  noteNonResponse: noteInNonResponse,
  record: (args) => cueTrialRecord(args) as unknown as Record<string, unknown>,
};
