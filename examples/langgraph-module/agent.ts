/**
 * A LangGraph ReAct agent for bazaar, run in bazaar's own process:
 *
 *   npx bazaar run shop --agent module:examples/langgraph-module/agent.ts
 *
 * bazaar calls the default export once per episode with the episode's tools (the environment's
 * actions — the shop's search, view, book and give_up — as LangChain tools) and runs the graph it
 * returns on `{ messages: [system prompt, request] }`. Every tool call is one step of the episode;
 * the tool returns what the environment shows next (a results page, a listing, the counterpart's
 * reply) and, as the tool message's `artifact`, `{ over, isError, view }`. bazaar stops the graph when
 * the episode ends, so the graph needs no stopping rule of its own.
 *
 * The model is any OpenAI-compatible chat model: `OPENAI_BASE_URL`, `OPENAI_API_KEY` and
 * `BAZAAR_EXAMPLE_MODEL` (default gpt-4o-mini) say which. Against bazaar's simulated models:
 *
 *   npx bazaar serve-sim --port 8089 &
 *   OPENAI_BASE_URL=http://127.0.0.1:8089/v1 OPENAI_API_KEY=sim BAZAAR_EXAMPLE_MODEL=sim-shop-careful \
 *     npx bazaar run shop --agent module:examples/langgraph-module/agent.ts --limit 20
 *
 * Nothing here is bazaar's: the same graph runs anywhere LangGraph does. What makes it a bazaar
 * module is the export below and `bazaarGraph = true`.
 */
import type { AIMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { ChatOpenAI } from "@langchain/openai";

/** Tells bazaar that the export is a graph factory `(tools, ctx) => graph`, not an Agent factory. */
export const bazaarGraph = true;

/** What bazaar passes besides the tools (all optional to use). */
interface EpisodeContext {
  env: string; // "shop", "bargain", "choice", …
  role: string; // "shopper", "buyer", "seller", …
  trialKey: string;
  replicate: number;
  signal: AbortSignal; // aborted when the episode ends or the run stops
}

// One client for every episode: a module is loaded once per bazaar process.
const model = new ChatOpenAI({
  model: process.env.BAZAAR_EXAMPLE_MODEL ?? "gpt-4o-mini",
  temperature: 0,
  maxRetries: 2,
  configuration: process.env.OPENAI_BASE_URL ? { baseURL: process.env.OPENAI_BASE_URL } : {},
});

export default function shoppingAgent(tools: StructuredToolInterface[], _ctx: EpisodeContext) {
  // The model sees the tools' names, descriptions and JSON Schemas; it may call several at once.
  const llm = model.bindTools(tools);

  // The model node: one model call on the conversation so far.
  const callModel = async (state: typeof MessagesAnnotation.State) => ({
    messages: [await llm.invoke(state.messages)],
  });

  // After the model: run its tool calls, or stop when it answered in words. (Answering in words
  // before the episode is over ends the graph early: bazaar records that as the agent's non-answer,
  // quoting the end of its last message.)
  const next = (state: typeof MessagesAnnotation.State) =>
    ((state.messages.at(-1) as AIMessage).tool_calls?.length ?? 0) > 0 ? "tools" : END;

  return new StateGraph(MessagesAnnotation)
    .addNode("agent", callModel)
    .addNode("tools", new ToolNode(tools))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", next, ["tools", END])
    .addEdge("tools", "agent")
    .compile();
}
