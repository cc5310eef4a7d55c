import { z } from "zod";

/**
 * What a respondent may do: `answer` is the structured tool call of tools mode; `reply` is the
 * plain-text protocol (the environment reads the number strictly). Both are judged the same way.
 */
export const AnswerActionSchema = z
  .object({
    type: z.literal("answer"),
    amount: z
      .number()
      .describe(
        "The answer in US dollars as a plain number (no $ sign, no thousands separators); negative when the question asks for a signed change and the change is a decrease.",
      ),
  })
  .describe("Give your answer to the question: one number of US dollars.");
export const ReplyActionSchema = z.object({
  type: z.literal("reply"),
  text: z.string(),
});
export const ElicitActionSchema = z.discriminatedUnion("type", [AnswerActionSchema, ReplyActionSchema]);
export type ElicitAction = z.infer<typeof ElicitActionSchema>;
