/**
 * Shop trial records as the estimators read them: the fields of the export contract
 * (`ShopTrialRecord`) they use, checked once. A record that lacks one is named, never skipped.
 */
import { z } from "zod";
import { UserError } from "../../environments/kernel/errors.ts";
import type { ShopTrialRecord } from "../../environments/shop/record.ts";
import {
  AMENITIES,
  type Amenity,
  DESCRIPTION_ARMS,
  type DescriptionArm,
  END_REASONS,
} from "../../environments/shop/types.ts";

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

/**
 * A listing's description as a record may carry it: the text alone (the shown listing's own
 * `arm`, `wording` and `claims` beside it), or the whole description object of the catalog.
 */
const DescriptionField = z.union([
  z.string(),
  z.looseObject({
    arm: z.enum(DESCRIPTION_ARMS),
    wording: z.string().nullable().optional(),
    text: z.string(),
    claims: z.enum(AMENITIES).nullable().optional(),
  }),
]);

/** Descriptions came later than the shop: every field is optional, and a record without them is neutral. */
const DescriptionFields = {
  description: DescriptionField.nullable().optional(),
  arm: z.enum(DESCRIPTION_ARMS).optional(),
  wording: z.string().nullable().optional(),
  claims: z.enum(AMENITIES).nullable().optional(),
};

const Shown = z.looseObject({
  ...ListingFields,
  ...DescriptionFields,
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
  // Every end reason the shop has (`client-ended` came with clients): a reason this list lacked
  // would refuse a whole run.
  endReason: z.enum(END_REASONS),
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

/**
 * What the estimators read of a shown listing's description: its arm (`neutral` for records stored
 * before descriptions), the library wording (null for a seller's own text or an old record) and,
 * for `false-claim`, the amenity it claims and the listing's terms deny. `shopEpisodesFromRecords`
 * fills all three in; `armOf` and friends read records that did not pass through it.
 */
export interface ShownDescription {
  arm?: DescriptionArm;
  wording?: string | null;
  claims?: Amenity | null;
}

type Shown = ShopTrialRecord["shown"][number] & ShownDescription;

/** A stored shop episode (an export record), as every shop estimator takes it. */
export type ShopEpisode = Omit<
  Pick<
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
    | "paid"
  >,
  "shown"
> & { shown: Shown[] };

/** The description fields of a stored shown listing, whichever form the record keeps them in. */
function describedListing(s: Record<string, unknown>): Required<ShownDescription> {
  const d = s.description;
  const obj = d !== null && typeof d === "object" ? (d as Record<string, unknown>) : null;
  const arm = (s.arm ?? obj?.arm ?? "neutral") as DescriptionArm;
  const wording = (s.wording ?? obj?.wording ?? null) as string | null;
  const claims = (s.claims ?? obj?.claims ?? null) as Amenity | null;
  return { arm, wording, claims };
}

/** A shown listing's description arm (`neutral` when the record has none). */
export function armOf(s: ShownDescription): DescriptionArm {
  return s.arm ?? "neutral";
}

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
    const shown = (r as { shown: Record<string, unknown>[] }).shown.map((s) => {
      const d = describedListing(s);
      return s.arm === d.arm && s.wording === d.wording && s.claims === d.claims ? s : { ...s, ...d };
    });
    out.push({ ...(r as object), shown } as unknown as ShopEpisode);
    i++;
  }
  return out;
}
