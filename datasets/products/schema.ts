import { z } from "zod";

/** Lower-case words joined by single hyphens: pair ids, categories, cue names and families. */
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const slug = (what: string) =>
  z.string().regex(SLUG, `${what} must be lower-case words joined by hyphens, e.g. "social-proof-strong"`);

/** Text that is shown on one line of a product card: no line breaks, no leading/trailing spaces. */
const cardText = z
  .string()
  .min(1, "must not be empty")
  .refine((s) => !/[\r\n]/.test(s), "must be one line (no line breaks)")
  .refine((s) => s === s.trim(), "must not start or end with spaces");

/**
 * One product as its card shows it. Within a pair both products have the same price, rating,
 * rating count and specifications; only the name and the neutral description differ.
 */
export const ProductSchema = z.object({
  name: cardText,
  /** US dollars with cents: the reference price, shown as is for the uncued product. */
  price: z
    .number()
    .positive()
    .refine((p) => Math.abs(Math.round(p * 100) - p * 100) < 1e-6, "must have at most two decimals (cents)"),
  /** Average rating on the 0–5 scale, one decimal. */
  rating: z
    .number()
    .min(0)
    .max(5)
    .refine((r) => Math.abs(Math.round(r * 10) - r * 10) < 1e-9, "must have one decimal (e.g. 4.4)"),
  ratingCount: z.number().int().nonnegative(),
  /** Label → value, shown one per line in this order. */
  specs: z.record(cardText, cardText),
  /** The neutral description; a cue sentence is appended to it. */
  description: cardText,
});
export type Product = z.infer<typeof ProductSchema>;

/** Two products that differ only in name and neutral wording: the unit of the pair-clustered bootstrap. */
export const ProductPairSchema = z.object({
  pairId: slug("pairId"),
  category: slug("category"),
  /** What the shopper is buying, as the task instruction names it: "a pair of headphones". */
  item: cardText,
  /** A short label for reports, e.g. "wireless in-ear, noise cancelling". */
  label: cardText,
  products: z.tuple([ProductSchema, ProductSchema]),
});
export type ProductPair = z.infer<typeof ProductPairSchema>;

/** A sentence, either the same for every category or per category with an optional "*" fallback. */
export const CueTextSchema = z.union([
  cardText,
  z.record(z.union([slug("category"), z.literal("*")]), cardText),
]);
export type CueText = z.infer<typeof CueTextSchema>;

/**
 * `condition`: run as its own condition of the main battery. `filler`: a neutral sentence that holds
 * a cue's slot in the additivity factorial (named `filler-<cue>`), never run on its own.
 */
export const CUE_ROLES = ["condition", "filler"] as const;
export type CueRole = (typeof CUE_ROLES)[number];

/**
 * One entry of a cue library as a user writes it: a named, versioned sentence with its family (and
 * intensity, for a dose-response series), appended to the cued product's description; `other`, when
 * given, is appended to the other product (framing pairs, length and presence controls).
 */
export const CueEntrySchema = z.object({
  name: slug("name"),
  version: z.number().int().positive().default(1),
  family: slug("family"),
  intensity: slug("intensity").nullable().default(null),
  role: z.enum(CUE_ROLES).default("condition"),
  cue: CueTextSchema,
  other: CueTextSchema.nullable().default(null),
  /** What the sentence is for, shown in `--help`-style listings and the README. */
  note: z.string().default(""),
});
export type CueEntryInput = z.input<typeof CueEntrySchema>;

/**
 * A condition of a run: a library entry, or the cue-free price-only control (no sentences: the
 * "cued" product is simply the one whose price is raised).
 */
export interface CueCondition {
  name: string;
  version: number;
  family: string;
  intensity: string | null;
  role: CueRole;
  cue: CueText | null;
  other: CueText | null;
  note: string;
}

export const PRICE_ONLY = "price-only";
