import { z } from "zod";

/** Which product of the pair: A is `products[0]`, B is `products[1]`. */
export const PRODUCT_SIDES = ["A", "B"] as const;
export type ProductSide = (typeof PRODUCT_SIDES)[number];

/** What one card shows, in the order the prompt shows it. */
export const CueCardSchema = z.object({
  name: z.string(),
  /** US dollars with cents. */
  price: z.number().positive(),
  /** 0–5, one decimal. */
  rating: z.number().min(0).max(5),
  ratingCount: z.number().int().nonnegative(),
  specs: z.record(z.string(), z.string()),
  /** The neutral description with any appended sentences, exactly as shown. */
  description: z.string(),
});
export type CueCard = z.infer<typeof CueCardSchema>;

/** A card of a task: what is shown, plus which product it is and whether it is the cued one. */
export const CueOptionSchema = CueCardSchema.extend({
  product: z.enum(PRODUCT_SIDES),
  /** The cued product (for the price-only control: the one whose price is raised). */
  cued: z.boolean(),
});
export type CueOption = z.infer<typeof CueOptionSchema>;

/**
 * `main`: every condition under the default instruction. `additivity`: the 2³ factorial of three
 * cues in fixed slots that otherwise hold neutral fillers. `paraphrases`: a cue subset under the
 * other task instructions (the main block is their instruction 0).
 */
export const CUE_BLOCKS = ["main", "additivity", "paraphrases"] as const;
export type CueBlock = (typeof CUE_BLOCKS)[number];

/**
 * One cue episode, fully specified: the two cards in display order and how the task is worded.
 * `premium` is the design's relative premium on the cued product (0.12 = 12%); the shown price is
 * the reference price × (1 + premium) rounded to cents, the other product keeps the reference price.
 */
export const CueTaskSchema = z.object({
  env: z.literal("cue"),
  taskId: z.string(),
  /**
   * The design seed. It changes nothing the agent sees, but it enters the trial keys, so a simulated
   * shopper draws afresh under another seed (an independent replication of the same design).
   */
  seed: z.string(),
  block: z.enum(CUE_BLOCKS),
  condition: z.string(),
  family: z.string(),
  intensity: z.string().nullable(),
  /** A cue on one product only (no sentence on the other, not the price-only control). */
  oneSided: z.boolean(),
  /** Version of the library entry (0 for additivity cells, which combine several). */
  version: z.number().int().nonnegative(),
  category: z.string(),
  item: z.string(),
  pairId: z.string(),
  premium: z.number().nonnegative(),
  referencePrice: z.number().positive(),
  cueTarget: z.enum(PRODUCT_SIDES),
  cuedFirst: z.boolean(),
  /** Which task instruction (0 = the default; 1–3 = paraphrases). */
  instruction: z.number().int().min(0),
  /** Additivity cells: which of the factorial's cues the cued product carries, by cue name. */
  factors: z.record(z.string(), z.boolean()).nullable(),
  options: z.tuple([CueOptionSchema, CueOptionSchema]),
});
export type CueTask = z.infer<typeof CueTaskSchema>;

/** The two slot letters of a cue task. */
export const CUE_LETTERS: readonly string[] = ["A", "B"];
