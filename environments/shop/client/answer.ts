import type { AnswerShape } from "../../kernel/answer-shape.ts";

/**
 * A client's reply: one or two sentences of plain text (an LLM client is never given tools).
 */
export const CLIENT_ANSWER: AnswerShape = { toolChoice: "auto", maxTokens: { text: 256, tools: 256 } };
