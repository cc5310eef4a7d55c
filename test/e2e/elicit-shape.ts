import { z } from "zod";
import { QueryUseSchema } from "../../environments/elicit/types.ts";
import { UsageSchema } from "../../environments/kernel/types.ts";

const Offer = z.object({ item: z.string(), price: z.number().positive() });

/** The elicit trial export contract (specs/elicit.md), checked field by field in the e2e tests. */
export const ElicitTrialRecordShape = z
  .object({
    schema: z.literal("bazaar.elicit-trial/1"),
    run: z.string().startsWith("elicit-"),
    trialKey: z.string().min(8),
    env: z.literal("elicit"),
    agent: z.string(),
    group: z.string(),
    domain: z.enum(["flights", "apartments", "hotels"]),
    utterance: z.string(),
    queryId: z.string(),
    queryType: z.enum(["item", "offer-pair"]),
    item: z.string().nullable(),
    source: Offer.nullable(),
    target: Offer.nullable(),
    uses: z.array(QueryUseSchema),
    completion: z.number().int().nonnegative(),
    value: z.number().nullable(),
    nonFinite: z.object({ reason: z.string() }).nullable(),
    raw: z.string(),
    usage: UsageSchema,
  })
  .refine(
    (r) =>
      r.queryType === "item" ? r.item !== null && r.source === null : r.item === null && r.source !== null,
    {
      message: "item queries carry an item, offer-pair queries a source and target",
    },
  );
