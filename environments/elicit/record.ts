import type { Usage } from "../kernel/types.ts";
import type { ElicitOutcome } from "./machine.ts";
import type { Collection, ElicitTask, QueryType, QueryUse } from "./types.ts";

/** Version of the trial export contract; bump when a field changes meaning or goes away. */
export const ELICIT_RECORD_SCHEMA = "bazaar.elicit-trial/1";

export interface OfferRecord {
  item: string;
  price: number;
}

/**
 * One completion of one query, as stored and exported (JSONL, one per line): the contract at the
 * end of specs/elicit.md, plus the design coordinates (`itemSet`, `collection`, `uses`) that let an
 * analysis rebuild the comparisons and paths from the records alone.
 */
export interface ElicitTrialRecord {
  schema: typeof ELICIT_RECORD_SCHEMA;
  run: string;
  trialKey: string;
  seq: number;
  env: "elicit";
  agent: string;
  group: string;
  domain: string;
  utterance: string;
  itemSet: string;
  collection: Collection;
  queryId: string;
  queryType: QueryType;
  /** Item queries: the item's id; null for offer-pair queries. */
  item: string | null;
  source: OfferRecord | null;
  target: OfferRecord | null;
  /** What an offer-pair query is for (direct estimate or a path step); empty for item queries. */
  uses: QueryUse[];
  /** Index of this completion of the query (0-based). */
  completion: number;
  /** The parsed number of dollars; null when the answer holds no finite number. */
  value: number | null;
  nonFinite: { reason: string } | null;
  raw: string;
  usage: Usage;
}

export function elicitTrialRecord(args: {
  run: string;
  trialKey: string;
  seq: number;
  agent: string;
  replicate: number;
  task: ElicitTask;
  outcome: ElicitOutcome;
  usage: Usage;
}): ElicitTrialRecord {
  const { task, outcome } = args;
  const pair = task.queryType === "offer-pair";
  return {
    schema: ELICIT_RECORD_SCHEMA,
    run: args.run,
    trialKey: args.trialKey,
    seq: args.seq,
    env: "elicit",
    agent: args.agent,
    group: task.group,
    domain: task.domain,
    utterance: task.utterance.id,
    itemSet: task.itemSet,
    collection: task.collection,
    queryId: task.queryId,
    queryType: task.queryType,
    item: pair ? null : task.item.id,
    source: pair ? { item: task.source.item.id, price: task.source.price } : null,
    target: pair ? { item: task.target.item.id, price: task.target.price } : null,
    uses: pair ? task.uses : [],
    completion: args.replicate,
    value: outcome.value,
    nonFinite: outcome.nonFinite ? { reason: outcome.nonFinite.reason } : null,
    raw: outcome.raw,
    usage: args.usage,
  };
}
