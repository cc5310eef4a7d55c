import { z } from "zod";

/**
 * What a shopper may do in a catalog-choice episode. `reply` is the plain-text protocol of the
 * paper (the environment parses it strictly); `choose` is the structured tool call an LLM agent in
 * tools mode makes. Both are judged by the same rules.
 */
export const ChooseActionSchema = z
  .object({
    type: z.literal("choose"),
    option: z.string().describe("The letter of the chosen option, exactly as labelled (A, B, …)."),
  })
  .describe("Book one of the options shown, by its letter.");
export const ReplyActionSchema = z.object({
  type: z.literal("reply"),
  text: z.string(),
});
export const ChoiceActionSchema = z.discriminatedUnion("type", [ChooseActionSchema, ReplyActionSchema]);
export type ChoiceAction = z.infer<typeof ChoiceActionSchema>;
