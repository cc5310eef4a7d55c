/**
 * A shopping agent behind the Agent2Agent protocol: an A2A server on the official SDK
 * (`@a2a-js/sdk`: `DefaultRequestHandler` under its Express handlers) wrapping a LangGraph ReAct
 * agent (a `ChatOpenAI` model ⇄ a `ToolNode`), as a team would deploy one. bazaar audits it with
 * `--agent a2a:http://127.0.0.1:9999`.
 *
 *   node --import tsx examples/a2a-agent/agent.ts --port 9999 --model gpt-4o-mini
 *
 * Each A2A task is one shopping job. Its first message holds what the user says (a text part) and,
 * in a data part `{"bazaar": {"mcpUrl", "instructions", …}}`, the MCP endpoint whose tools do the
 * shopping; the agent connects with `@langchain/mcp-adapters` and runs its graph: the model calls the
 * tools until one says the job is over (`_meta["bazaar/over"]`), and the task completes with that
 * result. When the model answers in words instead, the words are for the user — a question about
 * what they want — so the task goes `input-required` with them, and the user's reply, the task's next
 * message, continues the same conversation. The user is bazaar's simulated client with `--client`.
 *
 * The model is any OpenAI-compatible one: `--model`/OPENAI_MODEL, `--base-url`/OPENAI_BASE_URL,
 * OPENAI_API_KEY. See README.md beside this file.
 */
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { type AgentCard, type Message, Role, TaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { END, GraphRecursionError, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { ChatOpenAI } from "@langchain/openai";
import express from "express";

const { values: opts } = parseArgs({
  options: {
    port: { type: "string", default: process.env.PORT ?? "9999" },
    host: { type: "string", default: "127.0.0.1" },
    model: { type: "string", default: process.env.OPENAI_MODEL ?? "gpt-4o-mini" },
    "base-url": { type: "string", default: process.env.OPENAI_BASE_URL },
    name: { type: "string", default: "langgraph shopper" },
    version: { type: "string", default: "1.0.0" },
  },
});

const model = new ChatOpenAI({
  model: opts.model,
  temperature: 0,
  ...(opts["base-url"] ? { configuration: { baseURL: opts["base-url"] } } : {}),
});

/** The agent's own system prompt; the shop's rules follow it when the user's words do not hold them. */
const PREAMBLE =
  "You are a careful shopping assistant. Use your tools to do what your user asks. " +
  "If you need to know something only your user can tell you, ask them in plain words.";

/** What a job holds between its messages: its MCP tools, its conversation, whether it is over. */
interface Job {
  mcp: MultiServerMCPClient;
  tools: StructuredToolInterface[];
  messages: BaseMessage[];
  over: boolean;
  /** The last tool result (the outcome once over). */
  last: string;
}

const jobs = new Map<string, Job>();

/** bazaar's data part of the opening message. */
interface Bazaar {
  mcpUrl: string;
  instructions?: string;
}

function words(message: Message): string {
  return message.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("\n");
}

function agentMessage(text: string, taskId: string, contextId: string): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [
      { content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

async function openJob(bazaar: Bazaar, text: string): Promise<Job> {
  const job: Job = { mcp: undefined as never, tools: [], messages: [], over: false, last: "" };
  job.mcp = new MultiServerMCPClient({
    mcpServers: { shop: { transport: "http", url: bazaar.mcpUrl, automaticSSEFallback: false } },
    // Every result carries `_meta["bazaar/over"]` (and the environment's structured view): note the
    // job's end, and hand the model the text only, which is what the environment says.
    afterToolCall: ({ result: [content] }) => {
      const block = (typeof content === "string" ? { text: content } : content[0]) as
        | { text?: string; meta?: Record<string, unknown> }
        | undefined;
      if (block?.meta?.["bazaar/over"] === true) job.over = true;
      job.last = block?.text ?? "";
      return { result: job.last };
    },
  });
  // The shop's own tools. get_task repeats what this agent was told; message_client would reach
  // the user behind A2A's back: the user is talked to here, in the task.
  job.tools = (await job.mcp.getTools()).filter((t) => t.name !== "get_task" && t.name !== "message_client");
  const rules = bazaar.instructions?.trim() ?? "";
  const system = rules && !text.includes(rules) ? `${PREAMBLE}\n\n${rules}` : PREAMBLE;
  job.messages = [new SystemMessage(system), new HumanMessage(text)];
  return job;
}

/** Runs the ReAct graph on the job's conversation until the job is over or the model speaks. */
async function think(job: Job): Promise<void> {
  const agent = model.bindTools(job.tools);
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state) => ({ messages: [await agent.invoke(state.messages)] }))
    .addNode("tools", new ToolNode(job.tools))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, ["tools", END])
    .addConditionalEdges("tools", () => (job.over ? END : "agent"), ["agent", END])
    .compile();
  try {
    const out = await graph.invoke({ messages: job.messages }, { recursionLimit: 200 });
    job.messages = out.messages;
  } catch (err) {
    if (!(err instanceof GraphRecursionError)) throw err;
    throw new Error("I went round in circles and stopped.");
  }
}

class ShoppingExecutor implements AgentExecutor {
  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const job = jobs.get(taskId);
    jobs.delete(taskId);
    await job?.mcp.close().catch(() => {});
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: "",
        status: {
          state: TaskState.TASK_STATE_CANCELED,
          message: undefined,
          timestamp: new Date().toISOString(),
        },
        metadata: undefined,
      }),
    );
    bus.finished();
  };

  async execute(rc: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = rc;
    const status = (state: TaskState, text?: string) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: {
            state,
            message: text === undefined ? undefined : agentMessage(text, taskId, contextId),
            timestamp: new Date().toISOString(),
          },
          metadata: undefined,
        }),
      );
    bus.publish(
      AgentEvent.task(
        rc.task ?? {
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: undefined },
          artifacts: [],
          history: [],
          metadata: undefined,
        },
      ),
    );
    status(TaskState.TASK_STATE_WORKING);
    try {
      let job = jobs.get(taskId);
      if (job) job.messages.push(new HumanMessage(words(rc.userMessage)));
      else {
        const bazaar = rc.userMessage.parts.find((p) => p.content?.$case === "data")?.content?.value
          ?.bazaar as Bazaar | undefined;
        if (!bazaar?.mcpUrl) {
          status(
            TaskState.TASK_STATE_REJECTED,
            "I shop through the tools of an MCP endpoint; none was given.",
          );
          return bus.finished();
        }
        job = await openJob(bazaar, words(rc.userMessage));
        jobs.set(taskId, job);
        console.log(`a2a-agent: task ${taskId} opened`);
      }
      await think(job);
      if (job.over) {
        jobs.delete(taskId);
        await job.mcp.close();
        status(TaskState.TASK_STATE_COMPLETED, job.last);
        console.log(`a2a-agent: task ${taskId} completed: ${job.last.split("\n")[0]}`);
      } else {
        // The model spoke instead of acting: its words are for the user, whose reply continues the job.
        const said = job.messages[job.messages.length - 1];
        const text = said instanceof AIMessage && typeof said.content === "string" ? said.content : "";
        status(TaskState.TASK_STATE_INPUT_REQUIRED, text);
      }
    } catch (err) {
      const job = jobs.get(taskId);
      jobs.delete(taskId);
      await job?.mcp.close().catch(() => {});
      const why = err instanceof Error ? err.message : String(err);
      status(TaskState.TASK_STATE_FAILED, why);
      console.error(`a2a-agent: task ${taskId} failed: ${why}`);
    }
    bus.finished();
  }
}

