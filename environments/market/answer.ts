import type { AnswerShape } from "../kernel/answer-shape.ts";

/**
 * A seller's turn: one or two tool calls (a description of up to 600 characters, a price), or
 * `keep`; every answer is a call, so tools are required. Room for a 600-character description
 * and the reasoning a model writes around it in text mode.
 */
export const MARKET_ANSWER: AnswerShape = { toolChoice: "required", maxTokens: { text: 1024, tools: 768 } };
