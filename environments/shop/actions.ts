import { z } from "zod";
import { type ActionMeta, META_KEY } from "../bargain/actions.ts";
import { AMENITIES, SORTS } from "./types.ts";

/**
 * The shop's tools as zod action schemas: each member other than `reply` is offered to LLMs as a
 * function tool (named by its `type`, described by `.describe()`); `reply` is the text protocol,
 * read by the strict grammar of `grammar.ts`. Members are strict: an argument the tool does not
 * take is a zod error the agent reads back, not silently dropped.
 */
export const SearchActionSchema = z
  .strictObject({
    type: z.literal("search"),
    area: z
      .string()
      .describe("Only listings in this area or neighborhood (e.g. Midtown, Brooklyn, SoHo).")
      .optional(),
    maxPrice: z
      .number()
      .positive()
      .describe("Only listings at most this nightly price, in US dollars.")
      .optional(),
    minStars: z
      .number()
      .int()
      .min(1)
      .max(5)
      .describe("Only listings with at least this many stars.")
      .optional(),
    amenities: z
      .array(z.enum(AMENITIES))
      .describe("Only listings offering every one of these: free_cancellation, breakfast.")
      .optional(),
    sort: z
      .enum(SORTS)
      .describe("Result order: recommended (default), price_low, price_high or rating.")
      .optional(),
    page: z.number().int().positive().describe("Which page of results (1 = first, the default).").optional(),
  })
  .describe("Search the hotel listings: returns one page of result cards and the total count.");

export const ViewActionSchema = z
  .strictObject({
    type: z.literal("view"),
    id: z.string().describe("The id of a listing shown in your search results."),
  })
  .describe(
    "Open one listing: all its details, room type, cancellation and breakfast terms, and the seller's description.",
  );

export const BookActionSchema = z
  .strictObject({
    type: z.literal("book"),
    id: z.string().describe("The id of a listing shown in your search results."),
  })
  .describe("Book one listing. This ends the task.");

export const GiveUpActionSchema = z
  .strictObject({
    type: z.literal("give_up"),
    reason: z.string().min(1).describe("Why no listing can be booked."),
  })
  .describe("End the task without booking, when no listing meets the requirements.");

export const OfferActionSchema = z
  .strictObject({
    type: z.literal("offer"),
    id: z.string().describe("The id of a listing marked 'Takes offers' in your search results."),
    price: z
      .number()
      .positive()
      .describe(
        "The nightly price you offer, in US dollars. To accept the seller's counter-offer, offer exactly its price.",
      ),
    message: z
      .string()
      .max(600)
      .describe("What you say to the seller with the offer (one or two sentences).")
      .optional(),
  })
  .describe(
    "Offer the seller of a listing that takes offers a nightly price; the seller accepts, counters or rejects. " +
      "After a deal, book the listing to book it at the agreed price.",
  );

/** The tool that messages the client. */
export const MESSAGE_CLIENT = "message_client";

/** `message_client`: with a client, a message to it (a reply without any tool call does the same). */
export const MessageClientActionSchema = z
  .strictObject({
    type: z.literal("message_client"),
    text: z
      .string()
      .min(1)
      .max(4000)
      .describe("What you say to the client: a question, or anything else you want to tell them."),
  })
  .describe(
    "Send your client a message, e.g. a question about what they want; their reply is the result. Each message counts as a tool call.",
  );

export const ShopReplyActionSchema = z.object({ type: z.literal("reply"), text: z.string() });

