import type { AnswerShape } from "../kernel/answer-shape.ts";

/**
 * A shopping turn: several tool calls at once (searches with filters, views, a booking), or their
 * text grammar; a shopper may also write to the user, so tools are not required.
 */
export const SHOP_ANSWER: AnswerShape = { toolChoice: "auto", maxTokens: { text: 1024, tools: 1024 } };
