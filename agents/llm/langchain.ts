/**
 * LangChain, loaded when an LLM agent first takes a turn (DESIGN.md § Start-up): `--help`, a run of
 * simulated agents and `analyze` never load it, and an `openai:` agent pays for it once. Each module
 * is imported once; later calls await a settled promise.
 */
let messages: Promise<typeof import("@langchain/core/messages")> | undefined;
let chatModel: Promise<typeof import("./chat-model.ts")> | undefined;

/** LangChain's message classes (AIMessage, HumanMessage, …). */
export function langchainMessages(): Promise<typeof import("@langchain/core/messages")> {
  messages ??= import("@langchain/core/messages");
  return messages;
}

/** The ChatOpenAI builder (`@langchain/openai` and the OpenAI SDK under it). */
export function chatModelModule(): Promise<typeof import("./chat-model.ts")> {
  chatModel ??= import("./chat-model.ts");
  return chatModel;
}