export const ShopActionSchema = z.discriminatedUnion("type", [
  SearchActionSchema,
  ViewActionSchema,
  BookActionSchema,
  GiveUpActionSchema,
  ShopReplyActionSchema,
]);
/** The shop's actions with `offer`: the tools of a design whose listings may take offers. */
export const NegotiatingShopActionSchema = z.discriminatedUnion("type", [
  SearchActionSchema,
  ViewActionSchema,
  OfferActionSchema,
  BookActionSchema,
  GiveUpActionSchema,
  ShopReplyActionSchema,
]);
/** The shop's actions with `message_client`: the tools of a design with a client. */
export const ClientShopActionSchema = z.discriminatedUnion("type", [
  SearchActionSchema,
  ViewActionSchema,
  MessageClientActionSchema,
  BookActionSchema,
  GiveUpActionSchema,
  ShopReplyActionSchema,
]);
/** With offers and a client. */
export const NegotiatingClientShopActionSchema = z.discriminatedUnion("type", [
  SearchActionSchema,
  ViewActionSchema,
  OfferActionSchema,
  MessageClientActionSchema,
  BookActionSchema,
  GiveUpActionSchema,
  ShopReplyActionSchema,
]);
export type ShopAction = z.infer<typeof NegotiatingClientShopActionSchema>;
export type ShopToolAction = Exclude<ShopAction, { type: "reply" }>;

/** The tools, by name, in the order prompts list them; `offer` only where the design has offers. */
export const SHOP_TOOLS = ["search", "view", "book", "give_up"] as const;
export const NEGOTIATING_SHOP_TOOLS = ["search", "view", "offer", "book", "give_up"] as const;
export type ShopTool = "search" | "view" | "offer" | "message_client" | "book" | "give_up";

/** What a shop's tool set depends on: listings that take offers, a client to message. */
export interface ShopToolSet {
  offers: boolean;
  client: boolean;
}

/** The tools of a shop, in the order prompts list them. */
export function shopTools(set: ShopToolSet): ShopTool[] {
  return [
    "search",
    "view",
    ...(set.offers ? (["offer"] as const) : []),
    ...(set.client ? (["message_client"] as const) : []),
    "book",
    "give_up",
  ];
}

/** The action union of a shop with these tools (the LLM agent's tools and the MCP surface are made from it). */
export function shopActionSchema(set: ShopToolSet): z.ZodDiscriminatedUnion {
  if (set.client) return set.offers ? NegotiatingClientShopActionSchema : ClientShopActionSchema;
  return set.offers ? NegotiatingShopActionSchema : ShopActionSchema;
}

export const TOOL_SCHEMAS: Readonly<Record<ShopTool, z.ZodType>> = {
  search: SearchActionSchema,
  view: ViewActionSchema,
  offer: OfferActionSchema,
  message_client: MessageClientActionSchema,
  book: BookActionSchema,
  give_up: GiveUpActionSchema,
};

/**
 * Several tool calls in one agent message (parallel tool calls): the shape the LLM agent gives an
 * environment when a model answers with more than one call (`agents/llm/graph.ts`), and the one
 * simulated shoppers use. Each call is answered in order, with its own result. A call's `meta` is
 * bookkeeping beside its arguments (the bargaining `meta` convention: the OG-Narrator's note that
 * its narrator fell back to the template line): the rules keep its `note` on the offer's
 * negotiation move and never judge it.
 */
export const TOOL_CALL_BATCH = "several tool calls";

export interface ToolCallBatch {
  type: typeof TOOL_CALL_BATCH;
  calls: { name: string; args: unknown; meta?: ActionMeta }[];
}

/** A call an agent builds: tool name, arguments, and optional bookkeeping beside them. */
export interface BuiltCall {
  name: string;
  args: Record<string, unknown>;
  meta?: ActionMeta;
}

/**
 * A batch of calls, or the single call itself when there is one (its `meta` then at the top level,
 * as a bargaining action carries it).
 */
export function toolCalls(calls: readonly BuiltCall[]): unknown {
  if (calls.length === 1) {
    const c = calls[0]!;
    return { ...c.args, type: c.name, ...(c.meta ? { [META_KEY]: c.meta } : {}) };
  }
  return {
    type: TOOL_CALL_BATCH,
    calls: calls.map((c) => ({ name: c.name, args: c.args, ...(c.meta ? { [META_KEY]: c.meta } : {}) })),
  };
}
