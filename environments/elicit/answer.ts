import type { AnswerShape } from "../kernel/answer-shape.ts";

/** A stated-preference answer: one dollar amount, with a line of working at most; one `answer` call. */
export const ELICIT_ANSWER: AnswerShape = { toolChoice: "required", maxTokens: { text: 512, tools: 256 } };
