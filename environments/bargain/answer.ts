import type { AnswerShape } from "../kernel/answer-shape.ts";

/**
 * A bargaining move: the paper's Thought / Talk / Action lines (a few sentences), or an action tool
 * call with its message; a negotiator may also answer in text, so tools are not required.
 */
export const BARGAIN_ANSWER: AnswerShape = { toolChoice: "auto", maxTokens: { text: 768, tools: 768 } };
