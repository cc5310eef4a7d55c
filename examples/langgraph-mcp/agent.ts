/**
 * A LangGraph agent that plays the episodes of `bazaar serve <env>` over MCP, through
 * `@langchain/mcp-adapters`. Each MCP session is one episode: the agent opens a session, reads the
 * task, runs a ReAct graph (model ⇄ tools) until a tool result says the episode is over, closes the
 * session and opens the next, until the server says the run is complete (or is gone).
 *
 *   node --import tsx examples/langgraph-mcp/agent.ts --url http://127.0.0.1:8765/mcp --model gpt-4o-mini
 *
 * The model is any OpenAI-compatible one: `--model`/OPENAI_MODEL, `--base-url`/OPENAI_BASE_URL,
 * OPENAI_API_KEY. See README.md beside this file.
 */
import { parseArgs } from "node:util";
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { END, GraphRecursionError, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { ChatOpenAI } from "@langchain/openai";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const { values: opts } = parseArgs({
  options: {
    url: { type: "string", default: process.env.BAZAAR_MCP_URL ?? "http://127.0.0.1:8765/mcp" },
    model: { type: "string", default: process.env.OPENAI_MODEL ?? "gpt-4o-mini" },
    "base-url": { type: "string", default: process.env.OPENAI_BASE_URL },
    // A model that stops before its episode is over leaves the trial failed, and the server hands it
    // to a later session: give up after this many such episodes in a row rather than loop forever.
    "max-unfinished": { type: "string", default: "3" },
  },
});

const model = new ChatOpenAI({
  model: opts.model,
  temperature: 0,
  ...(opts["base-url"] ? { configuration: { baseURL: opts["base-url"] } } : {}),
});

/** The text of a tool result. */
const textOf = (content: unknown) =>
  (content as { type: string; text?: string }[]).map((c) => (c.type === "text" ? c.text : "")).join("\n");

/**
 * One episode on a new MCP session. `complete`: why there are no more episodes (the server says the
 * run is complete, or, after the first episode, it is gone: it exits once every trial is stored).
 */
async function playEpisode(
  first: boolean,
): Promise<{ complete: string } | { complete: null; over: boolean; last: string }> {
  let over = false;
  let last = "";
  const mcp = new MultiServerMCPClient({
    mcpServers: { bazaar: { transport: "http", url: opts.url, automaticSSEFallback: false } },
    // Every result carries `_meta["bazaar/over"]` (and the environment's structured view): note the
    // episode's end, and hand the model only the text, which is what the environment shows next.
    afterToolCall: ({ result: [content] }) => {
      const block = (typeof content === "string" ? { text: content } : content[0]) as
        | { text?: string; meta?: Record<string, unknown> }
        | undefined;
      if (block?.meta?.["bazaar/over"] === true) over = true;
      last = block?.text ?? "";
      return { result: last };
    },
  });
  let session: Awaited<ReturnType<typeof mcp.getClient>>;
  try {
    let task: Awaited<ReturnType<NonNullable<typeof session>["callTool"]>>;
    try {
      session = await mcp.getClient("bazaar");
      if (!session) throw new Error(`cannot connect to ${opts.url}`);
      // The first call claims the next trial. get_task is not a step; an error means none is left.
      task = await session.callTool({ name: "get_task", arguments: {} });
    } catch (err) {
      if (first) throw err;
      return { complete: `the server is gone (${err instanceof Error ? err.message : String(err)})` };
    }
    if (task.isError) return { complete: textOf(task.content) };
    // The same task as messages (the prompt `task`): MCP prompts have no system role, so the system
    // prompt comes first, as a user message, and the request follows.
    const prompt = await session.getPrompt({ name: "task" });
    const [system, ...rest] = prompt.messages.map((m) => ({
      role: m.role,
      text: m.content.type === "text" ? m.content.text : "",
    }));
    const messages: BaseMessage[] = [
      new SystemMessage(system?.text ?? ""),
      ...rest.map((m) => (m.role === "assistant" ? new AIMessage(m.text) : new HumanMessage(m.text))),
    ];
    // The environment's tools (search, view, book, … as the environment serves them); get_task is ours.
    const tools = (await mcp.getTools()).filter((t) => t.name !== "get_task");
    const agent = model.bindTools(tools);
    // ReAct: the model acts, its tool calls run, and the loop goes on until the episode is over (or the
    // model stops calling tools).
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("agent", async (state) => ({ messages: [await agent.invoke(state.messages)] }))
      .addNode("tools", new ToolNode(tools))
      .addEdge(START, "agent")
      .addConditionalEdges("agent", toolsCondition, ["tools", END])
      .addConditionalEdges("tools", () => (over ? END : "agent"), ["agent", END])
      .compile();
    try {
      await graph.invoke({ messages }, { recursionLimit: 200 });
    } catch (err) {
      if (!(err instanceof GraphRecursionError)) throw err; // a model that never stops: unfinished
    }
    return { complete: null, over, last };
  } finally {
    // End the session (an HTTP DELETE; closing the client alone does not tell the server). Ended
    // before its episode is over, the trial is failed, not answered, and a later session plays it.
    await (session?.transport as StreamableHTTPClientTransport | undefined)
      ?.terminateSession()
      .catch(() => {});
    await mcp.close();
  }
}

let played = 0;
let unfinished = 0;
for (;;) {
  const episode = await playEpisode(played === 0);
  if (episode.complete !== null) {
    console.log(`done: ${played} episode${played === 1 ? "" : "s"} played; ${episode.complete}`);
    break;
  }
  played++;
  unfinished = episode.over ? 0 : unfinished + 1;
  console.log(`episode ${played}${episode.over ? "" : " (unfinished)"}: ${episode.last.split("\n")[0]}`);
  if (unfinished >= Number(opts["max-unfinished"])) {
    console.error(`stopping: ${unfinished} episodes in a row ended before the environment said so`);
    process.exit(1);
  }
}
