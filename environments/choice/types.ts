import { z } from "zod";
import { CHAINS } from "../../datasets/hotels/schema.ts";
import { PROMPT_VARIANTS } from "./variants.ts";

/** One option as an agent sees it: the hotel's fixed attributes and this appearance's draws. */
export const ChoiceOptionSchema = z.object({
  hotelId: z.number().int(),
  name: z.string(),
  stars: z.number().int().min(1).max(5),
  neighborhood: z.string(),
  chain: z.enum(CHAINS),
  /** Nightly price in US dollars (whole dollars, as listings show them). */
  price: z.number().positive(),
  roomType: z.string(),
  freeCancellation: z.boolean(),
  breakfast: z.boolean(),
  /** Guest review score on the 0–10 scale, one decimal. */
  reviewScore: z.number().min(0).max(10),
  reviewCount: z.number().int().nonnegative(),
  /**
   * The property's amenities, where the task source lists them (the PriceBench release's tasks do;
   * bazaar's own design leaves them out). bazaar's cards never show them; a prompt template may
   * (`{{amenities}}`), e.g. to match the reference runner's "Key amenities" line.
   */
  amenities: z.array(z.string()).optional(),
});
export type ChoiceOption = z.infer<typeof ChoiceOptionSchema>;

export { PROMPT_VARIANTS };
export const PromptVariantSchema = z.enum(PROMPT_VARIANTS);
export type PromptVariant = z.infer<typeof PromptVariantSchema>;

export const TASK_KINDS = ["binary", "ternary", "five"] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

/**
 * One catalog-choice episode, fully specified: the options in display order and how to word them.
 * `setId` names the unique option set (the bootstrap cluster); `appearance` is which re-draw of that
 * set this is; `order` gives, for each display slot, the option's index in the set's canonical order
 * (so [1, 0] is a binary pair shown reversed).
 */
export const ChoiceTaskSchema = z.object({
  env: z.literal("choice"),
  taskId: z.string(),
  kind: z.enum(TASK_KINDS),
  setId: z.string(),
  appearance: z.number().int().nonnegative(),
  order: z.array(z.number().int().nonnegative()),
  options: z.array(ChoiceOptionSchema).min(2).max(26),
  variant: PromptVariantSchema,
});
export type ChoiceTask = z.infer<typeof ChoiceTaskSchema>;

/** Slot letters in display order: A for the first-shown option. */
export function slotLetters(n: number): string[] {
  return Array.from({ length: n }, (_, i) => String.fromCharCode(65 + i));
}
