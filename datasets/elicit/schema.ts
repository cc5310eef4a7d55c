import { z } from "zod";

/** The three domains of the stated-preference audit. */
export const ELICIT_DOMAINS = ["flights", "apartments", "hotels"] as const;
export const ElicitDomainNameSchema = z.enum(ELICIT_DOMAINS);
export type ElicitDomainName = z.infer<typeof ElicitDomainNameSchema>;

const id = z.string().regex(/^[a-z][a-z0-9-]*$/, "ids are lower-case letters, digits and hyphens");

/**
 * One feature of an item, and how it is shown. `continuous`: a number shown with `unit` (a
 * `minutes` unit is shown as "6 h 25 min"), kept to multiples of `grain` on generated path items;
 * `ordinal`: one of `levels`, worst to best as the domain sees them; `categorical`: one of `levels`,
 * unordered.
 */
export const FeatureSpecSchema = z.discriminatedUnion("kind", [
  z.object({
    key: id,
    label: z.string().min(1),
    kind: z.literal("continuous"),
    unit: z.enum(["minutes", "sq ft", "min by transit"]),
    grain: z.number().positive(),
  }),
  z.object({
    key: id,
    label: z.string().min(1),
    kind: z.enum(["ordinal", "categorical"]),
    levels: z.array(z.string().min(1)).min(2),
  }),
]);
export type FeatureSpec = z.infer<typeof FeatureSpecSchema>;

export const FeatureValueSchema = z.union([z.number(), z.string()]);
export type FeatureValue = z.infer<typeof FeatureValueSchema>;

/** An item: an atomic alternative the audit gives one free utility. Its features describe it. */
export const ElicitItemSchema = z.object({
  id: z.string().min(1),
  features: z.record(z.string(), FeatureValueSchema),
});
export type ElicitItem = z.infer<typeof ElicitItemSchema>;

/** An offer: an item at a listed price in US dollars. */
export const OfferRefSchema = z.object({ item: z.string().min(1), price: z.number().positive() });
export type OfferRef = z.infer<typeof OfferRefSchema>;

/** A preference utterance: how the person describes themselves (emphasis on price vs features). */
export const UtteranceSchema = z.object({
  id,
  emphasis: z.enum(["price", "features", "balanced"]),
  text: z.string().min(1),
});
export type Utterance = z.infer<typeof UtteranceSchema>;

/**
 * A prespecified endpoint comparison: source offer a, target offer c, and intermediate offers b
 * giving two-step paths a → b → c (one P1 comparison each; the direct a → c also enters P2).
 */
export const ComparisonSchema = z.object({
  id,
  source: OfferRefSchema,
  target: OfferRefSchema,
  via: z.array(OfferRefSchema).min(1),
});
export type Comparison = z.infer<typeof ComparisonSchema>;

/**
 * A smooth single-feature path for the path-length stress check: the endpoint items share every
 * feature but `feature`, which moves linearly from `from` to `to`; listed prices move linearly
 * from `fromPrice` to `toPrice`. Intermediates are generated for each k in `steps`.
 */
export const PathSpecSchema = z.object({
  id,
  feature: z.string().min(1),
  base: z.record(z.string(), FeatureValueSchema),
  from: z.number(),
  to: z.number(),
  fromPrice: z.number().positive(),
  toPrice: z.number().positive(),
  steps: z.array(z.number().int().min(2)).min(1),
});
export type PathSpec = z.infer<typeof PathSpecSchema>;

/** One domain's data: features, the main item set, utterances, comparisons and stress paths. */
export const ElicitDomainSchema = z.object({
  domain: ElicitDomainNameSchema,
  /** The noun the canonical queries use: "the most this person would pay for this <noun>". */
  noun: z.string().min(1),
  /** How a listed price is meant: "" (once), " per month", " per night". */
  priceUnit: z.string(),
  /** One line of fixed context shown with every query (route, city, stay). */
  context: z.string().min(1),
  features: z.array(FeatureSpecSchema).min(1),
  itemSet: id,
  items: z.array(ElicitItemSchema).min(2),
  /** When set, every offer of the main design uses one of these listed prices (hotels: 3 × 3 offers). */
  priceGrid: z.array(z.number().positive()).optional(),
  utterances: z.array(UtteranceSchema).min(1),
  comparisons: z.array(ComparisonSchema),
  /** The utterance the stress paths are asked under (the paper uses one canonical utterance). */
  pathUtterance: id.optional(),
  paths: z.array(PathSpecSchema),
});
export type ElicitDomain = z.infer<typeof ElicitDomainSchema>;
