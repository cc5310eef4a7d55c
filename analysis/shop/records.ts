/**
 * Shop trial records as the estimators read them: the fields of the export contract
 * (`ShopTrialRecord`) they use, checked once. A record that lacks one is named, never skipped.
 */
import { z } from "zod";
import { UserError } from "../../environments/kernel/errors.ts";
import type { ShopTrialRecord } from "../../environments/shop/record.ts";

const Treatments = z.object({
  rank: z.number(),
  sponsored: z.boolean(),
  endorsed: z.boolean(),
  roomsLeft: z.number().nullable(),
  wasPrice: z.number().nullable(),
});

const ListingFields = {
  id: z.string(),
  name: z.string(),
  price: z.number(),
  reviewScore: z.number(),
  stars: z.number(),
  roomType: z.string(),
  freeCancellation: z.boolean(),
  breakfast: z.boolean(),
  treatments: Treatments,
};

const Shown = z.looseObject({
  ...ListingFields,
  page: z.number(),
  rank: z.number(),
  step: z.number(),
  viewed: z.boolean(),
  admissible: z.boolean(),
});

const ShopRecordSchema = z.looseObject({
  env: z.literal("shop"),
  agent: z.string(),
  taskId: z.string(),
  family: z.enum(["open", "dominance", "needle", "infeasible"]),
  replicate: z.number(),
  request: z.looseObject({
    constraints: z.looseObject({
      maxPrice: z.number().nullable(),
      minStars: z.number().nullable(),
      areas: z.array(z.string()).nullable(),
      amenities: z.array(z.string()),
    }),
  }),
  rules: z.object({ pageSize: z.number(), maxSteps: z.number(), maxInvalid: z.number() }),
  booked: z
    .looseObject({
      ...ListingFields,
      page: z.number(),
      rank: z.number(),
      viewed: z.boolean(),
      admissible: z.boolean(),
    })
    .nullable(),
  endReason: z.enum(["booked", "gave-up", "out-of-steps", "invalid", "agent-error"]),
  success: z.boolean(),
  constraints: z.record(z.string(), z.boolean()).nullable(),
  admissibleCount: z.number(),
  cheapestAdmissible: z.number().nullable(),
  admissible: z.array(z.looseObject(ListingFields)),
  dominance: z.object({ dominant: z.string(), dominated: z.string() }).nullable(),
  shown: z.array(Shown),
  trajectory: z.array(
    z.looseObject({
      step: z.number().nullable(),
      turn: z.number(),
      tool: z.string(),
      args: z.unknown(),
      ok: z.boolean(),
    }),
  ),
  steps: z.number(),
  turns: z.number(),
  invalidCalls: z.number(),
});

/** A stored shop episode (an export record), as every shop estimator takes it. */
export type ShopEpisode = Pick<
  ShopTrialRecord,
  | "agent"
  | "taskId"
  | "family"
  | "replicate"
  | "request"
  | "rules"
  | "booked"
  | "endReason"
  | "success"
  | "constraints"
  | "admissibleCount"
  | "cheapestAdmissible"
  | "admissible"
  | "dominance"
  | "shown"
  | "trajectory"
  | "steps"
  | "turns"
  | "invalidCalls"
>;

/** Checks records of a shop run; a record missing a field the estimators need is a UserError naming it. */
export function shopEpisodesFromRecords(records: Iterable<object>): ShopEpisode[] {
  const out: ShopEpisode[] = [];
  let i = 0;
  for (const r of records) {
    const parsed = ShopRecordSchema.safeParse(r);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UserError(
        `shop record ${i} (seq ${String((r as { seq?: unknown }).seq ?? "?")}) is not a shop trial record: ${issue?.path.join(".") || "record"}: ${issue?.message ?? "invalid"}`,
        "analyze a run made by bazaar run shop (or records in its export format)",
      );
    }
    out.push(r as unknown as ShopEpisode);
    i++;
  }
  return out;
}
