import type { Usage } from "../kernel/types.ts";
import type {
  BargainOutcome,
  BargainRole,
  BargainTask,
  EndReason,
  Interest,
  SessionOutcome,
  TranscriptEntry,
} from "./types.ts";

/** Version of the trial export contract; bump when a field changes meaning or goes away. */
export const TRIAL_SCHEMA = "bazaar.trial/1";

/** The separator of a pairing's label: `og-narrator vs sim:conceder`. */
export const PAIR_SEPARATOR = " vs ";

/** A pairing label split into its buyer and seller. */
export function splitPairLabel(label: string): { buyer: string; seller: string } {
  const i = label.indexOf(PAIR_SEPARATOR);
  return i < 0
    ? { buyer: label, seller: label }
    : { buyer: label.slice(0, i), seller: label.slice(i + PAIR_SEPARATOR.length) };
}

/**
 * One bargaining session as exported (JSONL, one per line): the contract at the end of
 * specs/bargain.md, plus the pairing label, the end's details and the scenario's exact prices.
 */
export interface BargainTrialRecord {
  schema: typeof TRIAL_SCHEMA;
  run: string;
  trialKey: string;
  seq: number;
  env: "bargain";
  /** The pairing: `<buyer> vs <seller>`. */
  agent: string;
  buyer: string;
  seller: string;
  taskId: string;
  scenarioId: string;
  replicate: number;
  product: { id: string; title: string; category: string };
  listedPrice: number;
  /** B, unrounded (the buyer's prompt shows it rounded down to cents). */
  budget: number;
  /** C (the seller's prompt shows it rounded up to cents). */
  cost: number;
  interest: Interest;
  maxTurns: number;
  outcome: SessionOutcome;
  endedBy: EndReason;
  endedBySide: BargainRole | null;
  invalidSide: BargainRole | null;
  invalidReason: string | null;
  dealPrice: number | null;
  turns: number;
  transcript: TranscriptEntry[];
  usage: Usage;
}

export function bargainTrialRecord(args: {
  run: string;
  trialKey: string;
  seq: number;
  agent: string;
  replicate: number;
  task: BargainTask;
  outcome: BargainOutcome;
  usage: Usage;
}): BargainTrialRecord {
  const { task, outcome } = args;
  const { buyer, seller } = splitPairLabel(args.agent);
  return {
    schema: TRIAL_SCHEMA,
    run: args.run,
    trialKey: args.trialKey,
    seq: args.seq,
    env: "bargain",
    agent: args.agent,
    buyer,
    seller,
    taskId: task.taskId,
    scenarioId: task.scenarioId,
    replicate: args.replicate,
    product: { id: task.product.id, title: task.product.title, category: task.product.category },
    listedPrice: task.listedPrice,
    budget: task.budget,
    cost: task.cost,
    interest: task.interest,
    maxTurns: task.maxTurns,
    outcome: outcome.outcome,
    endedBy: outcome.endedBy,
    endedBySide: outcome.endedBySide,
    invalidSide: outcome.invalidSide,
    invalidReason: outcome.invalidReason,
    dealPrice: outcome.dealPrice,
    turns: outcome.turns,
    transcript: outcome.transcript,
    usage: args.usage,
  };
}

/**
 * The transcript note of a buyer message whose LLM narrator gave no usable sentence, so the template
 * line was said instead. Built and recognised here, so the analysis counts what the narrator wrote.
 */
export function narratorFallbackNote(attempts: number): string {
  return `narrator: no usable sentence in ${attempts} answers; template line used`;
}

export function isNarratorFallbackNote(note: string | null | undefined): boolean {
  return typeof note === "string" && note.startsWith("narrator: ") && note.endsWith("template line used");
}