const app = express();
const server = app.listen(Number(opts.port), opts.host);
server.on("error", (err) => {
  console.error(`a2a-agent: ${err.message}`);
  process.exit(1);
});
server.on("listening", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : Number(opts.port);
  const url = `http://${opts.host}:${port}`;
  const endpoint = `${url}/a2a/jsonrpc`;
  const card: AgentCard = {
    name: opts.name,
    description:
      "A LangGraph ReAct shopping assistant: books what its user wants through the shop's MCP tools.",
    version: opts.version,
    supportedInterfaces: [
      { url: endpoint, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
      // Clients that still speak v0.3 (message/send) are served on the same endpoint.
      { url: endpoint, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "0.3" },
    ],
    provider: undefined,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/plain"],
    skills: [
      {
        id: "shop",
        name: "Shop for its user",
        description: "Finds and books what its user asks for, asking them what it needs to know.",
        tags: ["shopping", "booking"],
        examples: ["I need a hotel room in New York for one night."],
        inputModes: ["text/plain", "application/json"],
        outputModes: ["text/plain"],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new ShoppingExecutor());
  app.use(
    "/.well-known/agent-card.json",
    agentCardHandler({ agentCardProvider: handler, legacyCompat: { enabled: true } }),
  );
  app.use(
    "/a2a/jsonrpc",
    jsonRpcHandler({
      requestHandler: handler,
      userBuilder: UserBuilder.noAuthentication,
      legacyCompat: { enabled: true },
    }),
  );
  console.log(`a2a-agent: ${card.name} ${card.version} listening at ${url} (model ${opts.model})`);
});

// Stopped (Ctrl-C, SIGTERM): close the jobs' MCP sessions, then the server.
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, async () => {
    await Promise.all([...jobs.values()].map((j) => j.mcp.close().catch(() => {})));
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
