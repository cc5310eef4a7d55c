/**
 * What an environment's answer asks of a model call, where the user does not say otherwise (the
 * defaults of `--tool-choice` and `--max-tokens`). Plain data: `run <env> --help` shows it.
 */
export interface AnswerShape {
  /**
   * Tools mode's `tool_choice`: "required" where an answer is exactly one tool call (servers that
   * constrain tool calls by a grammar apply it lazily under "auto"), "auto" where the agent may also
   * write, or end the episode, in text.
   */
  toolChoice: "auto" | "required";
  /**
   * The output cap in tokens, per answer mode: the longest valid answer with room to spare. Without
   * one a small local model writes to its context limit (thousands of tokens for one letter).
   * Reasoning models get room for their hidden reasoning on top (agents/llm/model-params.ts).
   */
  maxTokens: { text: number; tools: number };
}
