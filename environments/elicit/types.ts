import { z } from "zod";
import { ElicitDomainNameSchema, FeatureValueSchema } from "../../datasets/elicit/schema.ts";

export const QUERY_TYPES = ["item", "offer-pair"] as const;
export type QueryType = (typeof QUERY_TYPES)[number];

/** `main`: the audit's comparisons (T, P1 at k = 2, P2); `paths`: the path-length stress check. */
export const COLLECTIONS = ["main", "paths"] as const;
export const CollectionSchema = z.enum(COLLECTIONS);
export type Collection = z.infer<typeof CollectionSchema>;

/** An item as a query shows it: its id (never shown), features, and the rendered description lines. */
export const ShownItemSchema = z.object({
  id: z.string(),
  features: z.record(z.string(), FeatureValueSchema),
  lines: z.array(z.string()).min(1),
});
export type ShownItem = z.infer<typeof ShownItemSchema>;

export const TaskOfferSchema = z.object({ item: ShownItemSchema, price: z.number().positive() });
export type TaskOffer = z.infer<typeof TaskOfferSchema>;

/**
 * What an offer-pair query is for: the `direct` estimate of a comparison's endpoints a → c, or step
 * `step` of `steps` along one of its paths (`path` names it: `b1`, `b2` for the two-step paths of
 * the main design, `k2`, `k8`, `k16` for the stress paths). One query can serve several uses.
 */
export const QueryUseSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("direct"), comparison: z.string() }),
  z.object({
    kind: z.literal("step"),
    comparison: z.string(),
    path: z.string(),
    step: z.number().int().positive(),
    steps: z.number().int().positive(),
  }),
]);
export type QueryUse = z.infer<typeof QueryUseSchema>;

const TaskBase = z.object({
  env: z.literal("elicit"),
  taskId: z.string(),
  /** The design seed: runs with different seeds draw independent answers from simulated agents. */
  seed: z.union([z.number().int(), z.string()]),
  /** The audit group: domain × utterance × item set × query collection. */
  group: z.string(),
  domain: ElicitDomainNameSchema,
  utterance: z.object({ id: z.string(), text: z.string() }),
  itemSet: z.string(),
  collection: CollectionSchema,
  queryId: z.string(),
  /** Wording shared by every query of the domain. */
  noun: z.string(),
  priceUnit: z.string(),
  context: z.string(),
});

export const ItemQueryTaskSchema = TaskBase.extend({
  queryType: z.literal("item"),
  item: ShownItemSchema,
});
export const OfferPairTaskSchema = TaskBase.extend({
  queryType: z.literal("offer-pair"),
  source: TaskOfferSchema,
  target: TaskOfferSchema,
  uses: z.array(QueryUseSchema).min(1),
});
/** One stateless question: an item query (most the person would pay) or an offer-pair query. */
export const ElicitTaskSchema = z.discriminatedUnion("queryType", [ItemQueryTaskSchema, OfferPairTaskSchema]);
export type ItemQueryTask = z.infer<typeof ItemQueryTaskSchema>;
export type OfferPairTask = z.infer<typeof OfferPairTaskSchema>;
export type ElicitTask = z.infer<typeof ElicitTaskSchema>;

/** `flights/student/bos-sea/main`. */
export function groupId(domain: string, utterance: string, itemSet: string, collection: Collection): string {
  return `${domain}/${utterance}/${itemSet}/${collection}`;
}
