import type { AnswerShape } from "../kernel/answer-shape.ts";

/**
 * A catalog-choice answer: one letter, `{"choice": "A"}`, or (the `cot` variant) a paragraph of
 * reasoning and an "Answer: A" line — a few hundred tokens at most; one `choose` call in tools mode.
 */
export const CHOICE_ANSWER: AnswerShape = { toolChoice: "required", maxTokens: { text: 512, tools: 256 } };
