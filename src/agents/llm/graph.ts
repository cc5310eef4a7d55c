import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import {
  Annotation,
  END,
  type LangGraphRunnableConfig,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { emptyUsage, type Usage } from "../../environments/kernel/types.ts";
import type { CallResult } from "./caller.ts";
import { type ActionTool, actionFromToolCall } from "./tools.ts";

/** The model call the graph makes; the caller brings caching, retries and rate limits. */
export type CallModel = (
  messages: BaseMessage[],
  tools: ActionTool[] | undefined,
  replicate: number,
  signal: AbortSignal | undefined,
) => Promise<CallResult>;

export const AgentState = Annotation.Root({
  ...MessagesAnnotation.spec,
  /** The environment action this turn produced (set by the decide node). */
  action: Annotation<Record<string, unknown> | null>({ reducer: (_a, b) => b, default: () => null }),
  /** What this turn's model call cost (replaced at every turn, not summed over the thread). */
  usage: Annotation<Usage>({ reducer: (_a, b) => b, default: emptyUsage }),
});
export type AgentStateType = typeof AgentState.State;

/**
 * The agent graph: model → decide. The model node calls the model with the conversation so far (and
 * the environment's action tools in tools mode); decide turns its answer into one environment action:
 * one call to an action tool is that action, a text answer is a `reply` the environment parses
 * strictly, and several tool calls at once are passed on as a malformed action for the environment
 * to judge. The environment's response arrives at the next turn as the tool's result (or as a user
 * message), in the same thread, so a multi-turn episode is one conversation per agent.
 */
export function buildAgentGraph(callModel: CallModel, tools: ActionTool[] | undefined) {
  const actionTools = new Set((tools ?? []).map((t) => t.function.name));
  const checkpointer = new MemorySaver();
  const graph = new StateGraph(AgentState)
    .addNode("model", async (state: AgentStateType, config: LangGraphRunnableConfig) => {
      const replicate = Number(config.configurable?.replicate ?? 0);
      const { message, usage } = await callModel(state.messages, tools, replicate, config.signal);
      return { messages: [message], usage };
    })
    .addNode("decide", (state: AgentStateType) => {
      const last = state.messages.at(-1) as AIMessage;
      const calls = (last.tool_calls ?? []).filter((c) => actionTools.has(c.name));
      if (calls.length === 1) return { action: actionFromToolCall(calls[0]!.name, calls[0]!.args) };
      if (calls.length > 1) {
        return {
          action: { type: "several tool calls", calls: calls.map((c) => ({ name: c.name, args: c.args })) },
        };
      }
      const text = typeof last.content === "string" ? last.content : JSON.stringify(last.content);
      return { action: { type: "reply", text } };
    })
    .addEdge(START, "model")
    .addEdge("model", "decide")
    .addEdge("decide", END)
    .compile({ checkpointer });
  return { graph, checkpointer };
}
