import type { Usage } from "../kernel/types.ts";
import type { CueOutcome } from "./machine.ts";
import type { CueBlock, CueOption, CueTask, ProductSide } from "./types.ts";

/** Version of the cue trial export contract; bump when a field changes meaning or goes away. */
export const CUE_TRIAL_SCHEMA = "bazaar.cue-trial/1";

/**
 * One cue trial as stored and exported (JSONL, one per line): the contract at the end of
 * specs/cue.md, plus the design coordinates an analysis regroups by.
 */
export interface CueTrialRecord {
  schema: typeof CUE_TRIAL_SCHEMA;
  run: string;
  trialKey: string;
  seq: number;
  env: "cue";
  agent: string;
  taskId: string;
  block: CueBlock;
  /** The cue or control name (additivity cells: `additivity-<bits>`). */
  condition: string;
  family: string;
  intensity: string | null;
  /** A cue on one product only (what the primacy diagnostic's low-signal set is drawn from). */
  oneSided: boolean;
  version: number;
  category: string;
  /** The product pair: the cluster of the pair-clustered bootstrap. */
  pairId: string;
  /** Relative premium on the cued product (0.12 = 12%). */
  premium: number;
  referencePrice: number;
  cueTarget: ProductSide;
  cuedFirst: boolean;
  /** Task instruction: 0 the default, 1–3 the paraphrases. */
  instruction: number;
  factors: Record<string, boolean> | null;
  replicate: number;
  /** The two cards in displayed order, with price and description (and which is cued). */
  options: CueOption[];
  /** 0-based display slot of the chosen product; null for a non-response. */
  chosenSlot: number | null;
  /** Whether the cued product was chosen; null for a non-response. */
  choseCued: boolean | null;
  chosenProduct: ProductSide | null;
  nonResponse: { reason: string; raw: string } | null;
  raw: string;
  replies: string[];
  usage: Usage;
}

export function cueTrialRecord(args: {
  run: string;
  trialKey: string;
  seq: number;
  agent: string;
  replicate: number;
  task: CueTask;
  outcome: CueOutcome;
  usage: Usage;
}): CueTrialRecord {
  const { task, outcome } = args;
  const chosen = outcome.chosenSlot === null ? null : (task.options[outcome.chosenSlot] ?? null);
  return {
    schema: CUE_TRIAL_SCHEMA,
    run: args.run,
    trialKey: args.trialKey,
    seq: args.seq,
    env: "cue",
    agent: args.agent,
    taskId: task.taskId,
    block: task.block,
    condition: task.condition,
    family: task.family,
    intensity: task.intensity,
    oneSided: task.oneSided,
    version: task.version,
    category: task.category,
    pairId: task.pairId,
    premium: task.premium,
    referencePrice: task.referencePrice,
    cueTarget: task.cueTarget,
    cuedFirst: task.cuedFirst,
    instruction: task.instruction,
    factors: task.factors,
    replicate: args.replicate,
    options: task.options,
    chosenSlot: outcome.chosenSlot,
    choseCued: chosen === null ? null : chosen.cued,
    chosenProduct: chosen === null ? null : chosen.product,
    nonResponse: outcome.nonResponse,
    raw: outcome.raw,
    replies: outcome.replies,
    usage: args.usage,
  };
}
