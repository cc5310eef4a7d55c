import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import { Annotation, END, type LangGraphRunnableConfig, START, StateGraph } from "@langchain/langgraph";
import { emptyUsage, type Usage } from "../../environments/kernel/types.ts";
import type { CallResult } from "./caller.ts";
import { quietTracing } from "./quiet-tracing.ts";
import { type ActionTool, actionFromToolCall } from "./tools.ts";

// No LangSmith run trees per runnable unless tracing is asked for (quiet-tracing.ts): once per thread.
quietTracing();

/** The model call the graph makes; the caller brings caching, retries and rate limits. */
export type CallModel = (
  messages: BaseMessage[],
  tools: ActionTool[] | undefined,
  replicate: number,
  signal: AbortSignal | undefined,
) => Promise<CallResult>;

export const AgentState = Annotation.Root({
  /**
   * The thread's conversation, appended to. Not MessagesAnnotation: its reducer gives every message
   * a random id and merges by id on every turn, work a thread the agent keeps itself never needs.
   */
  messages: Annotation<BaseMessage[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  /** The environment action this turn produced. */
  action: Annotation<Record<string, unknown> | null>({ reducer: (_a, b) => b, default: () => null }),
  /** What this turn's model call cost (replaced at every turn, not summed over the thread). */
  usage: Annotation<Usage>({ reducer: (_a, b) => b, default: emptyUsage }),
});
export type AgentStateType = typeof AgentState.State;

/**
 * The environment action an answer stands for: one call to an action tool is that action, a text
 * answer is a `reply` the environment parses strictly, and several tool calls at once are passed on
 * together (`several tool calls`, in order) for the environment to judge — one that answers each
 * call (the shop) runs them one by one; one that takes a single move reads them as malformed. Never
 * a silent first pick.
 */
export function actionFromAnswer(
  answer: AIMessage,
  actionTools: ReadonlySet<string>,
): Record<string, unknown> {
  const calls = (answer.tool_calls ?? []).filter((c) => actionTools.has(c.name));
  if (calls.length === 1) return actionFromToolCall(calls[0]!.name, calls[0]!.args);
  if (calls.length > 1) {
    return { type: "several tool calls", calls: calls.map((c) => ({ name: c.name, args: c.args })) };
  }
  const text = typeof answer.content === "string" ? answer.content : JSON.stringify(answer.content);
  return { type: "reply", text };
}

/**
 * A tool call of an answer that needs a tool message before the next model call: answered by the
 * environment's next messages, in order (`answer: null`), or by the agent itself when the
 * environment never saw the call — a function that was not offered, or arguments that are not JSON.
 */
export interface PendingCall {
  id: string;
  answer: string | null;
}

/** What the agent answers for a call the environment never saw, so the thread stays well formed. */
export function unansweredCallText(name: string, tools: ReadonlySet<string>, invalidArgs: boolean): string {
  if (invalidArgs) return `Error: the arguments of ${name} are not valid JSON; nothing was run.`;
  return `Error: there is no tool "${name}"${tools.size ? `; the tools are ${[...tools].join(", ")}` : ""}. Nothing was run.`;
}

/**
 * Every tool call of an answer that the thread must answer, in order: the calls `actionFromAnswer`
 * passed to the environment (which answers them with its next messages, one each) and the rest,
 * answered by the agent. An answer without an action-tool call passes the environment a `reply`,
 * whose answer goes to the first call, as it always has.
 */
export function pendingCalls(answer: AIMessage, actionTools: ReadonlySet<string>): PendingCall[] {
  const calls = (answer.tool_calls ?? []).filter((c) => typeof c.id === "string" && c.id !== "");
  const invalid = (answer.invalid_tool_calls ?? []).filter((c) => typeof c.id === "string" && c.id !== "");
  const passed = calls.some((c) => actionTools.has(c.name));
  const out: PendingCall[] = calls.map((c, i) => ({
    id: c.id as string,
    answer:
      actionTools.has(c.name) || (!passed && i === 0) ? null : unansweredCallText(c.name, actionTools, false),
  }));
  for (const c of invalid) {
    const first = !passed && out.length === 0;
    out.push({
      id: c.id as string,
      answer: first ? null : unansweredCallText(c.name ?? "tool", actionTools, true),
    });
  }
  return out;
}

/**
 * The agent graph, one node per model turn: the node calls the model with the thread's conversation
 * (and, in tools mode, the environment's action tools) and turns the answer into the environment
 * action. The environment's response arrives at the next turn as the tool's result (or a user
 * message) appended to the same thread, so a multi-turn episode is one conversation per agent.
 *
 * LangGraph's per-turn cost dominates the agent's overhead against a fast local server, so the graph
 * is as lean as it can be: the model node decides too (a second node would double the cost), and
 * there is no checkpointer — the agent hands in its thread's conversation and keeps the one the graph
 * returns (a MemorySaver serialises and copies the whole thread twice per turn, ~0.5 ms).
 *
 * The run's abort signal comes in as `configurable.abort` and goes straight to the model call: given
 * as `invoke`'s own `signal`, LangGraph 1.7 adds an abort listener to it on every invoke and never
 * removes it, so a run-wide signal would collect one listener (and what it holds) per turn.
 */
export function buildAgentGraph(callModel: CallModel, tools: ActionTool[] | undefined) {
  const actionTools = new Set((tools ?? []).map((t) => t.function.name));
  return new StateGraph(AgentState)
    .addNode("model", async (state: AgentStateType, config: LangGraphRunnableConfig) => {
      const replicate = Number(config.configurable?.replicate ?? 0);
      const signal = config.configurable?.abort as AbortSignal | undefined;
      const { message, usage } = await callModel(state.messages, tools, replicate, signal);
      return { messages: [message], usage, action: actionFromAnswer(message, actionTools) };
    })
    .addEdge(START, "model")
    .addEdge("model", END)
    .compile();
}
