import type { AnswerShape } from "../kernel/answer-shape.ts";

/** A cue-injection answer: one product's letter, or one `choose` call. */
export const CUE_ANSWER: AnswerShape = { toolChoice: "required", maxTokens: { text: 512, tools: 256 } };
