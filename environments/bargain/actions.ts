import { z } from "zod";

/**
 * What a negotiator may do. `offer`, `deal`, `reject` and `quit` are the structured form (tools
 * mode: each becomes an LLM tool); `reply` is the paper's Thought/Talk/Action text, parsed strictly
 * by the environment. Both carry the same four moves and are judged by the same rules. Prices are
 * the total for the one item on the table, in US dollars.
 */
const talk = z
  .string()
  .describe("What you say to the other side: one or two short sentences in your own words.")
  .optional();
const price = z
  .number()
  .nonnegative()
  .describe("Total price in US dollars for 1 unit of the item, e.g. 129.99.");

export const OfferActionSchema = z
  .object({ type: z.literal("offer"), price, talk })
  .describe(
    "Propose a price: as the buyer, what you offer to pay ([BUY]); as the seller, what you ask ([SELL]).",
  );
export const DealActionSchema = z
  .object({
    type: z.literal("deal"),
    price: price.describe("Exactly the price of an earlier offer by the other side."),
    talk,
  })
  .describe(
    "Accept a price the other side offered earlier; this ends the negotiation with a deal at that price. " +
      "Never use it to propose a new price.",
  );
export const RejectActionSchema = z
  .object({ type: z.literal("reject"), talk })
  .describe("Reject the other side's offer and wait for a new one.");
export const QuitActionSchema = z
  .object({ type: z.literal("quit"), talk })
  .describe("End the negotiation without a deal.");
export const BargainReplyActionSchema = z.object({ type: z.literal("reply"), text: z.string() });

export const BargainActionSchema = z.discriminatedUnion("type", [
  OfferActionSchema,
  DealActionSchema,
  RejectActionSchema,
  QuitActionSchema,
  BargainReplyActionSchema,
]);
export type BargainAction = z.infer<typeof BargainActionSchema>;
/** A structured move (everything but the text protocol). */
export type BargainMoveAction = Exclude<BargainAction, { type: "reply" }>;

/**
 * Bookkeeping an agent wrapper may attach to an action for the transcript (model tokens, time);
 * the environment reads it and never judges it.
 */
export interface ActionMeta {
  tokens?: { input: number; output: number };
  ms?: number;
  note?: string;
}
export const META_KEY = "meta";
