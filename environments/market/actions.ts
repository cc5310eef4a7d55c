import { z } from "zod";

/**
 * A seller's tools as zod action schemas: each member other than `reply` is offered to LLMs as a
 * function tool (named by its `type`). Members are strict: an argument a tool does not take is a
 * zod error the seller reads back. The limits that depend on the listing (the text length, cost ≤
 * price ≤ cap) are the machine's (`rules.ts`), so their refusals say what the limit is.
 */
export const SetDescriptionActionSchema = z
  .strictObject({
    type: z.literal("set_description"),
    text: z
      .string()
      .describe(
        "The new description: plain text, at most 600 characters. Result cards show its first sentence; an opened listing shows it whole.",
      ),
  })
  .describe("Replace your listing's description.");

export const SetPriceActionSchema = z
  .strictObject({
    type: z.literal("set_price"),
    amount: z
      .number()
      .describe("The new nightly price in whole US dollars: at least your cost, at most the price cap."),
  })
  .describe("Set your listing's nightly price.");

export const KeepActionSchema = z
  .strictObject({ type: z.literal("keep") })
  .describe("Keep your listing as it is for the next round.");

export const SellerReplyActionSchema = z.object({ type: z.literal("reply"), text: z.string() });

export const SellerActionSchema = z.discriminatedUnion("type", [
  SetDescriptionActionSchema,
  SetPriceActionSchema,
  KeepActionSchema,
  SellerReplyActionSchema,
]);
export type SellerAction = z.infer<typeof SellerActionSchema>;

/** The tools, by name, in the order prompts list them. */
export const SELLER_TOOLS = ["set_description", "set_price", "keep"] as const;
export type SellerTool = (typeof SELLER_TOOLS)[number];

export const SELLER_TOOL_SCHEMAS: Readonly<Record<SellerTool, z.ZodType>> = {
  set_description: SetDescriptionActionSchema,
  set_price: SetPriceActionSchema,
  keep: KeepActionSchema,
};
