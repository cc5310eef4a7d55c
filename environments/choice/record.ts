import type { Usage } from "../kernel/types.ts";
import type { ChoiceOutcome } from "./machine.ts";
import type { ChoiceOption, ChoiceTask, PromptVariant, TaskKind } from "./types.ts";

/** Version of the trial export contract; bump when a field changes meaning or goes away. */
export const TRIAL_SCHEMA = "bazaar.trial/1";

/**
 * One catalog-choice trial as stored and exported (JSONL, one per line): the contract at the end of
 * specs/choice.md, plus the design coordinates that let an analysis regroup trials without the task.
 */
export interface ChoiceTrialRecord {
  schema: typeof TRIAL_SCHEMA;
  run: string;
  trialKey: string;
  seq: number;
  env: "choice";
  agent: string;
  taskId: string;
  /** The unique option set: the cluster of the pair-clustered bootstrap. */
  cluster: string;
  kind: TaskKind;
  appearance: number;
  /** For each display slot, the option's index in the set's canonical order. */
  order: number[];
  variant: PromptVariant;
  replicate: number;
  /** Options in displayed order. */
  options: ChoiceOption[];
  /** 0-based display slot of the booked option; null for a non-response. */
  chosenSlot: number | null;
  chosenHotelId: number | null;
  nonResponse: { reason: string; raw: string } | null;
  /** The agent's final answer as given. */
  raw: string;
  /** Every answer, first to last (several after re-asks). */
  replies: string[];
  usage: Usage;
}

export function choiceTrialRecord(args: {
  run: string;
  trialKey: string;
  seq: number;
  agent: string;
  replicate: number;
  task: ChoiceTask;
  outcome: ChoiceOutcome;
  usage: Usage;
}): ChoiceTrialRecord {
  const { task, outcome } = args;
  return {
    schema: TRIAL_SCHEMA,
    run: args.run,
    trialKey: args.trialKey,
    seq: args.seq,
    env: "choice",
    agent: args.agent,
    taskId: task.taskId,
    cluster: task.setId,
    kind: task.kind,
    appearance: task.appearance,
    order: task.order,
    variant: task.variant,
    replicate: args.replicate,
    options: task.options,
    chosenSlot: outcome.chosenSlot,
    chosenHotelId: outcome.chosenSlot === null ? null : (task.options[outcome.chosenSlot]?.hotelId ?? null),
    nonResponse: outcome.nonResponse,
    raw: outcome.raw,
    replies: outcome.replies,
    usage: args.usage,
  };
}
