import type { EnvironmentDef } from "../kernel/environment.ts";
import { ElicitActionSchema } from "./actions.ts";
import { type ElicitOutcome, elicitMachine, RESPONDENT } from "./machine.ts";
import { elicitTrialRecord } from "./record.ts";
import type { ElicitTask } from "./types.ts";

/** Elicitation has no settings: one question, one answer (completions are the run's replicates). */
export type ElicitSettings = Record<string, never>;

export const elicitEnvironment: EnvironmentDef<ElicitTask, ElicitOutcome, ElicitSettings> = {
  name: "elicit",
  machine: elicitMachine,
  actionSchema: ElicitActionSchema,
  roles: [RESPONDENT],
  input: (task) => ({ task }),
  surface: {
    outcomeText: (o) =>
      o.value === null
        ? `The task is over: no usable answer (${o.nonFinite?.reason ?? "none"}).`
        : `The task is over: your answer was ${o.value} US dollars.`,
  },
  isNonResponse: (outcome) => outcome.value === null,
  noteNonResponse: (outcome, note) =>
    outcome.nonFinite
      ? { ...outcome, nonFinite: { ...outcome.nonFinite, reason: `${note}: ${outcome.nonFinite.reason}` } }
      : outcome,
  record: (args) => elicitTrialRecord(args) as unknown as Record<string, unknown>,
};
