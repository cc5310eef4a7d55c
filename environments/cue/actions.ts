import { z } from "zod";

/**
 * What a shopper may do in a cue episode: the same two answer modes as catalog choice. `reply` is
 * the plain-text protocol (parsed strictly, by catalog choice's parser); `choose` is the tool call.
 */
export const CueChooseActionSchema = z
  .object({
    type: z.literal("choose"),
    option: z.string().describe("The letter of the chosen product, exactly as labelled (A or B)."),
  })
  .describe("Buy one of the two products shown, by its letter.");
export const CueReplyActionSchema = z.object({
  type: z.literal("reply"),
  text: z.string(),
});
export const CueActionSchema = z.discriminatedUnion("type", [CueChooseActionSchema, CueReplyActionSchema]);
export type CueAction = z.infer<typeof CueActionSchema>;
